-- Capture launches that did not record their kernel name (no args.kernel).
-- One stream: TraceLens pairs the launches with the replayed kernels by position without
-- checking the names (it warns "alignment has not been verified"): merged, with a warning.
SELECT trace_open('tests/data/inference/merge/replay.json', 'one');
SELECT trace_merge_capture('one', 'tests/data/inference/merge/cap_nonames');
SELECT uid, name, launcher_uid, tl_launcher_uid FROM kernels('one') ORDER BY uid;
SELECT code, uid, message FROM trace_warnings('one');
-- Several streams (gemm_k and the copy on stream 7, add_k on 8): TraceLens's merge gives up
-- as a whole and its report is the replay's alone; so is the trace here, with the reason
SELECT trace_open('tests/data/inference/merge/replay_streams.json', 'two');
SELECT trace_merge_capture('two', 'tests/data/inference/merge/cap_nonames');
SELECT count(*) AS events FROM events('two');
SELECT uid, name, stream, launcher_uid, launcher_name, tl_launcher_uid FROM kernels('two') ORDER BY uid;
SELECT code, uid, message FROM trace_warnings('two');
-- nothing was merged, so the folder may be merged again (it fails the same way)
SELECT trace_merge_capture('two', 'tests/data/inference/merge/cap_nonames');
SELECT count(*) AS warnings FROM trace_warnings('two');
