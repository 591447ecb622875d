-- module: report.perf_report_files
-- requires: config.report_sheets, kernels.short_kernels_summary_if_empty, perf.perf_sheet_queries

-- perf_report_files: the CSV files tools/tracesql-perf-report writes for a trace, one row
-- each: the file, the query giving its rows, and csv_write's options for it (what an
-- empty sheet gives, the columns left out when NULL throughout, the leading trace_id
-- column never written). The command runs
--   SELECT csv_write(OUTDIR, file, query, options) FROM perf_report_files WHERE trace_id = ?
-- Every temp view named report_<sheet> is a sheet, so sheets added to sql/ later are
-- written without changing the command; how each is written comes from report_sheets
-- (sql/config/report_sheets.sql; docs/report.md). The perf-model sheets (GEMM,
-- SDPA_fwd, ...) come from perf_sheet_queries: their "param: ..." columns depend on the
-- trace. A GPU-only trace (no cpu_op event) gets no CPU-side sheet: TraceLens writes none.
CREATE TEMP VIEW IF NOT EXISTS perf_report_files AS
WITH t AS (
    SELECT trace_id,
           NOT EXISTS (SELECT 1 FROM events e WHERE e.trace_id = tr.trace_id AND e.kind = 'cpu_op') AS gpu_only
    FROM traces tr
), v AS (
    SELECT substr(m.name, 8) AS sheet, m.name AS view,
           coalesce(r.position, 40) AS position, coalesce(r.if_empty, 'omit') AS if_empty,
           coalesce(r.optional_columns, '[]') AS optional_columns, coalesce(r.needs_cpu_ops, 1) AS needs_cpu_ops
    FROM sqlite_temp_master m LEFT JOIN report_sheets r ON r.sheet = substr(m.name, 8)
    WHERE m.type = 'view' AND m.name LIKE 'report\_%' ESCAPE '\' AND length(m.name) > 7
)
SELECT t.trace_id, v.sheet, v.sheet || '.csv' AS file, v.position,
       printf('SELECT * FROM "%w" WHERE trace_id = %d', v.view, t.trace_id) AS query,
       json_object('omit', json_array('trace_id'), 'drop_null', json(v.optional_columns),
                   'if_empty', json(coalesce(e.if_empty, json_quote(v.if_empty)))) AS options
FROM t CROSS JOIN v
LEFT JOIN short_kernels_summary_if_empty e ON e.trace_id = t.trace_id AND v.sheet = 'short_kernels_summary'
WHERE NOT (v.needs_cpu_ops AND t.gpu_only)
UNION ALL
SELECT q.trace_id, q.sheet, q.sheet || '.csv', 40, q.sql, json_object('if_empty', 'omit')
FROM perf_sheet_queries q JOIN t ON t.trace_id = q.trace_id
WHERE NOT t.gpu_only AND q.sheet NOT IN (SELECT sheet FROM v)
-- in the report's sheet order, not in the order the views were created
ORDER BY 1, 4, 2;
