-- 60_diff.sql — diff_params (the pair the diff views compare) and TraceLens's TraceDiff
-- CSVs as views, plus HTA's ops diff (docs/diff.md).

-- diff_params: the (baseline, variant) pairs the diff views read, each a trace id,
-- label or path (a path not open yet is loaded). One row per pair, e.g.
--   INSERT INTO diff_params VALUES ('base.json.gz', 'new.json.gz');
-- Per connection (TEMP); every diff view has rows for every pair in it.
CREATE TEMP TABLE IF NOT EXISTS diff_params(baseline, variant);

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

-- diff_stats_names_summary: the per-op summary TraceLens once wrote under this name
-- (removed before the reference revision, docs/diff.md, diff_stats_unique_args_summary), over
-- today's rows: per op name (as the cpu-op map renames it) the GPU events under differences on each
-- side, their kernel_time sums in ms, the difference (trace2 - trace1) and its absolute value. Rows
-- by kernel_time_trace1_sum_ms descending, then name.
CREATE TEMP VIEW IF NOT EXISTS diff_stats_names_summary AS
SELECT baseline_id, variant_id, cpu_op_map_name AS name, count(*) AS row_count,
       coalesce(pd_sum(CASE WHEN source = 'trace1' THEN kernel_time END, seq), 0.0) / 1000.0
           AS kernel_time_trace1_sum_ms,
       coalesce(pd_sum(CASE WHEN source = 'trace2' THEN kernel_time END, seq), 0.0) / 1000.0
           AS kernel_time_trace2_sum_ms,
       (coalesce(pd_sum(CASE WHEN source = 'trace2' THEN kernel_time END, seq), 0.0)
        - coalesce(pd_sum(CASE WHEN source = 'trace1' THEN kernel_time END, seq), 0.0)) / 1000.0
           AS diff_sum_ms,
       abs(coalesce(pd_sum(CASE WHEN source = 'trace2' THEN kernel_time END, seq), 0.0)
           - coalesce(pd_sum(CASE WHEN source = 'trace1' THEN kernel_time END, seq), 0.0)) / 1000.0
           AS abs_diff_sum_ms
FROM diff_stats
GROUP BY baseline_id, variant_id, cpu_op_map_name
ORDER BY baseline_id, variant_id, kernel_time_trace1_sum_ms DESC, name;

-- diff_ops: HTA's ops diff over the same pairs: per name and kind (cpu_op, kernel,
-- gpu_memcpy, gpu_memset), the count and total duration (µs) in each trace, their
-- differences (variant - baseline) and the change: added (baseline has none), deleted
-- (variant has none), increased, decreased or unchanged (by count).
CREATE TEMP VIEW IF NOT EXISTS diff_ops AS
WITH b AS (
    SELECT p.rowid AS pair, e.name, e.kind, count(*) AS n, total(e.dur) AS us
    FROM diff_params p, events(p.baseline) e
    WHERE e.kind IN ('cpu_op', 'kernel', 'gpu_memcpy', 'gpu_memset') AND e.dur IS NOT NULL
    GROUP BY p.rowid, e.name, e.kind
), v AS (
    SELECT p.rowid AS pair, e.name, e.kind, count(*) AS n, total(e.dur) AS us
    FROM diff_params p, events(p.variant) e
    WHERE e.kind IN ('cpu_op', 'kernel', 'gpu_memcpy', 'gpu_memset') AND e.dur IS NOT NULL
    GROUP BY p.rowid, e.name, e.kind
), k AS (
    SELECT pair, name, kind FROM b UNION SELECT pair, name, kind FROM v
)
SELECT k.pair, k.name, k.kind,
       coalesce(b.n, 0) AS baseline_count, coalesce(v.n, 0) AS variant_count,
       coalesce(v.n, 0) - coalesce(b.n, 0) AS count_diff,
       coalesce(b.us, 0.0) AS baseline_dur_us, coalesce(v.us, 0.0) AS variant_dur_us,
       coalesce(v.us, 0.0) - coalesce(b.us, 0.0) AS dur_diff_us,
       CASE WHEN b.n IS NULL THEN 'added' WHEN v.n IS NULL THEN 'deleted'
            WHEN v.n > b.n THEN 'increased' WHEN v.n < b.n THEN 'decreased'
            ELSE 'unchanged' END AS change
FROM k LEFT JOIN b ON b.pair = k.pair AND b.name IS k.name AND b.kind = k.kind
       LEFT JOIN v ON v.pair = k.pair AND v.name IS k.name AND v.kind = k.kind
ORDER BY k.pair, abs(coalesce(v.us, 0.0) - coalesce(b.us, 0.0)) DESC, k.name, k.kind;
