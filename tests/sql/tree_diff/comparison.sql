-- the report option comparison (docs/diff.md, TraceDiff in the perf report): base.json reported,
-- deleted.json as the variant. aten::relu's kernel is under the LCA aten::linear (merged id 0: t1 =
-- 5.25, no variant rows, t2 = 0); each matched kernel is its own LCA (t1 = t2).
SELECT trace_open('tests/data/diff/base.json');
UPDATE report_params SET value = 'tests/data/diff/deleted.json' WHERE name = 'comparison';
SELECT name, "Kernel Time (µs)_sum", "speedup (trace2/trace1)", "delta_us (trace2 - trace1)",
       lca_count_trace2, lca_id, lca_name, lca_total_kernel_time_trace1_us,
       lca_total_kernel_time_trace2_us
FROM report_unified_perf_summary WHERE trace_id = 1;
SELECT name, source, busy_time, lowest_common_ancestor_name, lowest_common_ancestor_id
FROM report_diff_stats WHERE trace_id = 1;
-- without the option: no diff columns, no sheet
UPDATE report_params SET value = NULL WHERE name = 'comparison';
SELECT count(*) AS rows, count("speedup (trace2/trace1)") AS with_speedup FROM report_unified_perf_summary;
SELECT count(*) AS diff_rows FROM report_diff_stats;
