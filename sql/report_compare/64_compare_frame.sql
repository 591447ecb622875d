-- compare_frame_columns: the columns of the merged comparison of each sheet, in
-- TraceLens's order (ocol from 0): the keys; then the columns pandas' re.match
-- ".*__.*_diff|.*__.*_pct" picks, in creation order (the "<d>__<tag>_diff" and
-- "<d>__<tag>_pct" columns, per diff column d, per variant); then every report's other
-- columns renamed "<tag>::<column>", report by report. dtype is the column's pandas dtype
-- after the merge: an int64 column of a report that lacks some merged key becomes
-- float64 (a bool one object), as NaN fills the gaps.
CREATE TEMP VIEW IF NOT EXISTS compare_frame_columns AS
WITH f AS (SELECT * FROM compare_fields),
absent AS (
    SELECT sheet, pos FROM compare_merged GROUP BY sheet, pos HAVING sum(row IS NULL) > 0
), keys AS (
    SELECT sheet, key_idx, min(name) AS name,
           CASE WHEN min(dtype) = max(dtype) THEN min(dtype)
                WHEN sum(dtype NOT IN ('int64', 'float64')) = 0 THEN 'float64'
                ELSE 'object' END AS dtype
    FROM f WHERE key_idx IS NOT NULL GROUP BY sheet, key_idx
), vals AS (
    SELECT f.sheet, f.pos, f.col, f.name AS field, r.tag || '::' || f.name AS name, f.dtype AS src_dtype,
           CASE WHEN a.pos IS NULL THEN f.dtype
                WHEN f.dtype = 'int64' THEN 'float64'
                WHEN f.dtype = 'bool' THEN 'object' ELSE f.dtype END AS dtype
    FROM f JOIN compare_reports r ON r.pos = f.pos
    LEFT JOIN absent a ON a.sheet = f.sheet AND a.pos = f.pos
    WHERE f.key_idx IS NULL
), diffs AS (
    SELECT p.sheet, CAST(d.key AS INTEGER) AS didx, d.value AS d, r.pos, r.tag,
           (SELECT v.dtype FROM vals v WHERE v.sheet = p.sheet AND v.pos = 0 AND v.field = d.value) AS base_dtype,
           (SELECT v.dtype FROM vals v WHERE v.sheet = p.sheet AND v.pos = r.pos AND v.field = d.value) AS var_dtype
    FROM compare_plan p, json_each(p.diffs) d, compare_reports r
    WHERE r.pos > 0
), allc AS (
    SELECT sheet, 0 AS cls, key_idx AS mpos, name, 'key' AS kind, NULL AS pos, NULL AS col,
           NULL AS field, dtype, NULL AS src_dtype
    FROM keys
    UNION ALL
    SELECT sheet, 1, pos * 1000000 + col, name, 'val', pos, col, field, dtype, src_dtype FROM vals
    UNION ALL
    SELECT x.sheet, 1, 1000000000 + x.didx * 100000 + x.pos * 2 + k.k,
           x.d || '__' || x.tag || CASE k.k WHEN 0 THEN '_diff' ELSE '_pct' END,
           CASE k.k WHEN 0 THEN 'diff' ELSE 'pct' END, x.pos, NULL, x.d,
           CASE WHEN k.k = 0 AND x.base_dtype = 'int64' AND x.var_dtype = 'int64' THEN 'int64'
                ELSE 'float64' END, NULL
    FROM diffs x, (SELECT 0 AS k UNION ALL SELECT 1) k
), classed AS (
    SELECT *,
           cls = 1 AND instr(name, '__') > 0
           AND (instr(substr(name, instr(name, '__') + 2), '_diff') > 0
                OR instr(substr(name, instr(name, '__') + 2), '_pct') > 0) AS diffish
    FROM allc
)
SELECT sheet, row_number() OVER (PARTITION BY sheet ORDER BY cls, NOT diffish, mpos) - 1 AS ocol,
       name, kind, pos, col, field, dtype, src_dtype
FROM classed;

-- compare_frame_values: every cell of the merged comparison as pandas holds it: keys and
-- report columns read as read_csv reads them (NULL = NaN), diff = variant − baseline,
-- pct = 100 · (diff / baseline), NULL where the baseline is 0.
CREATE TEMP VIEW IF NOT EXISTS compare_frame_values AS
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
