-- Several streams with kernel names recorded: gemm_k and the copy replay on stream 7,
-- add_k on stream 8; each capture launch takes the next kernel of a stream whose queue
-- starts with its name (TraceLens's per-stream pairing): merged.
SELECT trace_open('tests/data/inference/merge/replay_streams.json', 'ms');
SELECT trace_merge_capture('ms', 'tests/data/inference/merge/cap');
SELECT uid, name, stream, launcher_uid, launcher_name, tl_launcher_uid FROM kernels('ms') ORDER BY uid;
-- PIECEWISE: a step of 4 tokens with two graph launches takes the PIECEWISE capture of
-- batch size 4 (two capture windows: piece_1, piece_2, paired with the launches in
-- order); a step of 3 tokens with one launch the FULL one; a step of 2 tokens with three
-- launches has no capture of three windows (a warning; its launches keep their kernels).
-- TraceLens's merge of the same files gives the same UIDs and parents.
SELECT trace_open('tests/data/inference/merge/replay_piecewise.json', 'pw');
SELECT trace_merge_capture('pw', 'tests/data/inference/merge/cap_piecewise');
SELECT r.parent_uid AS graph_launch, r.uid AS capture_root, f.name AS frame
FROM events('pw') r JOIN events('pw') f ON f.parent_uid = r.uid AND f.kind = 'python_function'
WHERE r.name = 'CaptureRoot' ORDER BY r.uid;
SELECT uid, name, launcher_uid, launcher_name, tl_launcher_uid FROM kernels('pw') ORDER BY uid;
SELECT code, uid, message FROM trace_warnings('pw');
