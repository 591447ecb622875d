-- module: diff.diff_stats_unique_args_summary
-- requires: diff.diff_stats

-- diff_stats_unique_args_summary: TraceLens's CSV of the same name (docs/diff.md,
-- diff_stats_unique_args_summary): diff_stats grouped by every column but kernel_time,
-- lowest_common_ancestor_id and gpu_op_uid; cpu_op_name as the cpu-op map renames it,
-- nn_module_parent without spaces. Rows by kernel_time_sum descending, ties by the columns' text in
-- table order.
CREATE TEMP VIEW IF NOT EXISTS diff_stats_unique_args_summary AS
WITH g AS (
    SELECT baseline_id, variant_id, name, count(*) AS operation_count,
           cpu_op_name AS orig_op_name, cpu_op_map_name, cpu_op_uid, source,
           "Input Dims", "Input Strides", "Input type", "Concrete Inputs", busy_time,
           lowest_common_ancestor_name, nn_module_stack, nn_module_parent,
           pd_mean(kernel_time, seq) AS kernel_time_mean,
           pd_sum(kernel_time, seq) AS kernel_time_sum, identical
    FROM diff_stats
    GROUP BY baseline_id, variant_id, name, cpu_op_name, cpu_op_uid, source, "Input Dims",
             "Input Strides", "Input type", "Concrete Inputs", busy_time,
             lowest_common_ancestor_name, nn_module_stack, nn_module_parent
)
SELECT baseline_id, variant_id, name, operation_count, cpu_op_map_name AS cpu_op_name,
       cpu_op_uid, source, "Input Dims", "Input Strides", "Input type", "Concrete Inputs",
       busy_time, lowest_common_ancestor_name, nn_module_stack,
       replace(nn_module_parent, ' ', '') AS nn_module_parent,
       kernel_time_mean, kernel_time_sum, identical
FROM g
ORDER BY baseline_id, variant_id, kernel_time_sum DESC, name, CAST(operation_count AS TEXT),
         orig_op_name, CAST(cpu_op_uid AS TEXT), source, "Input Dims", "Input Strides",
         "Input type", "Concrete Inputs", py_float(busy_time),
         coalesce(lowest_common_ancestor_name, 'nan'), nn_module_stack, nn_module_parent,
         py_float(kernel_time_mean);
