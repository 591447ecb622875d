-- module: report.perf_summary_md
-- requires: kernels.kernel_summary, ops.ops_summary, report._md_gpu_timeline

-- perf_summary_md: the Markdown summary tools/tracesql-perf-report prints for a trace
-- (no OUTDIR): the trace, its GPU timeline, the top 10 kernels and the top 10 ops, one
-- line per row, in (section, pos) order:
--   SELECT line FROM perf_summary_md WHERE trace_id = ? ORDER BY section, pos
-- Tables are GFM tables built by md_row (a '|' in a cell escaped, no cell on two lines);
-- a section with no rows is left out, heading included. Long kernel names are cut to 60
-- characters.
CREATE TEMP VIEW IF NOT EXISTS perf_summary_md AS
WITH ks AS (
    SELECT trace_id, pos,
           md_row(coalesce(parent_op_category, ''), coalesce(parent_op, ''),
                  CASE WHEN length(kernel_name) > 60 THEN substr(kernel_name, 1, 57) || '...' ELSE kernel_name END,
                  count, printf('%.1f', dur_sum_us), printf('%.2f', pct_of_total_time)) AS line
    FROM (SELECT *, row_number() OVER (PARTITION BY trace_id ORDER BY dur_sum_us DESC) AS pos FROM kernel_summary)
    WHERE pos <= 10
), os AS (
    SELECT trace_id, rank AS pos,
           md_row(name, count, printf('%.3f', total_direct_kernel_time_ms), printf('%.2f', percentage)) AS line
    FROM ops_summary WHERE rank <= 10
), body(trace_id, section, pos, line) AS (
    SELECT trace_id, 0, 0, '# Perf report' FROM traces
    UNION ALL SELECT trace_id, 0, 1, '' FROM traces
    UNION ALL SELECT trace_id, 0, 2, '- trace: ' || label || ' (' || events || ' events, ' || gpu_events
                     || ' GPU events)' FROM traces
    UNION ALL SELECT trace_id, 1, pos, line FROM _md_gpu_timeline
    UNION ALL SELECT DISTINCT trace_id, 2, -4, '' FROM ks
    UNION ALL SELECT DISTINCT trace_id, 2, -3, '## Top 10 kernels' FROM ks
    UNION ALL SELECT DISTINCT trace_id, 2, -2, '' FROM ks
    UNION ALL SELECT DISTINCT trace_id, 2, -1,
                     md_row('category', 'parent op', 'kernel', 'count', 'total (µs)', '% of time') FROM ks
    UNION ALL SELECT DISTINCT trace_id, 2, 0, '|---|---|---|---:|---:|---:|' FROM ks
    UNION ALL SELECT trace_id, 2, pos, line FROM ks
    UNION ALL SELECT DISTINCT trace_id, 3, -4, '' FROM os
    UNION ALL SELECT DISTINCT trace_id, 3, -3, '## Top 10 ops' FROM os
    UNION ALL SELECT DISTINCT trace_id, 3, -2, '' FROM os
    UNION ALL SELECT DISTINCT trace_id, 3, -1, md_row('op', 'count', 'direct kernel time (ms)', '%') FROM os
    UNION ALL SELECT DISTINCT trace_id, 3, 0, '|---|---:|---:|---:|' FROM os
    UNION ALL SELECT trace_id, 3, pos, line FROM os
)
SELECT trace_id, section, pos, line FROM body;
