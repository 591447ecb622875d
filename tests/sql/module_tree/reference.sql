-- module_tree (a table computed in C, core/analysis/module_tree.c) against the
-- recursive SQL view that defined it before, kept here as the reference: every row,
-- column and value and the row order must be the same. Traces: the hand-made one of
-- rules.sql, a seeded random one (gen_random_modules.py: launches at module starts
-- and ends, pid/tid spelled 1, 1.0 and "1", odd module names), the demo trace.
CREATE TEMP VIEW module_tree_reference AS
WITH RECURSIVE
mods AS MATERIALIZED (
    SELECT trace_id, uid, name, pid, tid, ts, dur, ts_ns, end_ns, parent_uid AS py_parent
    FROM events
    WHERE kind = 'python_function' AND substr(name, 1, 10) = 'nn.Module:'
),
-- climbing the Python frames from each module to the next module up
up(trace_id, uid, anc, steps) AS (
    SELECT trace_id, uid, py_parent, 0 FROM mods WHERE py_parent IS NOT NULL
    UNION ALL
    SELECT up.trace_id, up.uid, e.parent_uid, up.steps + 1
    FROM up JOIN events e ON e.trace_id = up.trace_id AND e.uid = up.anc
    WHERE NOT (e.kind = 'python_function' AND substr(e.name, 1, 10) = 'nn.Module:')
      AND e.parent_uid IS NOT NULL AND up.steps < 100000
),
m AS MATERIALIZED (
    SELECT mods.*,
           (SELECT u.anc FROM up u JOIN mods p ON p.trace_id = u.trace_id AND p.uid = u.anc
            WHERE u.trace_id = mods.trace_id AND u.uid = mods.uid) AS parent_uid,
           ltrim(substr(name, 11)) AS label0
    FROM mods
),
lab AS MATERIALIZED (
    SELECT m.*,
           CASE WHEN substr(rtrim(label0, '0123456789'), -1) = '_'
                     AND length(rtrim(label0, '0123456789')) < length(label0)
                THEN substr(label0, 1, length(rtrim(label0, '0123456789')) - 1)
                ELSE label0 END AS module,
           CASE WHEN substr(rtrim(label0, '0123456789'), -1) = '_'
                     AND length(rtrim(label0, '0123456789')) < length(label0)
                THEN CAST(substr(label0, length(rtrim(label0, '0123456789')) + 1) AS INTEGER)
           END AS instance
    FROM m
),
tree(trace_id, uid, depth, path) AS (
    SELECT trace_id, uid, 0, module FROM lab WHERE parent_uid IS NULL
    UNION ALL
    SELECT c.trace_id, c.uid, t.depth + 1, t.path || '/' || c.module
    FROM tree t JOIN lab c ON c.trace_id = t.trace_id AND c.parent_uid = t.uid
    WHERE t.depth < 10000
),
-- GPU events and where their runtime call started
launch AS MATERIALIZED (
    SELECT k.trace_id, k.uid AS kuid, k.ts AS kts, k.dur AS kdur, r.pid, r.tid, r.ts_ns AS lts
    FROM kernels k JOIN events r ON r.trace_id = k.trace_id AND r.uid = k.launcher_uid
    WHERE k.launcher_uid IS NOT NULL AND k.trace_id IN (SELECT trace_id FROM mods)
),
-- module starts and launches of each thread in time order; mseq counts the module
-- starts so far (at equal times: modules before launches, longer modules first)
pts AS (
    SELECT trace_id, pid, tid, ts_ns AS t, 0 AS is_launch, end_ns, uid AS muid, NULL AS kuid, NULL AS lts
    FROM mods WHERE ts_ns IS NOT NULL AND end_ns IS NOT NULL
    UNION ALL
    SELECT trace_id, pid, tid, lts, 1, NULL, NULL, kuid, lts FROM launch
),
seq AS MATERIALIZED (
    SELECT *, sum(1 - is_launch) OVER (PARTITION BY trace_id, pid, tid
                                       ORDER BY t, is_launch, end_ns DESC, muid
                                       ROWS UNBOUNDED PRECEDING) AS mseq
    FROM pts
),
-- the module that started last before the launch, then up its parents to the first
-- one whose span holds the launch: the innermost module of the launch
climb(trace_id, kuid, lts, muid, steps) AS (
    SELECT l.trace_id, l.kuid, l.lts, s.muid, 0
    FROM seq l JOIN seq s ON s.trace_id = l.trace_id AND s.pid IS l.pid AND s.tid IS l.tid
                         AND s.mseq = l.mseq AND s.is_launch = 0
    WHERE l.is_launch = 1 AND l.mseq > 0
    UNION ALL
    SELECT c.trace_id, c.kuid, c.lts, x.parent_uid, c.steps + 1
    FROM climb c JOIN lab x ON x.trace_id = c.trace_id AND x.uid = c.muid
    WHERE NOT (x.ts_ns <= c.lts AND c.lts < x.end_ns) AND x.parent_uid IS NOT NULL
      AND c.steps < 100000
),
innermost AS MATERIALIZED (
    SELECT c.trace_id, c.kuid, c.muid
    FROM climb c JOIN lab x ON x.trace_id = c.trace_id AND x.uid = c.muid
    WHERE x.ts_ns <= c.lts AND c.lts < x.end_ns
),
-- each GPU event belongs to its innermost module and every module above it
owns(trace_id, muid, kuid, steps) AS (
    SELECT trace_id, muid, kuid, 0 FROM innermost
    UNION ALL
    SELECT o.trace_id, x.parent_uid, o.kuid, o.steps + 1
    FROM owns o JOIN lab x ON x.trace_id = o.trace_id AND x.uid = o.muid
    WHERE x.parent_uid IS NOT NULL AND o.steps < 100000
),
gpu AS MATERIALIZED (
    SELECT o.trace_id, o.muid, count(*) AS n, busy_time(l.kts, l.kdur) AS busy
    FROM owns o CROSS JOIN launch l ON l.trace_id = o.trace_id AND l.kuid = o.kuid
    GROUP BY o.trace_id, o.muid
),
self AS MATERIALIZED (
    SELECT i.trace_id, i.muid, busy_time(l.kts, l.kdur) AS busy
    FROM innermost i CROSS JOIN launch l ON l.trace_id = i.trace_id AND l.kuid = i.kuid
    GROUP BY i.trace_id, i.muid
),
kids AS MATERIALIZED (
    SELECT trace_id, parent_uid AS muid, count(*) AS n FROM lab
    WHERE parent_uid IS NOT NULL GROUP BY trace_id, parent_uid
)
SELECT x.trace_id, x.uid, x.name, x.module, x.instance, x.parent_uid,
       t.depth, t.path, x.pid, x.tid, x.ts, x.dur,
       coalesce(k.n, 0) AS child_modules,
       coalesce(g.n, 0) AS gpu_events,
       coalesce(g.busy, 0.0) AS gpu_time_us,
       coalesce(s.busy, 0.0) AS self_gpu_time_us,
       CASE WHEN x.parent_uid IS NOT NULL THEN coalesce(pg.busy, 0.0) END AS parent_gpu_time_us,
       CASE WHEN pg.busy > 0 THEN coalesce(g.busy, 0.0) / pg.busy * 100 END AS pct_of_parent_gpu
