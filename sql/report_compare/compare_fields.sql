-- module: report_compare.compare_fields
-- requires: report_compare.compare_cells, report_compare.compare_plan,
-- requires: report_compare.compare_reports

-- compare_fields: the columns each report brings to a planned comparison, after the
-- configured drops: their pandas dtype (read_csv's inference over the column's cells)
-- and, for merge keys, their position among the keys.
CREATE TEMP VIEW IF NOT EXISTS compare_fields AS
WITH keys AS (
    SELECT p.sheet, CAST(j.key AS INTEGER) AS key_idx, j.value AS name
    FROM compare_plan p, json_each(p.keys) j WHERE p.keys IS NOT NULL
    UNION ALL
    SELECT p.sheet, 0, 'name' FROM compare_plan p WHERE p.keys IS NULL
    UNION ALL
    -- roofline: "name", then the "param: ..." columns every report has, sorted by name
    SELECT p.sheet, row_number() OVER (PARTITION BY p.sheet ORDER BY h.cell), h.cell
    FROM compare_plan p JOIN compare_cells h ON h.pos = 0 AND h.sheet = p.sheet AND h.row = 0
    WHERE p.keys IS NULL AND substr(h.cell, 1, 6) = 'param:'
      AND NOT EXISTS (SELECT 1 FROM compare_reports r
                      WHERE NOT EXISTS (SELECT 1 FROM compare_cells x
                                        WHERE x.pos = r.pos AND x.sheet = p.sheet AND x.row = 0
                                          AND x.cell = h.cell))
)
SELECT h.sheet, h.pos, h.col, h.cell AS name,
       (SELECT pd_column_dtype(c.cell) FROM compare_cells c
        WHERE c.pos = h.pos AND c.sheet = h.sheet AND c.col = h.col AND c.row > 0) AS dtype,
       k.key_idx
FROM compare_plan p
JOIN compare_cells h ON h.sheet = p.sheet AND h.row = 0
LEFT JOIN keys k ON k.sheet = h.sheet AND k.name = h.cell
WHERE k.key_idx IS NOT NULL
   OR NOT (h.cell IN (SELECT value FROM json_each(p.drop_all))
           OR (h.pos > 0 AND h.cell IN (SELECT value FROM json_each(p.drop_variants))));
