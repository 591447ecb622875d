-- module: diff.report_diff_stats
-- requires: diff.comparison_stats

-- report_diff_stats: the perf report's diff_stats sheet when the report option
-- `comparison` is set (docs/diff.md, TraceDiff in the perf report): TraceLens's diff_stats.csv of
-- the reported trace (baseline) with the comparison trace; trace_id first. source is NULL (and so
-- left out of the CSV) when the pair is identical.
CREATE TEMP VIEW IF NOT EXISTS report_diff_stats AS
SELECT trace_id, name, cpu_op_name, cpu_op_uid,
       CASE WHEN identical THEN NULL ELSE source END AS source,
       coalesce(py_repr(input_dims, 1), '') AS "Input Dims",
       coalesce(py_repr(input_strides, 1), '') AS "Input Strides",
       coalesce(py_repr(input_type, 1), '') AS "Input type",
       coalesce(py_repr(concrete_inputs, 1), '') AS "Concrete Inputs",
       kernel_time, busy_time,
       lca_name AS lowest_common_ancestor_name,
       CASE WHEN max(lca_id IS NULL) OVER (PARTITION BY trace_id)
            THEN py_float(lca_id) ELSE lca_id END AS lowest_common_ancestor_id,
       gpu_op_uid, nn_module_stack, nn_module_parent
FROM comparison_stats
WHERE NOT (identical AND source = 'trace2')
ORDER BY trace_id, seq;
