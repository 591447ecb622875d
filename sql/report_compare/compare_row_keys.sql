-- module: report_compare.compare_row_keys
-- requires: report_compare.compare_cells, report_compare.compare_fields

-- compare_row_keys: each report row's merge key as one sortable text: per key column the
-- dense rank of its value among every report's values (numbers by value, text by code
-- point, missing last), as pandas' outer merge orders keys.
CREATE TEMP VIEW IF NOT EXISTS compare_row_keys AS
WITH kv AS (
    SELECT f.sheet, f.pos, c.row, f.key_idx, pd_cell(c.cell, f.dtype) AS v
    FROM compare_fields f
    JOIN compare_cells c ON c.pos = f.pos AND c.sheet = f.sheet AND c.col = f.col AND c.row > 0
    WHERE f.key_idx IS NOT NULL
), ranked AS (
    SELECT sheet, pos, row, key_idx,
           dense_rank() OVER (PARTITION BY sheet, key_idx ORDER BY v IS NULL, v) AS rk
    FROM kv
)
SELECT sheet, pos, row, group_concat(printf('%09d', rk), '|') AS k
FROM (SELECT * FROM ranked ORDER BY sheet, pos, row, key_idx)
GROUP BY sheet, pos, row;