FROM lab x
JOIN tree t ON t.trace_id = x.trace_id AND t.uid = x.uid
LEFT JOIN gpu g ON g.trace_id = x.trace_id AND g.muid = x.uid
LEFT JOIN self s ON s.trace_id = x.trace_id AND s.muid = x.uid
LEFT JOIN gpu pg ON pg.trace_id = x.trace_id AND pg.muid = x.parent_uid
LEFT JOIN kids k ON k.trace_id = x.trace_id AND k.muid = x.uid
ORDER BY x.trace_id, x.ts_ns, t.depth, x.uid;

SELECT trace_open('tests/sql/module_tree/modules.json') IS NOT NULL AS opened;
SELECT trace_open('tests/sql/module_tree/random_modules.json') IS NOT NULL AS opened;
SELECT trace_open('examples/demo_trace.json.gz') IS NOT NULL AS opened;
-- each trace: rows, then the whole ordered table as one text, compared
SELECT t.trace_id,
       (SELECT count(*) FROM module_tree m WHERE m.trace_id = t.trace_id) AS table_rows,
       (SELECT count(*) FROM module_tree_reference r WHERE r.trace_id = t.trace_id) AS reference_rows,
       (SELECT group_concat(quote(trace_id) || ',' || quote(uid) || ',' || quote(name) || ',' || quote(module)
                || ',' || quote(instance) || ',' || quote(parent_uid) || ',' || quote(depth) || ',' || quote(path)
                || ',' || quote(pid) || ',' || quote(tid) || ',' || quote(ts) || ',' || quote(dur)
                || ',' || quote(child_modules) || ',' || quote(gpu_events) || ',' || quote(gpu_time_us)
                || ',' || quote(self_gpu_time_us) || ',' || quote(parent_gpu_time_us)
                || ',' || quote(pct_of_parent_gpu), char(10))
        FROM (SELECT * FROM module_tree m WHERE m.trace_id = t.trace_id))
       IS (SELECT group_concat(quote(trace_id) || ',' || quote(uid) || ',' || quote(name) || ',' || quote(module)
                || ',' || quote(instance) || ',' || quote(parent_uid) || ',' || quote(depth) || ',' || quote(path)
                || ',' || quote(pid) || ',' || quote(tid) || ',' || quote(ts) || ',' || quote(dur)
                || ',' || quote(child_modules) || ',' || quote(gpu_events) || ',' || quote(gpu_time_us)
                || ',' || quote(self_gpu_time_us) || ',' || quote(parent_gpu_time_us)
                || ',' || quote(pct_of_parent_gpu), char(10))
        FROM (SELECT * FROM module_tree_reference r WHERE r.trace_id = t.trace_id)) AS same
FROM traces t ORDER BY t.trace_id;
-- and what the random trace holds, so the comparison is not an empty one
SELECT count(*) AS modules, sum(gpu_events) AS owned, max(depth) AS max_depth,
       count(DISTINCT typeof(pid) || pid || '/' || tid) AS threads,
       sum(instance IS NULL) AS no_instance, sum(parent_uid IS NULL) AS top
FROM module_tree WHERE trace_id = 2;
