-- module: compare.compare_stacks_v
-- requires: config.compare_params

-- compare_stacks_v: compare_stacks(trace, operation [, n [, phase]]),
-- up to n (default compare_params max_stacks; 0: all) distinct Python stacks that
-- launched the operation's kernels in one trace, the ones under the most GPU time first
-- (docs/compare.md). A kernel's stack is the innermost python_function enclosing its
-- launch on the launching thread, then its Python parents; frames outermost first, one
-- per line. Traces without Python events have no rows. gpu_us is the exact sum of the ns
-- durations.
CREATE TEMP VIEW IF NOT EXISTS compare_stacks_v AS
WITH RECURSIVE
arg(t) AS (SELECT compare_arg('trace')),
k AS MATERIALIZED (
    SELECT uid, name, dur, dur_ns, t_probe, launcher_uid, op_uid FROM compare_events
    WHERE side = 'trace' AND op = compare_arg('operation') AND launcher_uid IS NOT NULL
      AND (compare_arg('phase') IS NULL OR phase = compare_arg('phase'))
),
-- one probe per launching CPU op (the same op launches with the same stack)
probes AS MATERIALIZED (
    SELECT k.uid, k.name, k.t_probe, k.launcher_uid,
           sum(k.dur_ns) OVER (PARTITION BY coalesce(k.op_uid, k.uid)) / 1000.0 AS op_us,
           row_number() OVER (PARTITION BY coalesce(k.op_uid, k.uid) ORDER BY k.dur DESC, k.uid) AS r
    FROM k
),
top AS MATERIALIZED (
    SELECT * FROM probes WHERE r = 1 ORDER BY op_us DESC, uid LIMIT 200
),
-- the innermost Python frame running on the launching thread at the launch (an index
-- lookup: core/analysis/python_frame.c), then its Python parents
leaf AS MATERIALIZED (
    SELECT t.uid AS kuid, t.name AS kname, t.op_us,
           python_frame_at(arg.t, t.launcher_uid, t.t_probe) AS puid
    FROM top t, arg
),
chain(kuid, puid, d) AS (
    SELECT kuid, puid, 0 FROM leaf WHERE puid IS NOT NULL
    UNION ALL
    SELECT c.kuid, p.parent_uid, c.d + 1 FROM chain c, arg JOIN events(arg.t) p ON p.uid = c.puid
    WHERE p.kind = 'python_function' AND p.parent_uid IS NOT NULL AND c.d < 200
),
stacks AS MATERIALIZED (
    SELECT kuid, group_concat(name, char(10)) AS stack FROM (
        SELECT c.kuid, p.name FROM chain c, arg JOIN events(arg.t) p ON p.uid = c.puid
        WHERE p.kind = 'python_function' ORDER BY c.kuid, c.d DESC)
    GROUP BY kuid
),
ranked AS (
    SELECT s.stack, sum(l.op_us) AS gpu_us, count(*) AS ops, min(l.kname) AS kernel
    FROM stacks s JOIN leaf l ON l.kuid = s.kuid GROUP BY s.stack
),
lim AS (
    SELECT coalesce(compare_arg('n'), (SELECT value FROM compare_params WHERE name = 'max_stacks')) AS n
)
SELECT row_number() OVER (ORDER BY gpu_us DESC, stack) AS rank, kernel, gpu_us, stack
FROM ranked, lim
ORDER BY gpu_us DESC, stack
LIMIT (SELECT CASE WHEN n > 0 THEN n ELSE -1 END FROM lim);
