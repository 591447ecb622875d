-- module: compare.compare_phase_guard_v

-- compare_ops_v: compare_ops(baseline, variant [, phase]), one row
-- per operation present in either trace (docs/compare.md). Every GPU event of each
-- trace is in exactly one row, so Σ baseline_total_ms and Σ variant_total_ms are each
-- trace's GPU time (of the phase). Times are exact sums of the events' ns durations.
--
-- Fused vs separate: when one side has RMSNorm+GEMM (LayerNorm+GEMM) kernels and the
-- other has none, the other side's RMSNorm (LayerNorm) kernels are compared in that
-- row; `note` says so.
--
-- compare_phase_guard_v: fails with the phases each trace has when the phase argument
-- matches no GPU event of either trace (one row otherwise). compare_filtered_v: the
-- events of both sides under the phase argument; compare_event_groups_filtered_v: their
-- groups (compare_event_groups), which compare_ops and compare_layers sum — a few thousand
-- rows where the events are hundreds of thousands.
CREATE TEMP VIEW IF NOT EXISTS compare_phase_guard_v AS
WITH g AS NOT MATERIALIZED (
    SELECT side, phase, phase_source, n FROM compare_event_groups WHERE side IN ('baseline', 'variant')
),
have AS (
    SELECT side, group_concat(p, ', ') AS phases FROM (
        SELECT side, coalesce(phase, 'none') || ' (' || sum(n) || ' GPU events)' AS p
        FROM g GROUP BY side, phase ORDER BY side, phase)
    GROUP BY side
),
-- how each side's phases were found, or why none were
how AS (
    SELECT s.side, coalesce(
        (SELECT 'phases from ' || group_concat(src, ' and ') FROM (
            SELECT DISTINCT phase_source AS src FROM g WHERE g.side = s.side AND phase_source IS NOT NULL
            ORDER BY src)),
        'no phase found: no phase markers (SGLang step[...], vLLM execute_..._context_N_generation_N), '
        || 'no attention query length in the forward passes (Input Dims: record with record_shapes=True; '
        || 'a pass with backward work is a training step), no prefill/decode attention kernel names') AS how
    FROM (SELECT 'baseline' AS side UNION ALL SELECT 'variant') s
)
SELECT CASE
    WHEN compare_arg('phase') IS NOT NULL AND compare_arg('phase') NOT IN ('prefill', 'decode', 'mixed')
    THEN raise_error(printf('unknown phase %s: the phases are prefill, decode and mixed (NULL for all)',
        quote(compare_arg('phase'))))
    WHEN compare_arg('phase') IS NOT NULL
             AND NOT EXISTS (SELECT 1 FROM g WHERE phase = compare_arg('phase'))
    THEN raise_error(printf('no %s phase in either trace: baseline has %s (%s); variant has %s (%s)',
        compare_arg('phase'),
        coalesce((SELECT phases FROM have WHERE side = 'baseline'), 'no GPU events'),
        (SELECT how FROM how WHERE side = 'baseline'),
        coalesce((SELECT phases FROM have WHERE side = 'variant'), 'no GPU events'),
        (SELECT how FROM how WHERE side = 'variant')))
END AS g;
