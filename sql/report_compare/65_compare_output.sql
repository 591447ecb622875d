-- compare_outputs: the sheets the comparison writes. gpu_timeline, ops_summary and
-- kernel_summary whole; every other planned sheet split, per variant, into
-- <out>_intersect_<tag> (rows where both the baseline and the variant have the first
-- diff column), <out>_only_baseline_<tag> and <out>_only_variant_<tag>.
CREATE TEMP VIEW IF NOT EXISTS compare_outputs AS
SELECT p.out AS output, p.grp, p.sheet, 'all' AS part, NULL AS pos, p.ord, 0 AS sub
FROM compare_plan p WHERE NOT p.split
UNION ALL
SELECT p.out || '_' || s.part || '_' || r.tag, p.grp, p.sheet, s.part, r.pos, p.ord, r.pos * 3 + s.i
FROM compare_plan p, compare_reports r,
     (SELECT 0 AS i, 'intersect' AS part UNION ALL SELECT 1, 'only_baseline'
      UNION ALL SELECT 2, 'only_variant') s
WHERE p.split AND r.pos > 0;

-- compare_output_rows: which merged rows each output holds, in its order (orow from 1):
-- sorted on the sort column descending, missing values last, ties in merge order (the
-- baseline's column; an only_variant sheet the variant's); gpu_timeline in merge order.
CREATE TEMP VIEW IF NOT EXISTS compare_output_rows AS
WITH fc AS MATERIALIZED (SELECT * FROM compare_frame_columns),
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

-- compare_output_columns: the columns each output writes, in order (out_col from 0). A
-- split sheet keeps the keys, its reports' "<tag>::" columns and the diff columns of its
-- variant, then loses every column that is empty in all its rows (all of them when it
-- has no rows).
CREATE TEMP VIEW IF NOT EXISTS compare_output_columns AS
WITH fv AS MATERIALIZED (SELECT * FROM compare_frame_values),
orows AS MATERIALIZED (SELECT * FROM compare_output_rows),
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

-- compare_output_cells: the text of every written cell, as pandas' to_csv prints it:
-- float64 as Python's repr, int64 as an integer, NaN as an empty cell.
CREATE TEMP VIEW IF NOT EXISTS compare_output_cells AS
WITH fv AS MATERIALIZED (SELECT * FROM compare_frame_values),
oc AS MATERIALIZED (SELECT * FROM compare_output_columns)
SELECT r.output, r.orow, c.out_col,
       CASE WHEN fv.v IS NULL THEN ''
            WHEN c.dtype = 'float64' THEN py_float(fv.v)
            ELSE CAST(fv.v AS TEXT) END AS text
FROM compare_output_rows r
JOIN oc c ON c.output = r.output
LEFT JOIN fv ON fv.sheet = c.sheet AND fv.mrow = r.mrow AND fv.ocol = c.ocol;

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
