-- trace_merge_capture(trace, folder) on a hand-made vLLM-style replay: one engine step of
-- 3 tokens whose hipGraphLaunch (uid 2) replays gemm_k, add_k and a DtoD copy, and an
-- ordinary op (aten::fill_) outside the graph. The folder's capture of batch size 4 holds
-- a Python frame forward_bs4 with aten::mm and aten::add (under a Python helper) and a
-- bare hipMemcpyAsync between its StreamBeginCapture / StreamEndCapture calls.
-- TraceLens's merge of the same files (its trace_capture_merge_experimental) gives the
-- same UIDs, names and parents, and its inference report the ops_summary below.
SELECT trace_open('tests/data/inference/merge/replay.json', 'serve') AS id;
SELECT trace_merge_capture('serve', 'tests/data/inference/merge/cap') AS same_id;
-- the copies: UIDs after the replay's 11 events, ts and dur of the graph launch; the
-- CaptureRoot hangs under the launch, calls under their nearest op (Python frames skipped)
SELECT uid, name, kind, pid, parent_uid, depth, ts, dur, tl_root, correlation, external_id, seq, input_dims
FROM events('serve') WHERE uid >= 11 ORDER BY uid;
-- the replayed kernels now hang under the capture launch calls and take their correlation
SELECT uid, name, launcher_uid, launcher_name, link_kind, op_uid, root_op_uid, tl_launcher_uid, correlation
FROM kernels('serve') ORDER BY uid;
SELECT parent_uid, child_uid, kind FROM tree_edges('serve') WHERE parent_uid IN (2, 11, 12, 16) ORDER BY 1, 2;
SELECT name, total_direct_kernel_time_sum, count, categories FROM ops_summary;
SELECT type, time_ms FROM gpu_timeline WHERE type IN ('computation_time', 'busy_time', 'total_time');
SELECT count(*) AS warnings FROM trace_warnings('serve');
-- the traces table still lists one trace, under its id and label
SELECT trace_id, label, events FROM traces;
