-- module: inference.inference_ops_unique_args
-- requires: inference.inference_launchers

-- inference_ops_unique_args: TraceLens's ops_unique_args of the inference report:
-- ops_unique_args (sql/ops/ops_unique_args.sql) with parent_module and num_kernels
-- among the keys and call_stack (the first launcher's) among the aggregates. Rows:
-- direct time sum descending, then ex_uid.
CREATE TEMP VIEW IF NOT EXISTS inference_ops_unique_args AS
WITH g AS (
    SELECT trace_id, name, op_category, parent_module, process_name, process_label, thread_name,
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
           first(uid, seq) AS ex_uid, first(call_stack, seq) AS call_stack,
           kernel_details_summary(kernel_details, seq) AS kernel_details_summary
    FROM inference_launchers
    GROUP BY trace_id, name, op_category, parent_module, process_name, process_label, thread_name,
             input_dims, input_type, input_strides, concrete_inputs, num_kernels
), p AS (
    SELECT *, total_direct_kernel_time_sum / np_sum(total_direct_kernel_time_sum) OVER (w ROWS BETWEEN UNBOUNDED PRECEDING
                                      AND UNBOUNDED FOLLOWING) * 100.0 AS percentage
    FROM g WINDOW w AS (PARTITION BY trace_id ORDER BY total_direct_kernel_time_sum DESC, ex_uid)
)
SELECT *, trunc_kernel_details(kernel_details_summary) AS trunc_kernel_details,
       cumsum(percentage) OVER w AS cumulative_percentage
FROM p WINDOW w AS (PARTITION BY trace_id ORDER BY total_direct_kernel_time_sum DESC, ex_uid ROWS UNBOUNDED PRECEDING)
ORDER BY trace_id, total_direct_kernel_time_sum DESC, ex_uid;
