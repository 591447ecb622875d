-- module: compare.compare_fusion_v
-- requires: compare.compare_event_groups_filtered_v

-- compare_fusion_v: compare_fusion(baseline, variant [, phase]):
-- what one side fuses that the other runs as separate kernels, and the time at stake
-- (docs/compare.md). Two kinds of evidence, one row per operation:
--   'fused kernel'   one side has RMSNorm+GEMM / LayerNorm+GEMM kernels, the other none;
--   'fewer kernels'  one side runs fewer kernels of the operation than the other (at
--                    least 10% and 1 per forward pass fewer): it fuses some of them into
--                    others. time_at_stake_ms is the separate side's total − the fused
--                    side's, for the operation.
-- Times are exact sums of the events' ns durations.
CREATE TEMP VIEW IF NOT EXISTS compare_fusion_v AS
WITH
-- the groups of the events (compare_event_groups) and of the forward passes, under the
-- phase filter
f AS MATERIALIZED (SELECT side, op, n, dur_ns FROM compare_event_groups_filtered_v),
passes AS (
    SELECT max(1, count(DISTINCT pass)) AS n FROM compare_pass_groups
    WHERE side IN ('baseline', 'variant') AND (compare_arg('phase') IS NULL OR phase = compare_arg('phase'))
),
agg AS MATERIALIZED (
    SELECT op,
           coalesce(sum(CASE WHEN side = 'baseline' THEN n END), 0) AS bn,
           coalesce(sum(CASE WHEN side = 'variant' THEN n END), 0) AS vn,
           coalesce(sum(CASE WHEN side = 'baseline' THEN dur_ns END), 0) / 1e6 AS bms,
           coalesce(sum(CASE WHEN side = 'variant' THEN dur_ns END), 0) / 1e6 AS vms
    FROM f GROUP BY op
),
fused AS (
    SELECT a.op AS operation, CASE WHEN a.bn > 0 THEN 'baseline' ELSE 'variant' END AS fused_side,
           'fused kernel' AS evidence, a.bn, a.vn,
           coalesce((SELECT CASE WHEN a.bn > 0 THEN s.vms ELSE s.bms END FROM agg s
                     WHERE s.op = replace(a.op, '+GEMM', '')), 0) AS separate_ms,
           CASE WHEN a.bn > 0 THEN a.bms ELSE a.vms END AS fused_ms
    FROM agg a WHERE a.op LIKE '%+GEMM' AND (a.bn = 0 OR a.vn = 0)
),
fewer AS (
    SELECT a.op AS operation, CASE WHEN a.bn < a.vn THEN 'baseline' ELSE 'variant' END AS fused_side,
           'fewer kernels' AS evidence, a.bn, a.vn,
           CASE WHEN a.bn < a.vn THEN a.vms ELSE a.bms END AS separate_ms,
           CASE WHEN a.bn < a.vn THEN a.bms ELSE a.vms END AS fused_ms
    FROM agg a, passes p
    WHERE a.bn > 0 AND a.vn > 0 AND a.op NOT IN ('Memcpy', 'Memset')
      AND abs(a.bn - a.vn) >= 0.1 * max(a.bn, a.vn) AND abs(a.bn - a.vn) >= p.n
)
SELECT operation, fused_side, evidence, bn AS baseline_count, vn AS variant_count,
       separate_ms, fused_ms, separate_ms - fused_ms AS time_at_stake_ms
FROM (SELECT * FROM fused UNION ALL SELECT * FROM fewer)
ORDER BY abs(separate_ms - fused_ms) DESC, operation;
