-- module: compare.compare_metadata_v
-- requires: compare.compare_event_groups_filtered_v

-- compare_metadata_v: compare_metadata(baseline, variant [, phase]),
-- one row per side (docs/compare.md): platform, GPU, GPU events and time under the phase
-- filter, layers, forward passes, the time per phase (exact sums of the ns durations), and
-- how the phases were found (phases_from: markers, shapes, kernel names).
CREATE TEMP VIEW IF NOT EXISTS compare_metadata_v AS
WITH
-- the groups of the events (compare_event_groups) and of the forward passes, under the
-- phase filter: a few thousand rows where the events are hundreds of thousands
f AS MATERIALIZED (SELECT side, name, n, dur_ns, phase, phase_source, layer FROM compare_event_groups_filtered_v),
fp AS MATERIALIZED (
    SELECT side, pass FROM compare_pass_groups
    WHERE side IN ('baseline', 'variant') AND (compare_arg('phase') IS NULL OR phase = compare_arg('phase'))
),
sides(side) AS (VALUES ('baseline'), ('variant')),
args(side, t) AS (
    SELECT 'baseline', compare_arg('baseline') UNION ALL SELECT 'variant', compare_arg('variant')
),
tid AS MATERIALIZED (
    SELECT a.side, (SELECT k.trace_id FROM kernels(a.t) k LIMIT 1) AS trace_id
    FROM args a WHERE a.t IS NOT NULL
),
names AS MATERIALIZED (SELECT DISTINCT side, name FROM f),
vendor_by_name AS (
    SELECT side,
        CASE WHEN max(name GLOB 'Cijk_*' OR name GLOB 'igemm_*' OR name GLOB 'naive_conv*'
                      OR name GLOB '__amd_rocclr*' OR name LIKE '%hip_bfloat16%' OR name LIKE '%rccl%'
                      OR name LIKE '%ck_tile%' OR name LIKE '%aiter%' OR name GLOB 'attn_fwd*') THEN 'AMD'
             WHEN max(name GLOB 'sm[0-9][0-9]*' OR name GLOB 'nvjet*' OR name LIKE '%cublas%'
                      OR name LIKE '%cudnn%' OR name LIKE '%cutlass%' OR name GLOB 'volta_*'
                      OR name GLOB 'ampere_*' OR name LIKE '%nccl%' OR name LIKE '%nv_bfloat16%') THEN 'NVIDIA'
        END AS platform
    FROM names GROUP BY side
)
SELECT s.side, t.trace_id, tr.label, tr.gpu_name AS gpu,
       CASE WHEN tr.gpu_name LIKE '%AMD%' OR tr.gpu_name LIKE '%Instinct%' OR tr.gpu_name LIKE '%Radeon%' THEN 'AMD'
            WHEN tr.gpu_name LIKE '%NVIDIA%' OR tr.gpu_name LIKE '%Tesla%' OR tr.gpu_name LIKE '%GeForce%' THEN 'NVIDIA'
            ELSE v.platform END AS platform,
       coalesce(compare_arg('phase'), 'all') AS phase_filter,
       coalesce((SELECT sum(n) FROM f WHERE f.side = s.side), 0) AS gpu_events,
       coalesce((SELECT sum(dur_ns) FROM f WHERE f.side = s.side), 0) / 1e6 AS total_ms,
       (SELECT count(DISTINCT layer) FROM f WHERE f.side = s.side) AS layers,
       (SELECT count(DISTINCT pass) FROM fp WHERE fp.side = s.side) AS forward_passes,
       coalesce((SELECT sum(dur_ns) FROM f WHERE f.side = s.side AND phase = 'prefill'), 0) / 1e6 AS prefill_ms,
       coalesce((SELECT sum(dur_ns) FROM f WHERE f.side = s.side AND phase = 'decode'), 0) / 1e6 AS decode_ms,
       coalesce((SELECT sum(dur_ns) FROM f WHERE f.side = s.side AND phase = 'mixed'), 0) / 1e6 AS mixed_ms,
       coalesce((SELECT sum(dur_ns) FROM f WHERE f.side = s.side AND phase IS NULL), 0) / 1e6 AS no_phase_ms,
       (SELECT group_concat(src, ', ') FROM (
            SELECT DISTINCT phase_source AS src FROM f WHERE f.side = s.side AND phase_source IS NOT NULL
            ORDER BY src)) AS phases_from
FROM sides s JOIN tid t ON t.side = s.side
LEFT JOIN traces tr ON tr.trace_id = t.trace_id
LEFT JOIN vendor_by_name v ON v.side = s.side
WHERE t.trace_id IS NOT NULL;
