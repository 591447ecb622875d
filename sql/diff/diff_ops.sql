-- module: diff.diff_ops
-- requires: config.diff_params

-- diff_ops: HTA's ops diff over the same pairs: per name and kind (cpu_op, kernel,
-- gpu_memcpy, gpu_memset), the count and total duration (µs) in each trace, their
-- differences (variant - baseline) and the change: added (baseline has none), deleted
-- (variant has none), increased, decreased or unchanged (by count).
CREATE TEMP VIEW IF NOT EXISTS diff_ops AS
WITH b AS (
    SELECT p.rowid AS pair, e.name, e.kind, count(*) AS n, total(e.dur) AS us
    FROM diff_params p, events(p.baseline) e
    WHERE e.kind IN ('cpu_op', 'kernel', 'gpu_memcpy', 'gpu_memset') AND e.dur IS NOT NULL
    GROUP BY p.rowid, e.name, e.kind
), v AS (
    SELECT p.rowid AS pair, e.name, e.kind, count(*) AS n, total(e.dur) AS us
    FROM diff_params p, events(p.variant) e
    WHERE e.kind IN ('cpu_op', 'kernel', 'gpu_memcpy', 'gpu_memset') AND e.dur IS NOT NULL
    GROUP BY p.rowid, e.name, e.kind
), k AS (
    SELECT pair, name, kind FROM b UNION SELECT pair, name, kind FROM v
)
SELECT k.pair, k.name, k.kind,
       coalesce(b.n, 0) AS baseline_count, coalesce(v.n, 0) AS variant_count,
       coalesce(v.n, 0) - coalesce(b.n, 0) AS count_diff,
       coalesce(b.us, 0.0) AS baseline_dur_us, coalesce(v.us, 0.0) AS variant_dur_us,
       coalesce(v.us, 0.0) - coalesce(b.us, 0.0) AS dur_diff_us,
       CASE WHEN b.n IS NULL THEN 'added' WHEN v.n IS NULL THEN 'deleted'
            WHEN v.n > b.n THEN 'increased' WHEN v.n < b.n THEN 'decreased'
            ELSE 'unchanged' END AS change
FROM k LEFT JOIN b ON b.pair = k.pair AND b.name IS k.name AND b.kind = k.kind
       LEFT JOIN v ON v.pair = k.pair AND v.name IS k.name AND v.kind = k.kind
ORDER BY k.pair, abs(coalesce(v.us, 0.0) - coalesce(b.us, 0.0)) DESC, k.name, k.kind;
