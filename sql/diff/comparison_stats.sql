-- module: diff.comparison_stats
-- requires: config.report_params

-- comparison_stats: tree_diff_stats of every open trace (baseline) with the comparison
-- trace (variant), the comparison trace itself left out; no rows when the option is NULL.
CREATE TEMP VIEW IF NOT EXISTS comparison_stats AS
SELECT s.*
FROM (SELECT value AS v FROM report_params WHERE name = 'comparison' AND value IS NOT NULL) c,
     traces t, tree_diff_stats(t.trace_id, c.v) s
WHERE s.trace_id <> s.variant_id;
