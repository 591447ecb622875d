-- 61_perf_comparison.sql — TraceDiff inside the perf report (docs/diff.md, TraceDiff in the perf
-- report, TraceLens's --comparison_json_path): the report option `comparison` names a variant
-- trace; each reported trace is the baseline of a TraceDiff with it, its unified_perf_summary gains
-- TraceLens's seven diff columns (unified_perf_diff) and a diff_stats sheet is written
-- (report_diff_stats). docs/diff.md.

CREATE TEMP TABLE IF NOT EXISTS report_params(
    name TEXT PRIMARY KEY,
    value,
    doc TEXT
);
INSERT OR IGNORE INTO report_params(name, value, doc) VALUES
    ('comparison', NULL,
     'NULL: no comparison; a trace (id, label or path): the variant of a TraceDiff with each reported trace as baseline (unified_perf_summary gains the diff columns, and a diff_stats sheet)');
-- the diff columns are written only when some row has them
UPDATE report_sheets
SET optional_columns = '["speedup (trace2/trace1)", "delta_us (trace2 - trace1)", "lca_count_trace2", "lca_id", "lca_name", "lca_total_kernel_time_trace1_us", "lca_total_kernel_time_trace2_us"]'
WHERE sheet = 'unified_perf_summary';
UPDATE report_sheets SET optional_columns = '["source"]' WHERE sheet = 'diff_stats';

-- comparison_stats: tree_diff_stats of every open trace (baseline) with the comparison
-- trace (variant), the comparison trace itself left out; no rows when the option is NULL.
CREATE TEMP VIEW IF NOT EXISTS comparison_stats AS
SELECT s.*
FROM (SELECT value AS v FROM report_params WHERE name = 'comparison' AND value IS NOT NULL) c,
     traces t, tree_diff_stats(t.trace_id, c.v) s
WHERE s.trace_id <> s.variant_id;

-- unified_perf_diff: per unified_perf_summary row (trace_id, ex_uid) with a TraceDiff
-- LCA among its kernels, docs/diff.md, TraceDiff in the perf report columns. Each LCA of the
-- baseline's diff_stats rows has t1 = its first baseline row's busy_time and t2 = its first variant
-- row's (0 if none); a row collects the distinct LCAs its kernels (kernel_details' gpu_op_uid) fall
-- under, in merged-id order. speedup            sum t2 / sum t1 (NULL when sum t1 is 0) delta_us
-- sum t2 - the row's kernel_time_us_sum (µs; TraceLens's mixed bases) lca_count_trace2   LCAs with
-- variant rows lca_id, lca_name   the LCAs, '; '-joined lca_total_kernel_time_trace1_us,
-- lca_total_kernel_time_trace2_us   sum t1, sum t2 (µs)
CREATE TEMP VIEW IF NOT EXISTS unified_perf_diff AS
WITH l AS (
    SELECT trace_id, lca_id, first(lca_name, seq) AS lca_name,
           first(CASE WHEN source = 'trace1' THEN busy_time END, seq) AS t1,
           coalesce(first(CASE WHEN source = 'trace2' THEN busy_time END, seq), 0.0) AS t2,
           max(source = 'trace2') AS has2
    FROM comparison_stats WHERE lca_id IS NOT NULL
    GROUP BY trace_id, lca_id
    HAVING t1 IS NOT NULL
), u AS (
    SELECT trace_id, kernel_details,
           first_value(uid) OVER (PARTITION BY trace_id, name, op_category, process_name,
                                  process_label, thread_name, input_dims, input_type,
                                  input_strides, concrete_inputs ORDER BY row) AS ex_uid
    FROM unified_ops WHERE trace_id IN (SELECT trace_id FROM l)
), g AS (
    SELECT u.trace_id, u.ex_uid, json_extract(j.value, '$.gpu_op_uid') AS gpu
    FROM u, json_each(u.kernel_details) j
), m AS (
    SELECT DISTINCT s.trace_id, g.ex_uid, s.lca_id
    FROM comparison_stats s JOIN g ON g.trace_id = s.trace_id AND g.gpu = s.gpu_op_uid
    WHERE s.source = 'trace1' AND s.lca_id IS NOT NULL
), r AS (
    SELECT m.trace_id, m.ex_uid, l.lca_id, l.lca_name, l.t1, l.t2, l.has2
    FROM m JOIN l ON l.trace_id = m.trace_id AND l.lca_id = m.lca_id
    ORDER BY m.trace_id, m.ex_uid, l.lca_id
)
SELECT trace_id, ex_uid,
       CASE WHEN seq_sum(t1, lca_id) <> 0 THEN seq_sum(t2, lca_id) / seq_sum(t1, lca_id) END AS speedup,
       seq_sum(t2, lca_id) AS sum_t2_us,
       sum(has2) AS lca_count_trace2,
       group_concat(lca_id, '; ') AS lca_id,
       group_concat(lca_name, '; ') AS lca_name,
       seq_sum(t1, lca_id) AS lca_total_kernel_time_trace1_us,
       seq_sum(t2, lca_id) AS lca_total_kernel_time_trace2_us
FROM r
GROUP BY trace_id, ex_uid;
