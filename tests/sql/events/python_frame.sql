-- python_frame_at on the hand-made tests/data/compare/modules.json (written by
-- tests/data/compare/make_module_trace.py): Net_0 (uid 5) [5, 995] holds Block_0 (6)
-- [10, 300], Block_1 (7) [300, 600], Head_0 (8) [600, 700]; Block_0 holds Linear_0 (9)
-- [50, 60] and Linear_1 (10) [60, 70]; all on pid 1 / tid 1. Kernel k5 is launched on
-- tid 2, where there is no Python frame.
SELECT trace_open('tests/data/compare/modules.json', 'm') AS m;
SELECT python_frame_at('m', 5) AS own_start, python_frame_at('m', 5, 55) AS in_linear_0,
       python_frame_at('m', 5, 60) AS both_linears_later_wins, python_frame_at('m', 5, 70.0) AS end_included,
       python_frame_at('m', 5, 999) AS between_passes, python_frame_at('m', 5, NULL) AS null_time,
       python_frame_at('m', NULL) AS null_uid;
-- each launch's frame: k2 at Block_0's start, k4 at Block_1's start, k5 on another thread
SELECT k.uid, l.tid, l.ts, e.name
FROM kernels('m') k JOIN events('m') l ON l.uid = k.launcher_uid
LEFT JOIN events('m') e ON e.uid = python_frame_at('m', k.launcher_uid)
WHERE k.uid IN (18, 23, 26) ORDER BY k.uid;
-- a trace that is not open is an error (the function never opens a file)
SELECT python_frame_at('tests/data/tree_rules.json', 0);
