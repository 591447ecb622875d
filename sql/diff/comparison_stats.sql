-- module: diff.comparison_stats
-- requires: config.report_params

-- TraceDiff inside the perf report (docs/diff.md, TraceDiff in the perf
-- report, TraceLens's --comparison_json_path): the report option `comparison` names a variant
-- trace; each reported trace is the baseline of a TraceDiff with it, its unified_perf_summary gains
-- TraceLens's seven diff columns (unified_perf_diff) and a diff_stats sheet is written
-- (report_diff_stats). docs/diff.md.

-- comparison_stats: tree_diff_stats of every open trace (baseline) with the comparison
-- trace (variant), the comparison trace itself left out; no rows when the option is NULL.
CREATE TEMP VIEW IF NOT EXISTS comparison_stats AS
SELECT s.*
FROM (SELECT value AS v FROM report_params WHERE name = 'comparison' AND value IS NOT NULL) c,
     traces t, tree_diff_stats(t.trace_id, c.v) s
WHERE s.trace_id <> s.variant_id;
