-- module: compare.compare_phases_v

-- compare_phases_v: compare_phases(baseline, variant), one row per
-- phase either trace has (prefill, decode, mixed, then none), in that order: GPU events,
-- time (exact sums of the ns durations) and forward passes of each side, the gap, and how
-- each side's phases were found (markers, shapes, kernel names; docs/compare.md).
CREATE TEMP VIEW IF NOT EXISTS compare_phases_v AS
WITH
g AS MATERIALIZED (
    SELECT side, coalesce(phase, 'none') AS phase, phase_source, n, dur_ns FROM compare_event_groups
    WHERE side IN ('baseline', 'variant')
),
p AS MATERIALIZED (
    SELECT side, coalesce(phase, 'none') AS phase, count(DISTINCT pass) AS passes FROM compare_pass_groups
    WHERE side IN ('baseline', 'variant') GROUP BY side, coalesce(phase, 'none')
),
per AS MATERIALIZED (
    SELECT side, phase, sum(n) AS n, sum(dur_ns) AS dur_ns,
           (SELECT group_concat(src, ', ') FROM (
                SELECT DISTINCT g2.phase_source AS src FROM g g2
                WHERE g2.side = g.side AND g2.phase = g.phase AND g2.phase_source IS NOT NULL ORDER BY 1)) AS found_by
    FROM g GROUP BY side, phase
),
phases(phase, ord) AS (VALUES ('prefill', 1), ('decode', 2), ('mixed', 3), ('none', 4))
SELECT ph.phase,
       coalesce(b.n, 0) AS baseline_events, coalesce(v.n, 0) AS variant_events,
       coalesce(b.dur_ns, 0) / 1e6 AS baseline_ms, coalesce(v.dur_ns, 0) / 1e6 AS variant_ms,
       coalesce((SELECT passes FROM p WHERE p.side = 'baseline' AND p.phase = ph.phase), 0) AS baseline_passes,
       coalesce((SELECT passes FROM p WHERE p.side = 'variant' AND p.phase = ph.phase), 0) AS variant_passes,
       (coalesce(b.dur_ns, 0) - coalesce(v.dur_ns, 0)) / 1e6 AS gap_ms,
       CASE WHEN coalesce(v.dur_ns, 0) > 0 THEN 1.0 * coalesce(b.dur_ns, 0) / v.dur_ns END AS ratio,
       b.found_by AS baseline_found_by, v.found_by AS variant_found_by
FROM phases ph
LEFT JOIN per b ON b.side = 'baseline' AND b.phase = ph.phase
LEFT JOIN per v ON v.side = 'variant' AND v.phase = ph.phase
WHERE b.n IS NOT NULL OR v.n IS NOT NULL
ORDER BY ph.ord;
