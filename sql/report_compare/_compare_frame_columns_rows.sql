-- module: report_compare._compare_frame_columns_rows
-- requires: report_compare.compare_fields, report_compare.compare_merged,
-- requires: report_compare.compare_plan, report_compare.compare_reports

-- _compare_frame_columns_rows: how compare_frame_columns is computed; read only through _compare_frame_columns (view_cache).
CREATE TEMP VIEW IF NOT EXISTS _compare_frame_columns_rows AS
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
