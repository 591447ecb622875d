-- module: report.inference_summary_md
-- requires: inference.inference_ops_summary, inference.inference_perf_sheet_summary, report._md_gpu_timeline

-- inference_summary_md: the Markdown summary tools/tracesql-inference-report prints
-- without an output folder: the trace, its GPU timeline, the top 10 ops by direct
-- kernel time with their parent module, and the perf-model sheets with their rows and
-- kernel time, one line per row in (section, pos) order:
--   SELECT line FROM inference_summary_md WHERE trace_id = ? ORDER BY section, pos
CREATE TEMP VIEW IF NOT EXISTS inference_summary_md AS
WITH os AS (
    SELECT trace_id, rank AS pos,
           md_row(name, parent_module, count, printf('%.3f', total_direct_kernel_time_ms), printf('%.2f', percentage))
             AS line
    FROM inference_ops_summary WHERE rank <= 10
), ps AS (
    SELECT trace_id, row_number() OVER (PARTITION BY trace_id ORDER BY sheet) AS pos,
           md_row(sheet, rows, instances, printf('%.1f', kernel_us)) AS line
    FROM (SELECT trace_id, sheet, count(*) AS rows, sum(name_count) AS instances,
                 sum(kernel_time_us_sum) AS kernel_us
          FROM inference_perf_sheet_summary GROUP BY trace_id, sheet)
), body(trace_id, section, pos, line) AS (
    SELECT trace_id, 0, 0, '# Inference report' FROM traces
    UNION ALL SELECT trace_id, 0, 1, '' FROM traces
    UNION ALL SELECT trace_id, 0, 2, '- trace: ' || label || ' (' || events || ' events, ' || gpu_events
                     || ' GPU events)' FROM traces
    UNION ALL SELECT trace_id, 1, pos, line FROM _md_gpu_timeline
    UNION ALL SELECT DISTINCT trace_id, 2, -4, '' FROM os
    UNION ALL SELECT DISTINCT trace_id, 2, -3, '## Top 10 ops' FROM os
    UNION ALL SELECT DISTINCT trace_id, 2, -2, '' FROM os
    UNION ALL SELECT DISTINCT trace_id, 2, -1,
                     md_row('op', 'parent module', 'count', 'direct kernel time (ms)', '%') FROM os
    UNION ALL SELECT DISTINCT trace_id, 2, 0, '|---|---|---:|---:|---:|' FROM os
    UNION ALL SELECT trace_id, 2, pos, line FROM os
    UNION ALL SELECT DISTINCT trace_id, 3, -4, '' FROM ps
    UNION ALL SELECT DISTINCT trace_id, 3, -3, '## Perf-model sheets' FROM ps
    UNION ALL SELECT DISTINCT trace_id, 3, -2, '' FROM ps
    UNION ALL SELECT DISTINCT trace_id, 3, -1, md_row('sheet', 'rows', 'ops', 'kernel time (µs)') FROM ps
    UNION ALL SELECT DISTINCT trace_id, 3, 0, '|---|---:|---:|---:|' FROM ps
    UNION ALL SELECT trace_id, 3, pos, line FROM ps
)
SELECT trace_id, section, pos, line FROM body;
