-- inference_report_files: the CSV files tools/tracesql-inference-report writes for a
-- trace (TraceLens's inference report, docs/inference.md, Sheets), one row each: the
-- file, the query giving its rows and csv_write's options, as perf_report_files
-- (sql/report/70_perf_report_files.sql). The sheets: gpu_timeline, the launcher sheets
-- of the inference report, unified_perf_summary with its call-stack columns, and the
-- perf-model sheets (forward only, num_kernels). A GPU-only trace gets gpu_timeline
-- alone. The command runs
--   SELECT csv_write(OUTDIR, file, query, options) FROM inference_report_files WHERE trace_id = ?
CREATE TEMP VIEW IF NOT EXISTS inference_report_files AS
WITH t AS (
    SELECT trace_id,
           NOT EXISTS (SELECT 1 FROM events e WHERE e.trace_id = tr.trace_id AND e.kind = 'cpu_op') AS gpu_only
    FROM traces tr
), v(sheet, view, position) AS (
    VALUES ('gpu_timeline', 'report_gpu_timeline', 1),
           ('ops_summary_by_category', 'inference_report_ops_summary_by_category', 2),
           ('ops_summary', 'inference_report_ops_summary', 3),
           ('ops_unique_args', 'inference_report_ops_unique_args', 4),
           ('unified_perf_summary', 'inference_report_unified_perf_summary', 6)
)
SELECT t.trace_id, v.sheet, v.sheet || '.csv' AS file, v.position,
       printf('SELECT * FROM "%w" WHERE trace_id = %d', v.view, t.trace_id) AS query,
       json_object('omit', json_array('trace_id'),
                   'drop_null', json(coalesce((SELECT optional_columns FROM report_sheets r WHERE r.sheet = v.sheet), '[]')),
                   'if_empty', 'omit') AS options
FROM t, v
WHERE v.position = 1 OR NOT t.gpu_only
UNION ALL
SELECT q.trace_id, q.sheet, q.sheet || '.csv', 40, q.sql, json_object('if_empty', 'omit')
FROM inference_perf_sheet_queries q JOIN t ON t.trace_id = q.trace_id
WHERE NOT t.gpu_only;

-- inference_summary_md: the Markdown summary tools/tracesql-inference-report prints
-- without an output folder: the trace, its GPU timeline, the top 10 ops by direct
-- kernel time with their parent module, and the perf-model sheets with their rows and
-- kernel time, one line per row in (section, pos) order:
--   SELECT line FROM inference_summary_md WHERE trace_id = ? ORDER BY section, pos
CREATE TEMP VIEW IF NOT EXISTS inference_summary_md AS
WITH tl AS (
    SELECT trace_id, row_number() OVER (PARTITION BY trace_id) AS pos,
           md_row(type, printf('%.3f', time_ms), printf('%.2f', percent)) AS line
    FROM gpu_timeline
), os AS (
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
    UNION ALL SELECT DISTINCT trace_id, 1, -4, '' FROM tl
    UNION ALL SELECT DISTINCT trace_id, 1, -3, '## GPU timeline' FROM tl
    UNION ALL SELECT DISTINCT trace_id, 1, -2, '' FROM tl
    UNION ALL SELECT DISTINCT trace_id, 1, -1, md_row('type', 'time (ms)', '%') FROM tl
    UNION ALL SELECT DISTINCT trace_id, 1, 0, '|---|---:|---:|' FROM tl
    UNION ALL SELECT trace_id, 1, pos, line FROM tl
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
