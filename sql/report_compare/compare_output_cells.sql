-- module: report_compare.compare_output_cells
-- requires: report_compare.compare_frame_values, report_compare.compare_output_columns,
-- requires: report_compare.compare_output_rows

-- compare_output_cells: the text of every written cell, as pandas' to_csv prints it:
-- float64 as Python's repr, int64 as an integer, NaN as an empty cell.
CREATE TEMP VIEW IF NOT EXISTS compare_output_cells AS
WITH fv AS (SELECT * FROM compare_frame_values),
oc AS (SELECT * FROM compare_output_columns)
SELECT r.output, r.orow, c.out_col,
       CASE WHEN fv.v IS NULL THEN ''
            WHEN c.dtype = 'float64' THEN py_float(fv.v)
            ELSE CAST(fv.v AS TEXT) END AS text
FROM compare_output_rows r
JOIN oc c ON c.output = r.output
LEFT JOIN fv ON fv.sheet = c.sheet AND fv.mrow = r.mrow AND fv.ocol = c.ocol;
