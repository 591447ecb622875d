-- The cross-platform comparison's per-event step as it was written in SQL before it
-- moved to C (core/analysis/compare_events.c), kept as the reference the C code is
-- checked against (tests/compare/reference_events.sh): the same rules, stated
-- relationally. The traces come from the TEMP table ref_sides(side, t) instead of a
-- call's arguments.
CREATE TEMP TABLE IF NOT EXISTS ref_sides(side TEXT, t);
--
--   op       kernel_op(name, cpu_op): classified once per distinct (name, cpu_op)
--   cpu_op   the innermost cpu_op enclosing the launch (kernels.op_name)
--   t_probe  the launch's ts (µs), or the GPU event's own ts when its launch is not in
--            the trace: where the CPU-side markers below are looked up
--   phase    1. the enclosing SGLang step[EXTEND|PREFILL ...] / step[DECODE ...] /
--               step[MIXED ...] or vLLM execute_..._context_<m>..._generation_<k>...
--               annotation (m > 0 only: prefill; k > 0 only: decode; both: mixed);
--            2. an Attention kernel whose name says decode or prefill: that;
--            3. its ProfilerStep: prefill / decode / mixed from the attention kernel
--               names of the step; else NULL
--   step     ordinal (1, 2, ...) of the enclosing ProfilerStep#N annotation, NULL if none
--   layer    index (0, 1, ...) of the repeated nn.Module block (decoder / encoder layer)
--            whose forward launched it, numbered within its parent (one parent per
--            forward pass); without nn.Module events, from kernel patterns: a layer
--            starts at a norm followed by attention, and the last one ends at the final
--            norm; NULL outside the layers
--   pass     ordinal of the forward pass (the layer block's parent instance, or the step)
CREATE TEMP VIEW IF NOT EXISTS ref_compare_events_v AS
WITH
sides(side, t) AS (SELECT side, t FROM temp.ref_sides),
-- no kernel names past this point: the sorts below carry narrow rows (the names, up to
-- a few KB each, made them spill to temp files); the final SELECT looks each name up
-- by uid. kernel_op keeps its label per distinct (name, CPU op).
kc AS MATERIALIZED (
    SELECT s.side, k.trace_id, k.uid, k.kind, k.ts, k.dur, k.device, k.stream,
           k.launcher_uid, k.op_uid, k.op_name AS cpu_op,
           coalesce(l.ts, k.ts) AS t_probe, l.pid AS lpid, l.tid AS ltid,
           kernel_op(k.name, k.op_name) AS op,
           CASE WHEN kernel_op(k.name, k.op_name) = 'Attention' THEN
               CASE WHEN lower(k.name) LIKE '%decode%' THEN 'decode'
                    WHEN lower(k.name) LIKE '%prefill%' THEN 'prefill' END
           END AS aphase
    FROM sides s JOIN kernels(s.t) k
    LEFT JOIN events(s.t) l ON l.uid = k.launcher_uid
    WHERE s.t IS NOT NULL
),
-- CPU-side markers: phase annotations and profiler steps
marks AS MATERIALIZED (
    SELECT s.side, e.uid, e.name, e.ts, e.ts + e.dur AS te,
           CASE WHEN e.name LIKE 'ProfilerStep#%' THEN 'step' ELSE 'phase' END AS mkind,
           CASE
               WHEN e.name LIKE 'step[extend%' OR e.name LIKE 'step[prefill%' THEN 'prefill'
               WHEN e.name LIKE 'step[decode%' THEN 'decode'
               WHEN e.name LIKE 'step[mixed%' THEN 'mixed'
               WHEN e.name LIKE 'execute%context%generation%' THEN
                   CASE WHEN cx > 0 AND gx > 0 THEN 'mixed' WHEN cx > 0 THEN 'prefill'
                        WHEN gx > 0 THEN 'decode' END
           END AS phase
    FROM sides s JOIN (
        SELECT e.*, CAST(substr(e.name, instr(e.name, '_context_') + 9) AS INTEGER) AS cx,
               CAST(substr(e.name, instr(e.name, '_generation_') + 12) AS INTEGER) AS gx
        FROM sides s2 JOIN events(s2.t) e
        WHERE s2.t IS NOT NULL AND e.kind = 'user_annotation'
    ) e ON e.trace_id = (SELECT trace_id FROM kc WHERE kc.side = s.side LIMIT 1)
    WHERE s.t IS NOT NULL
      AND (e.name LIKE 'ProfilerStep#%' OR e.name LIKE 'step[%'
           OR (e.name LIKE 'execute%' AND instr(e.name, '_context_') > 0
               AND instr(e.name, '_generation_') > 0))
),
mseq AS MATERIALIZED (
    SELECT *, row_number() OVER (PARTITION BY side, mkind ORDER BY ts, uid) AS seq FROM marks
),
-- the latest marker of each kind started at or before each probe, then kept if it
-- still spans the probe (markers of one kind do not overlap). One ordered stream of
-- markers and GPU events carries both; no join of the events with anything large.
stream AS (
    SELECT side, ts AS t, 0 AS is_k, uid AS muid,
           CASE WHEN mkind = 'step' THEN seq END AS sseq, CASE WHEN mkind = 'phase' THEN seq END AS pseq,
           NULL AS trace_id, NULL AS uid, NULL AS kind, NULL AS ts, NULL AS dur,
           NULL AS device, NULL AS stream, NULL AS launcher_uid, NULL AS op_uid, NULL AS cpu_op,
           NULL AS t_probe, NULL AS lpid, NULL AS ltid, NULL AS op, NULL AS aphase
    FROM mseq
    UNION ALL
    SELECT side, t_probe, 1, NULL, NULL, NULL, trace_id, uid, kind, ts, dur, device, stream,
           launcher_uid, op_uid, cpu_op, t_probe, lpid, ltid, op, aphase
    FROM kc
),
carried AS MATERIALIZED (
    SELECT *,
           max(sseq) OVER w AS cs, max(pseq) OVER w AS cp
    FROM stream
    WINDOW w AS (PARTITION BY side ORDER BY t, is_k ROWS UNBOUNDED PRECEDING)
),
ke AS MATERIALIZED (
    SELECT c.side, c.trace_id, c.uid, c.kind, c.ts, c.dur, c.device, c.stream,
           c.launcher_uid, c.op_uid, c.cpu_op, c.t_probe, c.lpid, c.ltid, c.op,
           CASE WHEN c.t_probe < ms.te THEN ms.seq END AS step,
           CASE WHEN c.t_probe < mp.te THEN mp.phase END AS mphase,
           c.aphase
    FROM carried c
    LEFT JOIN mseq ms ON ms.side = c.side AND ms.mkind = 'step' AND ms.seq = c.cs
    LEFT JOIN mseq mp ON mp.side = c.side AND mp.mkind = 'phase' AND mp.seq = c.cp
    WHERE c.is_k = 1
),
step_phase AS MATERIALIZED (
    SELECT side, step,
           CASE WHEN count(DISTINCT aphase) > 1 THEN 'mixed' ELSE max(aphase) END AS sphase
    FROM ke WHERE aphase IS NOT NULL AND step IS NOT NULL GROUP BY side, step
),
-- layers from the nn.Module tree: the module class that repeats under one parent
-- (>= 2 siblings) and holds the most time is the layer block
-- nn.Module instances and their parent module: the nearest nn.Module among the
-- first 8 Python frames above (no recursion: SQLite 3.40 cannot prepare some views
-- over recursive CTEs when they are reached through several CTE references)
mods AS MATERIALIZED (
    SELECT s.side, e.uid, e.name, e.pid, e.tid, e.ts, e.dur, e.parent_uid AS p1,
           ltrim(substr(e.name, 11)) AS label0
    FROM sides s JOIN events(s.t) e
    WHERE s.t IS NOT NULL AND e.kind = 'python_function' AND substr(e.name, 1, 10) = 'nn.Module:'
),
mt AS MATERIALIZED (
    SELECT m.side, m.uid, m.pid, m.tid, m.ts, m.dur,
           CASE WHEN substr(rtrim(label0, '0123456789'), -1) = '_'
                     AND length(rtrim(label0, '0123456789')) < length(label0)
                THEN substr(label0, 1, length(rtrim(label0, '0123456789')) - 1)
                ELSE label0 END AS module,
           CASE WHEN substr(e1.name, 1, 10) = 'nn.Module:' THEN e1.uid
                WHEN substr(e2.name, 1, 10) = 'nn.Module:' THEN e2.uid
                WHEN substr(e3.name, 1, 10) = 'nn.Module:' THEN e3.uid
                WHEN substr(e4.name, 1, 10) = 'nn.Module:' THEN e4.uid
                WHEN substr(e5.name, 1, 10) = 'nn.Module:' THEN e5.uid
                WHEN substr(e6.name, 1, 10) = 'nn.Module:' THEN e6.uid
                WHEN substr(e7.name, 1, 10) = 'nn.Module:' THEN e7.uid
                WHEN substr(e8.name, 1, 10) = 'nn.Module:' THEN e8.uid END AS parent_uid
    FROM mods m JOIN sides s ON s.side = m.side
    LEFT JOIN events(s.t) e1 ON e1.uid = m.p1
    LEFT JOIN events(s.t) e2 ON e2.uid = e1.parent_uid
    LEFT JOIN events(s.t) e3 ON e3.uid = e2.parent_uid
    LEFT JOIN events(s.t) e4 ON e4.uid = e3.parent_uid
    LEFT JOIN events(s.t) e5 ON e5.uid = e4.parent_uid
    LEFT JOIN events(s.t) e6 ON e6.uid = e5.parent_uid
    LEFT JOIN events(s.t) e7 ON e7.uid = e6.parent_uid
    LEFT JOIN events(s.t) e8 ON e8.uid = e7.parent_uid
),
-- module instances' CPU time stands in for GPU time when choosing the block
groups AS MATERIALIZED (
    SELECT side, parent_uid, module, sum(dur) AS gpu
    FROM mt WHERE parent_uid IS NOT NULL GROUP BY side, parent_uid, module HAVING count(*) >= 2
),
block AS MATERIALIZED (
    SELECT side, module FROM (
        SELECT side, module, row_number() OVER (PARTITION BY side
                   ORDER BY sum(gpu) DESC, module) AS r
        FROM groups GROUP BY side, module)
    WHERE r = 1
),
layer_inst AS MATERIALIZED (
    SELECT mt.side, mt.uid, mt.pid, mt.tid, mt.ts, mt.ts + mt.dur AS te,
           row_number() OVER (PARTITION BY mt.side, mt.parent_uid ORDER BY mt.ts, mt.uid) - 1 AS layer,
           dense_rank() OVER (PARTITION BY mt.side ORDER BY p.ts, mt.parent_uid) AS pass,
           row_number() OVER (PARTITION BY mt.side, mt.pid, mt.tid ORDER BY mt.ts, mt.uid) AS seq
    FROM mt JOIN block b ON b.side = mt.side AND b.module = mt.module
    JOIN groups g ON g.side = mt.side AND g.parent_uid = mt.parent_uid AND g.module = mt.module
    JOIN mt p ON p.side = mt.side AND p.uid = mt.parent_uid
),
-- a GPU event's layer: the latest layer instance started on the launching thread at or
-- before the launch, if its span still holds the launch (one ordered stream again)
lstream AS (
    SELECT side, pid AS lp, tid AS lt, ts AS t, 0 AS is_k, seq AS lseq,
           NULL AS uid, NULL AS step, NULL AS mphase, NULL AS aphase, NULL AS kind
    FROM layer_inst
    UNION ALL
    SELECT side, lpid, ltid, t_probe, 1, NULL, uid, step, mphase, aphase, kind
    FROM ke WHERE launcher_uid IS NOT NULL AND side IN (SELECT side FROM layer_inst)
),
lcarried AS MATERIALIZED (
    SELECT *, max(lseq) OVER (PARTITION BY side, lp, lt ORDER BY t, is_k ROWS UNBOUNDED PRECEDING) AS cl
    FROM lstream
),
mod_layer AS MATERIALIZED (
    SELECT c.side, c.uid, li.layer, li.pass
    FROM lcarried c JOIN layer_inst li
        ON li.side = c.side AND li.pid IS c.lp AND li.tid IS c.lt AND li.seq = c.cl
    WHERE c.is_k = 1 AND c.t < li.te
),
-- layers from kernel patterns, for a side without nn.Module layers: within each pass
-- (ProfilerStep, else the whole trace) in GPU time order
pat AS MATERIALIZED (
    SELECT side, uid, ts, coalesce(step, 0) AS pass,
           CASE WHEN op IN ('RMSNorm', 'LayerNorm', 'RMSNorm+GEMM', 'LayerNorm+GEMM') THEN 'n'
                WHEN op = 'Attention' THEN 'a' END AS mark
    FROM ke WHERE side NOT IN (SELECT side FROM layer_inst)
),
pmarks AS MATERIALIZED (
    SELECT side, uid, ts, pass, mark,
           lead(mark) OVER w AS next_mark, lag(mark) OVER w AS prev_mark,
           coalesce(sum(mark = 'a') OVER (w ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING), 0) AS attn_after
    FROM pat WHERE mark IS NOT NULL
    WINDOW w AS (PARTITION BY side, pass ORDER BY ts, uid)
),
pat_stream AS (
    SELECT side, pass, ts, uid, 0 AS is_k,
           CASE WHEN mark = 'n' AND next_mark = 'a' THEN 1 ELSE 0 END AS is_start,
           CASE WHEN mark = 'n' AND prev_mark = 'n' AND attn_after = 0 THEN 1 ELSE 0 END AS is_end
    FROM pmarks
    UNION ALL
    SELECT side, pass, ts, uid, 1, 0, 0 FROM pat
),
pat_run AS MATERIALIZED (
    SELECT side, uid, pass, is_k,
           sum(is_start) OVER w AS nstart, max(is_end) OVER w AS ended
    FROM pat_stream
    WINDOW w AS (PARTITION BY side, pass ORDER BY ts, uid, is_k ROWS UNBOUNDED PRECEDING)
),
pat_layer AS MATERIALIZED (
    SELECT side, uid, nstart - 1 AS layer, pass FROM pat_run WHERE is_k = 1 AND nstart > 0 AND ended = 0
),
-- at most one row per GPU event (mod_layer and pat_layer are for different sides)
layered AS MATERIALIZED (
    SELECT side, uid, layer, pass FROM mod_layer
    UNION ALL
    SELECT side, uid, layer, pass FROM pat_layer
)
SELECT ke.side, ke.trace_id, ke.uid, ke.kind,
       (SELECT e.name FROM sides s JOIN events(s.t) e ON e.uid = ke.uid
        WHERE s.side = ke.side) AS name, ke.ts, ke.dur, ke.device, ke.stream,
       ke.op, ke.cpu_op, ke.op_uid, ke.launcher_uid, ke.t_probe,
       coalesce(ke.mphase, ke.aphase, sp.sphase) AS phase,
       ke.step, m.layer, m.pass
FROM ke
LEFT JOIN step_phase sp ON sp.side = ke.side AND sp.step = ke.step
LEFT JOIN layered m ON m.side = ke.side AND m.uid = ke.uid;
