-- module: compare.compare_kernels_v
-- requires: compare.compare_phase_guard_v

-- compare_kernels_v: compare_kernels(baseline, variant [, phase]),
-- kernel pairs within each layer (docs/compare.md). In each forward pass and layer, the
-- k-th kernel of an operation on one side is paired with the k-th kernel of that
-- operation on the other; pairs are summed over passes. position orders the pairs by
-- where the kernel first runs in its layer (the baseline's, else the variant's). Times
-- are exact sums of the events' ns durations. The per-event numbering is done in C
-- (core/analysis/compare_events.c: tsql_cmp_kernel_groups).
CREATE TEMP VIEW IF NOT EXISTS compare_kernels_v AS
WITH
-- the events numbered in C (compare_kernel_groups: k within (pass, layer, op), the
-- position within (pass, layer), under the phase filter) and grouped by (layer, op, k, name)
g AS MATERIALIZED (
    SELECT c.side, c.layer, c.op, c.k, c.name, c.n, c.ndur, c.dur_ns, c.pos
    FROM compare_kernel_groups c, compare_phase_guard_v guard
    WHERE guard.g IS NULL AND c.side IN ('baseline', 'variant')
),
-- per kernel name of each (side, layer, op, k): r = 1 for the most frequent (ties: the
-- smallest name)
named AS MATERIALIZED (
    SELECT side, layer, op, k, name, sum(n) AS n, sum(ndur) AS ndur, sum(dur_ns) AS dur_ns,
           min(pos) AS pos,
           row_number() OVER (PARTITION BY side, layer, op, k ORDER BY sum(n) DESC, name) AS r
    FROM g GROUP BY side, layer, op, k, name
),
agg AS MATERIALIZED (
    SELECT side, layer, op, k, sum(n) AS n,
           CASE WHEN sum(ndur) > 0 THEN sum(dur_ns) / 1000.0 END AS total_us,
           CASE WHEN sum(ndur) > 0 THEN sum(dur_ns) / 1000.0 / sum(ndur) END AS avg_us,
           min(pos) AS pos, max(CASE WHEN r = 1 THEN name END) AS name
    FROM named GROUP BY side, layer, op, k
),
paired AS MATERIALIZED (
    SELECT layer, op, k,
           max(CASE WHEN side = 'baseline' THEN name END) AS bname,
           max(CASE WHEN side = 'variant' THEN name END) AS vname,
           max(CASE WHEN side = 'baseline' THEN n END) AS bn,
           max(CASE WHEN side = 'variant' THEN n END) AS vn,
           max(CASE WHEN side = 'baseline' THEN avg_us END) AS bavg,
           max(CASE WHEN side = 'variant' THEN avg_us END) AS vavg,
           max(CASE WHEN side = 'baseline' THEN total_us END) AS btot,
           max(CASE WHEN side = 'variant' THEN total_us END) AS vtot,
           coalesce(max(CASE WHEN side = 'baseline' THEN pos END),
                    max(CASE WHEN side = 'variant' THEN pos END)) AS pos
    FROM agg GROUP BY layer, op, k
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
