-- module: ops.ops_unique_args
-- requires: ops.ops_launchers

-- ops_unique_args_keyed: launcher ops grouped by name, category, process/thread and their
-- exact arguments (TraceLens's sheet of the same name, docs/schema.md, ops_unique_args),
-- of each report (ops_launchers.report): the inference report also groups by parent
-- module and kernel count and keeps the first launcher's call stack.
-- Statistics are over the instances' direct and subtree GPU busy times (µs);
-- std is the sample standard deviation (NULL for a single instance).
-- Argument columns hold the args' JSON text (input_dims, ...); NULL when absent.
-- kernel_details_summary is a JSON array (kernel_details_summary()).
-- Rows (rank): direct time sum descending, then ex_uid.
-- ops_unique_args: the perf report's rows; inference_ops_unique_args (sql/inference/)
-- the others.
CREATE TEMP VIEW IF NOT EXISTS ops_unique_args_keyed AS
WITH g AS (
    SELECT trace_id, report, name, op_category, parent_module, process_name, process_label, thread_name,
           input_dims, input_type, input_strides, concrete_inputs, num_kernels,
           count(*) AS operation_count,
           pd_mean(total_direct_kernel_time, seq) AS total_direct_kernel_time_mean,
           pd_mean(total_subtree_kernel_time, seq) AS total_subtree_kernel_time_mean,
           median(total_direct_kernel_time) AS total_direct_kernel_time_median,
           median(total_subtree_kernel_time) AS total_subtree_kernel_time_median,
           pd_std(total_direct_kernel_time, seq) AS total_direct_kernel_time_std,
           pd_std(total_subtree_kernel_time, seq) AS total_subtree_kernel_time_std,
           min(total_direct_kernel_time) AS total_direct_kernel_time_min,
           min(total_subtree_kernel_time) AS total_subtree_kernel_time_min,
           max(total_direct_kernel_time) AS total_direct_kernel_time_max,
           max(total_subtree_kernel_time) AS total_subtree_kernel_time_max,
           pd_sum(total_direct_kernel_time, seq) AS total_direct_kernel_time_sum,
           pd_sum(total_subtree_kernel_time, seq) AS total_subtree_kernel_time_sum,
           first(uid, seq) AS ex_uid,
           kernel_details_summary(kernel_details, seq) AS kernel_details_summary,
           -- the first launcher's call stack, once per group (not the stack of every row)
           CASE WHEN report = 'inference' THEN inference_module_stack(trace_id, first(uid, seq)) END AS call_stack
    FROM ops_launchers
    -- the keys that rarely differ last: the sort compares fewer of them
    GROUP BY trace_id, name, op_category, process_name, process_label, thread_name,
             input_dims, input_type, input_strides, concrete_inputs, parent_module, num_kernels, report
),
-- as pandas: each row's share of numpy's sum of the sorted column, and numpy's cumsum
-- of the shares (both in the sheet's row order)
p AS (
    SELECT *, total_direct_kernel_time_sum / np_sum(total_direct_kernel_time_sum) OVER (w ROWS BETWEEN UNBOUNDED PRECEDING
                                      AND UNBOUNDED FOLLOWING) * 100.0 AS percentage
    FROM g WINDOW w AS (PARTITION BY trace_id, report ORDER BY total_direct_kernel_time_sum DESC, ex_uid)
)
SELECT *, trunc_kernel_details(kernel_details_summary) AS trunc_kernel_details,
       cumsum(percentage) OVER w AS cumulative_percentage, row_number() OVER w AS rank
FROM p WINDOW w AS (PARTITION BY trace_id, report ORDER BY total_direct_kernel_time_sum DESC, ex_uid ROWS UNBOUNDED PRECEDING)
ORDER BY trace_id, report, total_direct_kernel_time_sum DESC, ex_uid;

CREATE TEMP VIEW IF NOT EXISTS ops_unique_args AS
SELECT trace_id, name, op_category, process_name, process_label, thread_name,
       input_dims, input_type, input_strides, concrete_inputs, operation_count,
       total_direct_kernel_time_mean, total_subtree_kernel_time_mean,
       total_direct_kernel_time_median, total_subtree_kernel_time_median,
       total_direct_kernel_time_std, total_subtree_kernel_time_std,
       total_direct_kernel_time_min, total_subtree_kernel_time_min,
       total_direct_kernel_time_max, total_subtree_kernel_time_max,
       total_direct_kernel_time_sum, total_subtree_kernel_time_sum, ex_uid, kernel_details_summary,
       trunc_kernel_details, percentage, cumulative_percentage
FROM ops_unique_args_keyed WHERE report = 'perf'
ORDER BY trace_id, total_direct_kernel_time_sum DESC, ex_uid;
