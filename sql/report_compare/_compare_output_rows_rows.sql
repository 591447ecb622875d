-- module: report_compare._compare_output_rows_rows
-- requires: report_compare.compare_frame_columns, report_compare.compare_frame_values,
-- requires: report_compare.compare_outputs, report_compare.compare_plan

-- _compare_output_rows_rows: how compare_output_rows is computed; read only through _compare_output_rows (view_cache).
CREATE TEMP VIEW IF NOT EXISTS _compare_output_rows_rows AS
WITH fc AS (SELECT * FROM compare_frame_columns),
o AS MATERIALIZED (
    SELECT o.output, o.sheet, o.part,
           (SELECT ocol FROM fc WHERE fc.sheet = o.sheet AND fc.kind = 'val' AND fc.pos = 0
                                  AND fc.field = p.d0) AS base_d0,
           (SELECT ocol FROM fc WHERE fc.sheet = o.sheet AND fc.kind = 'val' AND fc.pos = o.pos
                                  AND fc.field = p.d0) AS var_d0,
           (SELECT ocol FROM fc WHERE fc.sheet = o.sheet AND fc.kind = 'val'
                                  AND fc.pos = CASE WHEN o.part = 'only_variant' THEN o.pos ELSE 0 END
                                  AND fc.field = p.sort_col) AS sort_ocol
    FROM compare_outputs o JOIN compare_plan p ON p.sheet = o.sheet
), r AS (
    SELECT o.output, o.part, fv.mrow,
           max(CASE WHEN fv.ocol = o.sort_ocol THEN fv.v END) AS sort_v,
           max(fv.ocol = o.base_d0 AND fv.v IS NOT NULL) AS in_base,
           max(fv.ocol = o.var_d0 AND fv.v IS NOT NULL) AS in_var
    FROM o JOIN compare_frame_values fv ON fv.sheet = o.sheet
    GROUP BY o.output, fv.mrow
)
SELECT output, row_number() OVER (PARTITION BY output ORDER BY sort_v IS NULL, sort_v DESC, mrow) AS orow, mrow
FROM r
WHERE part = 'all'
   OR (part = 'intersect' AND in_base AND in_var)
   OR (part = 'only_baseline' AND in_base AND NOT in_var)
   OR (part = 'only_variant' AND in_var AND NOT in_base);
