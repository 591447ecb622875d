-- module: report_compare._compare_output_columns_rows
-- requires: report_compare.compare_frame_columns, report_compare.compare_frame_values,
-- requires: report_compare.compare_output_rows, report_compare.compare_outputs

-- _compare_output_columns_rows: how compare_output_columns is computed; read only through _compare_output_columns (view_cache).
CREATE TEMP VIEW IF NOT EXISTS _compare_output_columns_rows AS
WITH fv AS (SELECT * FROM compare_frame_values),
orows AS (SELECT * FROM compare_output_rows),
filled AS (
    SELECT r.output, fv.ocol
    FROM orows r JOIN compare_outputs o ON o.output = r.output
    JOIN fv ON fv.sheet = o.sheet AND fv.mrow = r.mrow
    GROUP BY r.output, fv.ocol HAVING count(fv.v) > 0
), kept AS (
    SELECT o.output, o.sheet, c.ocol, c.name, c.dtype
    FROM compare_outputs o JOIN compare_frame_columns c ON c.sheet = o.sheet
    WHERE o.part = 'all'
       OR (c.kind = 'key'
           OR (c.kind = 'val' AND (c.pos = 0 AND o.part IN ('intersect', 'only_baseline')
                                   OR c.pos = o.pos AND o.part IN ('intersect', 'only_variant')))
           OR (c.kind IN ('diff', 'pct') AND c.pos = o.pos AND o.part IN ('intersect', 'only_variant')))
          AND EXISTS (SELECT 1 FROM filled f WHERE f.output = o.output AND f.ocol = c.ocol)
)
SELECT output, sheet, row_number() OVER (PARTITION BY output ORDER BY ocol) - 1 AS out_col,
       ocol, name, dtype
FROM kept;
