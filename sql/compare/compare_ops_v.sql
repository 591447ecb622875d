-- module: compare.compare_ops_v
-- requires: compare.compare_event_groups_filtered_v, config.compare_params

CREATE TEMP VIEW IF NOT EXISTS compare_ops_v AS
WITH
f AS MATERIALIZED (SELECT side, op, name, cpu_op, phase, n, ndur, dur_ns FROM compare_event_groups_filtered_v),
present AS MATERIALIZED (SELECT DISTINCT side, op FROM f),
-- the row each event is counted in
rowop AS MATERIALIZED (
    SELECT f.side, f.op, f.name, f.cpu_op, f.phase, f.n, f.ndur, f.dur_ns,
        CASE
            WHEN f.op IN ('RMSNorm', 'LayerNorm')
             AND NOT EXISTS (SELECT 1 FROM present p WHERE p.side = f.side AND p.op = f.op || '+GEMM')
             AND EXISTS (SELECT 1 FROM present p WHERE p.side <> f.side AND p.op = f.op || '+GEMM')
            THEN f.op || '+GEMM' ELSE f.op
        END AS operation
    FROM f
),
agg AS MATERIALIZED (
    SELECT side, operation, sum(n) AS n,
           CASE WHEN sum(ndur) > 0 THEN sum(dur_ns) END AS total_ns,
           CASE WHEN sum(ndur) > 0 THEN sum(dur_ns) / 1000.0 / sum(ndur) END AS avg_us,
           group_concat(DISTINCT op) AS ops
    FROM rowop GROUP BY side, operation
),
-- the kernel name with the most time, and the most frequent CPU op (ties: smallest)
kern AS MATERIALIZED (
    SELECT side, operation, name FROM (
        SELECT side, operation, name,
               row_number() OVER (PARTITION BY side, operation
                   ORDER BY sum(CASE WHEN ndur > 0 THEN dur_ns END) DESC, name) AS r
        FROM rowop GROUP BY side, operation, name)
    WHERE r = 1
),
cpu AS MATERIALIZED (
    SELECT side, operation, cpu_op FROM (
        SELECT side, operation, cpu_op,
               row_number() OVER (PARTITION BY side, operation ORDER BY sum(n) DESC, cpu_op) AS r
        FROM rowop WHERE cpu_op IS NOT NULL GROUP BY side, operation, cpu_op)
    WHERE r = 1
),
ph AS MATERIALIZED (
    SELECT operation, group_concat(phase, ',') AS phases FROM (
        SELECT DISTINCT operation, phase FROM rowop WHERE phase IS NOT NULL ORDER BY operation, phase)
    GROUP BY operation
),
-- one row per operation (a CTE over a view is read once per query: SQLite 3.40 fails
-- to prepare a view whose recursive CTEs are reached through two references)
side_cols AS MATERIALIZED (
    SELECT o.operation,
           max(CASE WHEN k.side = 'baseline' THEN k.name END) AS baseline_kernel,
           max(CASE WHEN k.side = 'variant' THEN k.name END) AS variant_kernel,
           (SELECT max(CASE WHEN c.side = 'baseline' THEN c.cpu_op END) FROM cpu c
            WHERE c.operation = o.operation) AS baseline_cpu_op,
           (SELECT max(CASE WHEN c.side = 'variant' THEN c.cpu_op END) FROM cpu c
            WHERE c.operation = o.operation) AS variant_cpu_op
    FROM (SELECT DISTINCT operation FROM agg) o LEFT JOIN kern k ON k.operation = o.operation
    GROUP BY o.operation
),
ops AS (SELECT DISTINCT operation FROM agg),
thr AS (SELECT CAST(value AS REAL) AS gap FROM compare_params WHERE name = 'op_gap_ms'),
r AS (
    SELECT o.operation,
           coalesce(b.n, 0) AS baseline_count, coalesce(v.n, 0) AS variant_count,
           b.avg_us AS baseline_avg_us, v.avg_us AS variant_avg_us,
           coalesce(b.total_ns, 0) / 1e6 AS baseline_total_ms,
           coalesce(v.total_ns, 0) / 1e6 AS variant_total_ms,
           b.ops AS bops, v.ops AS vops
    FROM ops o
    LEFT JOIN agg b ON b.side = 'baseline' AND b.operation = o.operation
    LEFT JOIN agg v ON v.side = 'variant' AND v.operation = o.operation
)
SELECT r.operation, r.baseline_count, r.variant_count, r.baseline_avg_us, r.variant_avg_us,
       r.baseline_total_ms, r.variant_total_ms,
       CASE WHEN r.baseline_count > 0 AND r.variant_count > 0 THEN
           CASE WHEN r.variant_total_ms > 0 THEN r.baseline_total_ms / r.variant_total_ms
                WHEN r.baseline_total_ms = 0 THEN 1.0 END
       END AS ratio,
       CASE WHEN r.baseline_count > 0 AND r.variant_count > 0 THEN
           CASE WHEN r.variant_avg_us > 0 THEN r.baseline_avg_us / r.variant_avg_us
                WHEN r.baseline_avg_us = 0 THEN 1.0 END
       END AS avg_ratio,
       r.baseline_total_ms - r.variant_total_ms AS gap_ms,
       CASE WHEN r.variant_count = 0 THEN 'baseline_only'
            WHEN r.baseline_count = 0 THEN 'variant_only'
            WHEN r.baseline_total_ms - r.variant_total_ms > thr.gap THEN 'slower'
            WHEN r.baseline_total_ms - r.variant_total_ms < -thr.gap THEN 'faster'
            ELSE 'similar' END AS status,
       sc.baseline_kernel, sc.variant_kernel, sc.baseline_cpu_op, sc.variant_cpu_op,
       coalesce(ph.phases, 'all') AS phases,
       CASE WHEN r.bops IS NOT r.vops AND r.bops IS NOT NULL AND r.vops IS NOT NULL
            THEN 'baseline runs ' || r.bops || ', variant runs ' || r.vops
                 || ' (fused on one side, separate on the other)' END AS note
FROM r CROSS JOIN thr
LEFT JOIN side_cols sc ON sc.operation = r.operation
LEFT JOIN ph ON ph.operation = r.operation
ORDER BY abs(r.baseline_total_ms - r.variant_total_ms) DESC, r.operation;
