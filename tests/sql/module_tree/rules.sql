-- module_tree on a hand-made trace (tests/sql/module_tree/modules.json): a module's
-- parent is the nearest module above it through Python frames (_call_impl is skipped);
-- a GPU event belongs to the innermost module whose span [ts, ts + dur) holds its
-- launch on the same thread: a launch at a module's start is inside, one at its end is
-- not; modules starting together nest by length; another thread's module sees only its
-- own launches; a name without _<digits> keeps its digits-free form (Conv2d).
SELECT trace_open('tests/sql/module_tree/modules.json') AS id;
SELECT uid, name, module, instance, parent_uid, depth, path, ts, dur, child_modules,
       gpu_events, gpu_time_us, self_gpu_time_us, parent_gpu_time_us,
       round(pct_of_parent_gpu, 6) AS pct_of_parent_gpu
FROM module_tree;
SELECT * FROM module_summary;
-- a trace without Python events: no rows, no error
SELECT trace_open('tests/sql/replay/ops.json') AS id;
SELECT count(*) AS rows FROM module_tree WHERE trace_id = 2;
SELECT count(*) AS rows FROM module_summary WHERE trace_id = 2;
