-- module: diff.diff_stats
-- requires: config.diff_params

-- diff_stats: TraceLens's diff_stats.csv (docs/diff.md, tree_diff_stats and diff_stats), one row
-- per GPU event under a difference. When the pair is identical (docs/diff.md, tree_diff_stats and
-- diff_stats) the trace2 rows are left out, as TraceLens does. lowest_common_ancestor_id turns REAL
-- (4.0) when some row has none, as pandas' column does.
CREATE TEMP VIEW IF NOT EXISTS diff_stats AS
SELECT s.trace_id AS baseline_id, s.variant_id, s.seq,
       s.name, s.cpu_op_name, s.cpu_op_uid, s.source,
       coalesce(py_repr(s.input_dims, 1), '') AS "Input Dims",
       coalesce(py_repr(s.input_strides, 1), '') AS "Input Strides",
       coalesce(py_repr(s.input_type, 1), '') AS "Input type",
       coalesce(py_repr(s.concrete_inputs, 1), '') AS "Concrete Inputs",
       s.kernel_time, s.busy_time,
       s.lca_name AS lowest_common_ancestor_name,
       CASE WHEN max(s.lca_id IS NULL) OVER (PARTITION BY s.trace_id, s.variant_id)
            THEN CAST(s.lca_id AS REAL) ELSE s.lca_id END AS lowest_common_ancestor_id,
       s.gpu_op_uid, s.nn_module_stack, s.nn_module_parent,
       s.cpu_op_map_name, s.identical
FROM diff_params p, tree_diff_stats(p.baseline, p.variant) s
WHERE NOT (s.identical AND s.source = 'trace2')
ORDER BY baseline_id, variant_id, s.seq;
