-- ops_unique_args: launcher ops grouped by name, category, process/thread and their
-- exact arguments (TraceLens's sheet of the same name, reference-semantics §6.5).
-- Statistics are over the instances' direct and subtree GPU busy times (µs);
-- std is the sample standard deviation (NULL for a single instance).
-- Argument columns hold the args' JSON text (input_dims, ...); NULL when absent.
-- kernel_details_summary is a JSON array (kernel_details_summary()).
-- Rows: direct time sum descending, then ex_uid.
CREATE TEMP VIEW IF NOT EXISTS ops_unique_args AS
WITH g AS (
    SELECT trace_id, name, op_category, process_name, process_label, thread_name,
           input_dims, input_type, input_strides, concrete_inputs,
           count(*) AS operation_count,
           avg(total_direct_kernel_time) AS total_direct_kernel_time_mean,
           avg(total_subtree_kernel_time) AS total_subtree_kernel_time_mean,
           median(total_direct_kernel_time) AS total_direct_kernel_time_median,
           median(total_subtree_kernel_time) AS total_subtree_kernel_time_median,
           stdev(total_direct_kernel_time) AS total_direct_kernel_time_std,
           stdev(total_subtree_kernel_time) AS total_subtree_kernel_time_std,
           min(total_direct_kernel_time) AS total_direct_kernel_time_min,
           min(total_subtree_kernel_time) AS total_subtree_kernel_time_min,
           max(total_direct_kernel_time) AS total_direct_kernel_time_max,
           max(total_subtree_kernel_time) AS total_subtree_kernel_time_max,
           sum(total_direct_kernel_time) AS total_direct_kernel_time_sum,
           sum(total_subtree_kernel_time) AS total_subtree_kernel_time_sum,
           first(uid, seq) AS ex_uid,
           kernel_details_summary(kernel_details, seq) AS kernel_details_summary
    FROM kernel_launchers
    GROUP BY trace_id, name, op_category, process_name, process_label, thread_name,
             input_dims, input_type, input_strides, concrete_inputs
)
SELECT *,
       trunc_kernel_details(kernel_details_summary) AS trunc_kernel_details,
       total_direct_kernel_time_sum / sum(total_direct_kernel_time_sum) OVER w_all * 100.0 AS percentage,
       sum(total_direct_kernel_time_sum) OVER w_run
         / sum(total_direct_kernel_time_sum) OVER w_all * 100.0 AS cumulative_percentage
FROM g
WINDOW w_all AS (PARTITION BY trace_id),
       w_run AS (PARTITION BY trace_id ORDER BY total_direct_kernel_time_sum DESC, ex_uid
                 ROWS UNBOUNDED PRECEDING)
ORDER BY trace_id, total_direct_kernel_time_sum DESC, ex_uid;
