-- replay_script() on a hand-made trace (tests/sql/replay/ops.json): for each op kind,
-- the lines of the script that depend on the event — get_op() and the argument lines
-- of make_args() — plus the header constants. Every script here must also compile
-- (tests/replay/check_replay.sh).
SELECT trace_open('tests/sql/replay/ops.json', 'ops') AS id;
CREATE TEMP TABLE s AS
SELECT uid, name, replay_script('ops', uid) AS script
FROM events('ops')
WHERE kind = 'cpu_op' AND name NOT IN ('aten::relu', 'Optimizer.step#SGD.step');
-- the script's lines, numbered
CREATE TEMP TABLE lines AS
WITH RECURSIVE l(uid, n, line, rest) AS (
    SELECT uid, 0, NULL, script || char(10) FROM s
    UNION ALL
    SELECT uid, n + 1, substr(rest, 1, instr(rest, char(10)) - 1),
           substr(rest, instr(rest, char(10)) + 1)
    FROM l WHERE rest <> ''
)
SELECT uid, n, line FROM l WHERE n > 0;
-- every script has the same skeleton
SELECT s.uid, s.name,
       (SELECT count(*) FROM lines l WHERE l.uid = s.uid) > 60 AS long_enough,
       instr(script, 'def make_tensor(shape, stride, dtype, device):') > 0 AS has_factory,
       instr(script, 'torch.empty_strided') + instr(script, 'as_strided(shape, stride)') > 0 AS strided,
       instr(script, 'torch.cuda.Event(enable_timing=True)') > 0 AS cuda_events,
       instr(script, 'time.perf_counter()') > 0 AS cpu_fallback,
       instr(script, 'us per call (mean of') > 0 AS prints_mean
FROM s ORDER BY s.uid;
-- header constants
SELECT uid, line FROM lines
WHERE line LIKE 'OP_NAME = %' OR line LIKE 'TRACE_UID = %' OR line LIKE 'TRACE_KERNEL_US = %'
   OR line LIKE 'recorded: %'
ORDER BY uid, n;
-- get_op() and make_args(): the lines between "def get_op" and "def main", without
-- blank lines and docstrings
SELECT l.uid, l.line FROM lines l
WHERE l.n > (SELECT n FROM lines x WHERE x.uid = l.uid AND x.line LIKE 'def get_op%')
  AND l.n < (SELECT n FROM lines x WHERE x.uid = l.uid AND x.line LIKE 'def main%')
  AND l.line <> '' AND l.line NOT LIKE '%"""%' AND l.line NOT LIKE '    PyTorch picks%'
  AND l.line NOT LIKE 'def make_args%'
ORDER BY l.uid, l.n;
-- the same script for the same event, whichever way the trace is named; a GPU kernel
-- or the runtime call that launched it gives its op's script
SELECT replay_script('ops', 0) = replay_script(1, 0) AS by_id,
       replay_script('ops', 0) = replay_script('tests/sql/replay/ops.json', 0) AS by_path,
       replay_script('ops', 4) = replay_script('ops', 0) AS kernel_gives_op,
       replay_script('ops', 1) = replay_script('ops', 0) AS runtime_gives_op,
       replay_script('ops', NULL) IS NULL AS null_uid;
