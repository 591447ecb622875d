-- 66_compare_kernels.sql — compare_kernels_v: compare_kernels(baseline, variant [, phase]),
-- kernel pairs within each layer (docs/compare.md). In each forward pass and layer, the
-- k-th kernel of an operation on one side is paired with the k-th kernel of that
-- operation on the other; pairs are summed over passes. position orders the pairs by
-- where the kernel first runs in its layer (the baseline's, else the variant's). Times
-- are exact sums of the events' ns durations.
CREATE TEMP VIEW IF NOT EXISTS compare_kernels_v AS
WITH
f AS MATERIALIZED (
    SELECT side, pass, layer, op, name, dur_ns, ts, uid FROM compare_filtered_v WHERE layer IS NOT NULL
),
occ AS MATERIALIZED (
    SELECT side, layer, op, name, dur_ns,
           row_number() OVER (PARTITION BY side, pass, layer, op ORDER BY ts, uid) AS k,
           row_number() OVER (PARTITION BY side, pass, layer ORDER BY ts, uid) AS pos
    FROM f
),
agg AS MATERIALIZED (
    SELECT side, layer, op, k, count(*) AS n, sum(dur_ns) / 1000.0 AS total_us,
           sum(dur_ns) / 1000.0 / count(dur_ns) AS avg_us,
           min(pos) AS pos,
           (SELECT o2.name FROM occ o2 WHERE o2.side = occ.side AND o2.layer = occ.layer
              AND o2.op = occ.op AND o2.k = occ.k GROUP BY o2.name ORDER BY count(*) DESC, o2.name LIMIT 1) AS name
    FROM occ GROUP BY side, layer, op, k
),
keys AS (SELECT DISTINCT layer, op, k FROM agg),
paired AS MATERIALIZED (
    SELECT y.layer, y.op, y.k,
           max(CASE WHEN a.side = 'baseline' THEN a.name END) AS bname,
           max(CASE WHEN a.side = 'variant' THEN a.name END) AS vname,
           max(CASE WHEN a.side = 'baseline' THEN a.n END) AS bn,
           max(CASE WHEN a.side = 'variant' THEN a.n END) AS vn,
           max(CASE WHEN a.side = 'baseline' THEN a.avg_us END) AS bavg,
           max(CASE WHEN a.side = 'variant' THEN a.avg_us END) AS vavg,
           max(CASE WHEN a.side = 'baseline' THEN a.total_us END) AS btot,
           max(CASE WHEN a.side = 'variant' THEN a.total_us END) AS vtot,
           coalesce(max(CASE WHEN a.side = 'baseline' THEN a.pos END),
                    max(CASE WHEN a.side = 'variant' THEN a.pos END)) AS pos
    FROM keys y JOIN agg a ON a.layer = y.layer AND a.op = y.op AND a.k = y.k
    GROUP BY y.layer, y.op, y.k
)
SELECT layer,
       row_number() OVER (PARTITION BY layer ORDER BY pos, op, k) - 1 AS position,
       op AS operation,
       bname AS baseline_kernel, vname AS variant_kernel,
       coalesce(bn, 0) AS baseline_count, coalesce(vn, 0) AS variant_count,
       bavg AS baseline_avg_us, vavg AS variant_avg_us,
       coalesce(btot, 0) AS baseline_total_us, coalesce(vtot, 0) AS variant_total_us,
       CASE WHEN bn > 0 AND vn > 0 AND vtot > 0 THEN btot / vtot END AS ratio,
       coalesce(btot, 0) - coalesce(vtot, 0) AS gap_us,
       bname IS NOT NULL AND bname = vname AS is_same_kernel,
       CASE WHEN bname IS NULL THEN 'variant only: the baseline runs no further ' || op || ' kernel in this layer (fused elsewhere, or not needed)'
            WHEN vname IS NULL THEN 'baseline only: the variant runs no further ' || op || ' kernel in this layer (fused elsewhere, or not needed)'
            WHEN op LIKE '%+GEMM' THEN 'fused ' || op || ' on both sides'
       END AS fusion_note
FROM paired
ORDER BY layer, position;
