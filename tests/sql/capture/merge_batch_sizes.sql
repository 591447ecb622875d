-- Engine steps of 2, 5, 12 and 3 tokens, one graph launch each; the folder has captures of
-- batch size 4 (FULL and PIECEWISE) and 8 (FULL). Each step takes the smallest captured
-- batch size at least its own, FULL for a single launch: 2 -> 4, 5 -> 8, 3 -> 4; 12 has
-- none (a warning; its launch keeps its kernels). The last step replays gemm_k only: the
-- capture's other launches stay in the copy unpaired (TraceLens's "code 2").
-- TraceLens's merge of the same files gives the same UIDs and parents.
SELECT trace_open('tests/data/inference/merge/replay_steps.json', 'steps');
SELECT trace_merge_capture('steps', 'tests/data/inference/merge/cap_sizes');
-- which capture each launch took: the frame name below each CaptureRoot
SELECT r.parent_uid AS graph_launch, r.uid AS capture_root, f.name AS frame, r.ts
FROM events('steps') r JOIN events('steps') f ON f.parent_uid = r.uid AND f.kind = 'python_function'
WHERE r.name = 'CaptureRoot' ORDER BY r.uid;
SELECT uid, name, ts, launcher_uid, launcher_name, tl_launcher_uid FROM kernels('steps') ORDER BY uid;
SELECT code, uid, message FROM trace_warnings('steps');
SELECT name, count, total_direct_kernel_time_sum FROM ops_summary ORDER BY name;
