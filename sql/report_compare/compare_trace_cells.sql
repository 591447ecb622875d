-- module: report_compare.compare_trace_cells
-- requires: config.report_sheets, perf.perf_sheet_queries, report_compare.compare_reports

-- compare_trace_cells: the perf report of every compare_reports row with a trace_id, as
-- compare_cells rows: the cells examples/perf_report.sh would write to its CSVs (the
-- report_<sheet> views without their trace_id column, and the perf-model sheets of
-- perf_sheet_queries), with its rules: no CPU-side sheets for a GPU-only trace, optional
-- columns left out when NULL throughout, an empty sheet omitted unless report_sheets
-- keeps its header. INSERT INTO compare_cells SELECT * FROM compare_trace_cells loads them.
CREATE TEMP VIEW IF NOT EXISTS compare_trace_cells AS
WITH r AS (
    SELECT pos, trace_id,
           NOT EXISTS (SELECT 1 FROM events e WHERE e.trace_id = r.trace_id AND e.kind = 'cpu_op') AS gpu_only
    FROM compare_reports r WHERE trace_id IS NOT NULL
), views AS (
    SELECT name, substr(name, 8) AS sheet FROM sqlite_temp_master
    WHERE type = 'view' AND name LIKE 'report\_%' ESCAPE '\' AND length(name) > 7
), sheets AS (
    SELECT r.pos, v.sheet, 'SELECT * FROM "' || replace(v.name, '"', '""') || '" WHERE trace_id = ' || r.trace_id AS q,
           1 AS skip, coalesce(s.if_empty, 'omit') AS if_empty, coalesce(s.optional_columns, '[]') AS optional
    FROM r, views v LEFT JOIN report_sheets s ON s.sheet = v.sheet
    WHERE NOT (coalesce(s.needs_cpu_ops, 1) AND r.gpu_only)
    UNION ALL
    SELECT r.pos, p.sheet, p.sql, 0, 'omit', '[]'
    FROM r JOIN perf_sheet_queries p ON p.trace_id = r.trace_id
    WHERE NOT r.gpu_only AND p.sheet NOT IN (SELECT sheet FROM views)
), cells AS MATERIALIZED (
    SELECT s.pos, s.sheet, s.if_empty, s.optional, c.row, c.col - s.skip AS col, c.cell
    FROM sheets s, query_cells(s.q) c
    WHERE c.col >= s.skip
), nrows AS (
    SELECT pos, sheet, max(row) AS n FROM cells GROUP BY pos, sheet
), dropped AS MATERIALIZED (
    SELECT h.pos, h.sheet, h.col FROM cells h
    WHERE h.row = 0 AND h.cell IN (SELECT value FROM json_each(h.optional))
      AND NOT EXISTS (SELECT 1 FROM cells d WHERE d.pos = h.pos AND d.sheet = h.sheet AND d.col = h.col
                                               AND d.row > 0 AND d.cell IS NOT NULL)
)
SELECT c.pos, c.sheet, c.row,
       c.col - (SELECT count(*) FROM dropped d WHERE d.pos = c.pos AND d.sheet = c.sheet AND d.col < c.col) AS col,
       c.cell
FROM cells c JOIN nrows n ON n.pos = c.pos AND n.sheet = c.sheet
WHERE (n.n > 0 OR c.if_empty = 'header')
  AND NOT EXISTS (SELECT 1 FROM dropped d WHERE d.pos = c.pos AND d.sheet = c.sheet AND d.col = c.col);
