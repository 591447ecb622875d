-- The pseudo ops above aiter's flydsl MoE stages (docs/inference.md, Pseudo ops), on
-- tests/data/inference/pseudo/moe_flydsl.json (29 events). The values are what TraceLens's
-- inference report gives the same file:
--   - marker flydsl_moe_stage1 first: frames 5 and 16 (the same name, in start order)
--     get pseudo_op::moe_flydsl_stage1 29 and 30; frame 11 (another name ending with the
--     marker, no aiter::fused_moe_ above) and frame 14 (no parent at all) none; then
--     stage 2: frame 8 gets 31;
--   - each op stands between its frame and the frame's parent, with the frame's ts and
--     dur, the shapes of the aiter::fused_moe_ above and its Sequence number (else its
--     UID 1); the launch calls below the frame now have it as launcher;
--   - the MoE_unfused sheet models them (stage 1 up, stage 2 down, fp8 weights).
.mode list
.nullvalue NULL
SELECT trace_open('tests/data/inference/pseudo/moe_flydsl.json', 'fd') IS NOT NULL AS opened;
SELECT uid, name, tl_launcher_uid FROM kernels('fd') ORDER BY uid;
SELECT trace_inference_prepare('fd') AS prepared;
SELECT uid, name, pid, tid, ts, dur, parent_uid, depth, tl_root, seq, args FROM events('fd') WHERE uid >= 29 ORDER BY uid;
SELECT e.parent_uid AS pseudo, e.child_uid, c.name, c.parent_uid FROM tree_edges('fd') e
JOIN events('fd') c ON c.uid = e.child_uid WHERE e.parent_uid >= 29 ORDER BY e.parent_uid, e.child_uid;
SELECT e.parent_uid, e.child_uid FROM tree_edges('fd') e WHERE e.child_uid >= 29 ORDER BY e.child_uid;
SELECT uid, name, tl_launcher_uid, op_uid, root_op_uid FROM kernels('fd') ORDER BY uid;
SELECT uid, inference_call_stack('fd', uid) AS stack FROM events('fd') WHERE uid IN (6, 9, 29, 31) ORDER BY uid;
SELECT name, "Count", total_direct_kernel_time_sum, total_subtree_kernel_time_sum FROM inference_report_ops_summary
WHERE trace_id = 1;
SELECT name, op_category, ex_uid, operation_count, total_duration_us, gflops, data_moved_mb, compute_spec,
       kernel_time_us_sum, has_perf_model
FROM unified_perf_summary WHERE trace_id = 1;
SELECT uid, name, gflops, data_moved_mb, flops, bytes, params FROM inference_perf_ops WHERE trace_id = 1 ORDER BY row;
