-- query_cells: a query's result as CSV cells (row 0 = names; REAL as Python's repr)
.bail off
SELECT * FROM query_cells('SELECT 1 AS a, 2.5 AS "b c", NULL AS d UNION ALL SELECT ''x'', 1e16, 0.1 + 0.2');
SELECT count(*) FROM query_cells('SELECT 1 WHERE 0');
SELECT * FROM query_cells('SELECT 1; SELECT 2');
SELECT * FROM query_cells('SELECT * FROM no_such_table');
SELECT * FROM query_cells('DELETE FROM compare_reports');
SELECT count(*) FROM query_cells;
-- the demo trace's report as comparison input: sheets, and the header of one
INSERT INTO compare_reports VALUES (0, 'demo', trace_open('examples/demo_trace.json.gz'));
SELECT sheet, max(row) AS rows, max(col) + 1 AS cols FROM compare_trace_cells GROUP BY sheet ORDER BY sheet;
SELECT col, cell FROM compare_trace_cells WHERE sheet = 'gpu_timeline' AND row <= 1 ORDER BY row, col;
