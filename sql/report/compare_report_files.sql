-- module: report.compare_report_files
-- requires: config.compare_report_params

-- compare_report_files: the files, one row each (query and csv_write options). The CSVs
-- are the comparison tables as the sqlite3 shell's .mode csv wrote them (dialect
-- "sqlite"), an empty table an empty file; the JSON and the Markdown end in a newline.
CREATE TEMP VIEW IF NOT EXISTS compare_report_files AS
WITH p AS (SELECT quote(baseline) AS b, quote(variant) AS v, quote(phase) AS ph FROM compare_report_params LIMIT 1),
f(pos, file, fn) AS (
    VALUES (1, 'operations.csv', 'compare_ops'), (2, 'layers.csv', 'compare_layers'),
           (3, 'kernels.csv', 'compare_kernels'), (4, 'fusion.csv', 'compare_fusion'),
           (5, 'metadata.csv', 'compare_metadata')
)
SELECT f.pos, f.file, printf('SELECT * FROM %s(%s, %s, %s)', f.fn, p.b, p.v, p.ph) AS query,
       '{"dialect": "sqlite", "if_empty": "empty"}' AS options
FROM p, f
UNION ALL
SELECT 6, 'phases.csv', printf('SELECT * FROM compare_phases(%s, %s)', p.b, p.v),
       '{"dialect": "sqlite", "if_empty": "empty"}'
FROM p
UNION ALL
SELECT 7, 'comparison.json', 'SELECT doc || char(10) FROM compare_report_json', '{"dialect": "text"}'
UNION ALL
SELECT 8, 'summary.md', 'SELECT doc || char(10) FROM compare_report_md', '{"dialect": "text"}';
