-- module: report_compare.compare_csv
-- requires: report_compare.compare_output_cells, report_compare.compare_output_columns,
-- requires: report_compare.compare_outputs

-- compare_csv: each output as CSV lines (line 0 the header), quoted as Python's csv
-- module does (a cell with , " CR or LF in quotes, a lone empty cell as "").
CREATE TEMP VIEW IF NOT EXISTS compare_csv AS
WITH q AS (
    SELECT output, orow AS line, out_col,
           CASE WHEN instr(text, ',') OR instr(text, '"') OR instr(text, char(10)) OR instr(text, char(13))
                THEN '"' || replace(text, '"', '""') || '"' ELSE text END AS t
    FROM (SELECT output, orow, out_col, text FROM compare_output_cells
          UNION ALL
          SELECT output, 0, out_col, name FROM compare_output_columns)
), lines AS (
    SELECT output, line, group_concat(t, ',') AS text, count(*) AS n
    FROM (SELECT * FROM q ORDER BY output, line, out_col)
    GROUP BY output, line
)
SELECT o.output, o.grp, o.ord, o.sub, coalesce(l.line, 0) AS line,
       CASE WHEN l.n = 1 AND l.text = '' THEN '""' ELSE coalesce(l.text, '') END AS text
FROM compare_outputs o LEFT JOIN lines l ON l.output = o.output;
