-- module: diff.diff_stats_names_summary
-- requires: diff.diff_stats

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
