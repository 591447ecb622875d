-- module: report.inference_report_files
-- requires: config.report_sheets, inference.inference_perf_sheet_queries

-- inference_report_files: the CSV files tools/tracesql-inference-report writes for a
-- trace (TraceLens's inference report, docs/inference.md, Sheets), one row each: the
-- file, the query giving its rows and csv_write's options, as perf_report_files
-- (sql/report/perf_report_files.sql). The sheets: gpu_timeline, the launcher sheets
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
