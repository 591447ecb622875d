-- module: report_compare._compare_frame_values_rows
-- requires: report_compare.compare_cells, report_compare.compare_fields,
-- requires: report_compare.compare_frame_columns, report_compare.compare_merged

-- _compare_frame_values_rows: how compare_frame_values is computed; read only through _compare_frame_values (view_cache).
CREATE TEMP VIEW IF NOT EXISTS _compare_frame_values_rows AS
WITH fc AS (SELECT * FROM compare_frame_columns),
mg AS (SELECT * FROM compare_merged),
vals AS (
    SELECT m.sheet, m.mrow, c.ocol, c.pos, c.field,
           CASE WHEN c.dtype = 'float64' THEN CAST(pd_cell(x.cell, c.src_dtype) AS REAL)
                ELSE pd_cell(x.cell, c.src_dtype) END AS v
    FROM fc c JOIN mg m ON m.sheet = c.sheet AND m.pos = c.pos
    LEFT JOIN compare_cells x ON x.pos = m.pos AND x.sheet = m.sheet AND x.row = m.row AND x.col = c.col
    WHERE c.kind = 'val'
), keyv AS (
    -- the key's value from the first report that holds the row
    SELECT c.sheet, m.mrow, c.ocol,
           (SELECT CASE WHEN c.dtype = 'float64' THEN CAST(pd_cell(x.cell, f.dtype) AS REAL)
                        ELSE pd_cell(x.cell, f.dtype) END
            FROM mg m2 JOIN compare_fields f ON f.sheet = m2.sheet AND f.pos = m2.pos AND f.key_idx = c.ocol
            JOIN compare_cells x ON x.pos = m2.pos AND x.sheet = m2.sheet AND x.row = m2.row AND x.col = f.col
            WHERE m2.sheet = c.sheet AND m2.mrow = m.mrow AND m2.row IS NOT NULL
            ORDER BY m2.pos LIMIT 1) AS v
    FROM fc c JOIN (SELECT DISTINCT sheet, mrow FROM mg) m ON m.sheet = c.sheet
    WHERE c.kind = 'key'
), dv AS (
    SELECT c.sheet, b.mrow, c.ocol, c.kind, c.dtype, v.v - b.v AS diff, b.v AS base
    FROM fc c
    JOIN vals b ON b.sheet = c.sheet AND b.pos = 0 AND b.field = c.field
    JOIN vals v ON v.sheet = c.sheet AND v.pos = c.pos AND v.field = c.field AND v.mrow = b.mrow
    WHERE c.kind IN ('diff', 'pct')
)
SELECT sheet, mrow, ocol, v FROM vals
UNION ALL
SELECT sheet, mrow, ocol, v FROM keyv
UNION ALL
SELECT sheet, mrow, ocol,
       CASE WHEN kind = 'diff' THEN CASE WHEN dtype = 'float64' THEN CAST(diff AS REAL) ELSE diff END
            WHEN base = 0 THEN NULL
            ELSE 100 * (CAST(diff AS REAL) / base) END
FROM dv;
