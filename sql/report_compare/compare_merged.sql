-- module: report_compare.compare_merged
-- requires: report_compare.compare_reports, report_compare.compare_row_keys

-- compare_merged: the rows of the outer merge of all reports on the keys, in pandas'
-- order (keys sorted; for a key several reports hold, every combination of their rows,
-- the earlier report's row varying slowest). One row per (merged row, report): the
-- report's row number, NULL where that report lacks the key.
CREATE TEMP VIEW IF NOT EXISTS compare_merged AS
WITH RECURSIVE
n(n) AS (SELECT count(*) FROM compare_reports),
rk AS (SELECT * FROM compare_row_keys),
m(sheet, k, pos, rows) AS (
    SELECT DISTINCT sheet, k, -1, '' FROM rk
    UNION ALL
    SELECT m.sheet, m.k, m.pos + 1, m.rows || CASE WHEN r.row IS NULL THEN '_________' ELSE printf('%09d', r.row) END
    FROM m LEFT JOIN rk r ON r.sheet = m.sheet AND r.k = m.k AND r.pos = m.pos + 1
    WHERE m.pos + 1 < (SELECT n FROM n)
), fin AS (
    SELECT sheet, rows, row_number() OVER (PARTITION BY sheet ORDER BY k, rows) AS mrow
    FROM m WHERE pos = (SELECT n FROM n) - 1
)
SELECT fin.sheet, fin.mrow, r.pos,
       CAST(nullif(substr(fin.rows, r.pos * 9 + 1, 9), '_________') AS INTEGER) AS row
FROM fin, compare_reports r;
