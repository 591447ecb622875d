-- module: compare.compare_layers_v
-- requires: compare.compare_event_groups_filtered_v, config.compare_params

-- compare_layers_v: compare_layers(baseline, variant [, phase]),
-- one row per transformer layer index in either trace (docs/compare.md): GPU events
-- with a layer, aggregated over forward passes. Status thresholds: compare_params
-- layer_gap_ms and layer_ratio. Rows in both traces first, then by |gap_ms|. Times are
-- exact sums of the events' ns durations (over compare_event_groups).
CREATE TEMP VIEW IF NOT EXISTS compare_layers_v AS
WITH
f AS MATERIALIZED (SELECT side, layer, n, dur_ns FROM compare_event_groups_filtered_v WHERE layer IS NOT NULL),
agg AS MATERIALIZED (
    SELECT layer,
           coalesce(sum(CASE WHEN side = 'baseline' THEN n END), 0) AS bn,
           coalesce(sum(CASE WHEN side = 'variant' THEN n END), 0) AS vn,
           coalesce(sum(CASE WHEN side = 'baseline' THEN dur_ns END), 0) / 1e6 AS bms,
           coalesce(sum(CASE WHEN side = 'variant' THEN dur_ns END), 0) / 1e6 AS vms
    FROM f GROUP BY layer
),
thr AS (
    SELECT (SELECT CAST(value AS REAL) FROM compare_params WHERE name = 'layer_gap_ms') AS gap,
           (SELECT CAST(value AS REAL) FROM compare_params WHERE name = 'layer_ratio') AS ratio
),
r AS (
    SELECT a.layer, a.bn AS baseline_kernels, a.vn AS variant_kernels,
           a.bms AS baseline_total_ms, a.vms AS variant_total_ms,
           CASE WHEN a.bn > 0 AND a.vn > 0 THEN CASE WHEN a.vms > 0 THEN a.bms / a.vms ELSE 1.0 END
                ELSE 0.0 END AS ratio,
           a.bms - a.vms AS gap_ms,
           a.bn > 0 AND a.vn > 0 AS in_both
    FROM agg a
)
SELECT r.layer, r.baseline_kernels, r.variant_kernels, r.baseline_total_ms, r.variant_total_ms,
       r.ratio, r.gap_ms,
       CASE WHEN r.variant_kernels = 0 THEN 'baseline_only'
            WHEN r.baseline_kernels = 0 THEN 'variant_only'
            WHEN r.gap_ms > thr.gap AND r.ratio > thr.ratio THEN 'slower'
            WHEN r.gap_ms < -thr.gap AND r.ratio < 1.0 / thr.ratio THEN 'faster'
            ELSE 'similar' END AS status,
       r.in_both
FROM r CROSS JOIN thr
ORDER BY r.in_both DESC, abs(r.gap_ms) DESC, r.layer;
