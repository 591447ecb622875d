-- 62_compare_events.sql — compare_events_v: every GPU event (kernel, memcpy, memset) of
-- the traces of the running comparison call with its operation, phase and layer
-- (docs/compare.md). Read through gpu_ops(trace) or the compare_* functions, which
-- set compare_arg('baseline' / 'variant' / 'trace'); side says which.
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
CREATE TEMP VIEW IF NOT EXISTS compare_events_v AS
WITH
sides(side, t) AS (
    SELECT 'baseline', compare_arg('baseline') UNION ALL
    SELECT 'variant', compare_arg('variant') UNION ALL
    SELECT 'trace', compare_arg('trace')
),
k AS MATERIALIZED (
    SELECT s.side, k.trace_id, k.uid, k.kind, k.name, k.ts, k.dur, k.device, k.stream,
           k.launcher_uid, k.op_uid, k.op_name AS cpu_op,
           coalesce(l.ts, k.ts) AS t_probe, l.pid AS lpid, l.tid AS ltid
    FROM sides s JOIN kernels(s.t) k
    LEFT JOIN events(s.t) l ON l.uid = k.launcher_uid
    WHERE s.t IS NOT NULL
),
names AS MATERIALIZED (
    SELECT name, cpu_op, kernel_op(name, cpu_op) AS op FROM (SELECT DISTINCT name, cpu_op FROM k)
),
kc AS MATERIALIZED (
    SELECT k.*, n.op FROM k JOIN names n ON n.name IS k.name AND n.cpu_op IS k.cpu_op
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
    ) e ON e.trace_id = (SELECT trace_id FROM k WHERE k.side = s.side LIMIT 1)
    WHERE s.t IS NOT NULL
      AND (e.name LIKE 'ProfilerStep#%' OR e.name LIKE 'step[%'
           OR (e.name LIKE 'execute%' AND instr(e.name, '_context_') > 0
               AND instr(e.name, '_generation_') > 0))
),
mseq AS MATERIALIZED (
    SELECT *, row_number() OVER (PARTITION BY side, mkind ORDER BY ts, uid) AS seq FROM marks
),
-- the latest marker of each kind started at or before each probe, then kept if it
-- still spans the probe (markers of one kind do not overlap)
probe AS (
    SELECT side, mkind, ts AS t, 0 AS is_k, seq, NULL AS uid FROM mseq
    UNION ALL
    SELECT kc.side, m.mkind, kc.t_probe, 1, NULL, kc.uid
    FROM kc JOIN (SELECT 'step' AS mkind UNION ALL SELECT 'phase') m
    WHERE EXISTS (SELECT 1 FROM mseq WHERE mseq.side = kc.side AND mseq.mkind = m.mkind)
),
carried AS MATERIALIZED (
    SELECT side, mkind, uid, t,
           max(seq) OVER (PARTITION BY side, mkind ORDER BY t, is_k ROWS UNBOUNDED PRECEDING) AS seq
    FROM probe
),
inmark AS MATERIALIZED (
    SELECT c.side, c.uid,
           max(CASE WHEN c.mkind = 'step' THEN m.seq END) AS step,
           max(CASE WHEN c.mkind = 'phase' THEN m.phase END) AS mphase
    FROM carried c JOIN mseq m ON m.side = c.side AND m.mkind = c.mkind AND m.seq = c.seq
    WHERE c.uid IS NOT NULL AND c.t < m.te
    GROUP BY c.side, c.uid
),
ke AS MATERIALIZED (
    SELECT kc.*, i.step, i.mphase,
           CASE WHEN kc.op = 'Attention' THEN
               CASE WHEN lower(kc.name) LIKE '%decode%' THEN 'decode'
                    WHEN lower(kc.name) LIKE '%prefill%' THEN 'prefill' END
           END AS aphase
    FROM kc LEFT JOIN inmark i ON i.side = kc.side AND i.uid = kc.uid
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
lprobe AS (
    SELECT side, pid, tid, ts AS t, 0 AS is_k, seq, NULL AS uid FROM layer_inst
    UNION ALL
    SELECT side, lpid, ltid, t_probe, 1, NULL, uid FROM kc
    WHERE launcher_uid IS NOT NULL AND side IN (SELECT side FROM layer_inst)
),
lcarried AS MATERIALIZED (
    SELECT side, pid, tid, uid, t,
           max(seq) OVER (PARTITION BY side, pid, tid ORDER BY t, is_k ROWS UNBOUNDED PRECEDING) AS seq
    FROM lprobe
),
mod_layer AS MATERIALIZED (
    SELECT c.side, c.uid, li.layer, li.pass
    FROM lcarried c JOIN layer_inst li
        ON li.side = c.side AND li.pid IS c.pid AND li.tid IS c.tid AND li.seq = c.seq
    WHERE c.uid IS NOT NULL AND c.t < li.te
),
-- layers from kernel patterns, for a side without nn.Module layers: within each pass
-- (ProfilerStep, else the whole trace) in GPU time order
pat AS MATERIALIZED (
    SELECT side, uid, ts, coalesce(step, 0) AS pass, op,
           CASE WHEN op IN ('RMSNorm', 'LayerNorm', 'RMSNorm+GEMM', 'LayerNorm+GEMM') THEN 'n'
                WHEN op = 'Attention' THEN 'a' END AS mark
    FROM ke WHERE side NOT IN (SELECT side FROM layer_inst)
),
pmarks AS MATERIALIZED (
    SELECT side, uid, ts, pass, mark,
           lead(mark) OVER w AS next_mark, lag(mark) OVER w AS prev_mark
    FROM pat WHERE mark IS NOT NULL
    WINDOW w AS (PARTITION BY side, pass ORDER BY ts, uid)
),
pflags AS MATERIALIZED (
    SELECT side, uid,
           CASE WHEN mark = 'n' AND next_mark = 'a' THEN 1 ELSE 0 END AS is_start,
           CASE WHEN mark = 'n' AND prev_mark = 'n' AND NOT EXISTS (
                    SELECT 1 FROM pmarks p2 WHERE p2.side = pmarks.side AND p2.pass = pmarks.pass
                      AND p2.mark = 'a' AND (p2.ts > pmarks.ts OR (p2.ts = pmarks.ts AND p2.uid > pmarks.uid)))
                THEN 1 ELSE 0 END AS is_end
    FROM pmarks
),
pat_run AS MATERIALIZED (
    SELECT p.side, p.uid, p.pass,
           sum(coalesce(f.is_start, 0)) OVER w AS nstart,
           max(coalesce(f.is_end, 0)) OVER w AS ended
    FROM pat p LEFT JOIN pflags f ON f.side = p.side AND f.uid = p.uid
    WINDOW w AS (PARTITION BY p.side, p.pass ORDER BY p.ts, p.uid ROWS UNBOUNDED PRECEDING)
),
pat_layer AS MATERIALIZED (
    SELECT side, uid, nstart - 1 AS layer, pass FROM pat_run WHERE nstart > 0 AND ended = 0
)
SELECT ke.side, ke.trace_id, ke.uid, ke.kind, ke.name, ke.ts, ke.dur, ke.device, ke.stream,
       ke.op, ke.cpu_op, ke.op_uid, ke.launcher_uid, ke.t_probe,
       coalesce(ke.mphase, ke.aphase, sp.sphase) AS phase,
       ke.step,
       coalesce(ml.layer, pl.layer) AS layer,
       coalesce(ml.pass, pl.pass) AS pass
FROM ke
LEFT JOIN step_phase sp ON sp.side = ke.side AND sp.step = ke.step
LEFT JOIN mod_layer ml ON ml.side = ke.side AND ml.uid = ke.uid
LEFT JOIN pat_layer pl ON pl.side = ke.side AND pl.uid = ke.uid;

-- gpu_ops_v: gpu_ops(trace) — the GPU events of one trace with their operation
CREATE TEMP VIEW IF NOT EXISTS gpu_ops_v AS
SELECT trace_id, uid, kind, name, ts, dur, device, stream, op, cpu_op, phase, step, layer, pass
FROM compare_events WHERE side = 'trace' ORDER BY uid;
