-- module: diff.unified_perf_diff
-- requires: diff.comparison_stats

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
