-- The wrapping pseudo ops of MLA decode and prefill (docs/inference.md, Pseudo ops), on
-- tests/data/inference/pseudo/mla.json (43 events). The values are what TraceLens's
-- inference report gives the same file (its tree after the insertions, and its sheets):
--   - decode frames "aiter/mla.py(300): mla_decode_fwd" 2 (no op above) and 10 (below
--     vllm::unified_attention_with_output) get pseudo_mla_decode_fwd 43 and 44, with the
--     shapes of their aiter::mla_decode_stage1_asm_fwd and its Sequence number (else the
--     frame's UID 10); frame 16 (no GPU work) and frame 18 (no stage-1 op) get none;
--   - the prefill frame 21 gets pseudo_mla_prefill_fwd 45; frame 25, whose name runs on
--     past "mla_fp8_prefill_attn", is no match;
--   - each op takes the frame's ts and dur and its children: the ops and launch calls
--     below it now have the pseudo op as parent, and a launch call right below the
--     frame (kn_mla_reduce_v1) has it as launcher;
--   - the op below the modelled vllm::unified_attention_with_output (44, with shapes of
--     its own) is counted with it, as TraceLens does (it lists the op among its root
--     ops), and its unified call stack starts with it (TraceLens reaches it from that
--     list, not from above).
.mode list
.nullvalue NULL
SELECT trace_open('tests/data/inference/pseudo/mla.json', 'mla') IS NOT NULL AS opened;
SELECT uid, name, tl_launcher_uid FROM kernels('mla') ORDER BY uid;
SELECT trace_inference_prepare('mla') AS prepared;
SELECT uid, name, kind, pid, tid, ts, dur, parent_uid, depth, tl_root, seq, external_id, args
FROM events('mla') WHERE uid >= 43 ORDER BY uid;
-- the children they took, and where those now are
SELECT e.parent_uid AS pseudo, e.child_uid, c.name, c.parent_uid, c.depth, c.tl_root
FROM tree_edges('mla') e JOIN events('mla') c ON c.uid = e.child_uid WHERE e.parent_uid >= 43
ORDER BY e.parent_uid, e.child_uid;
-- launchers: the launch calls right below a frame now have the pseudo op
SELECT uid, name, tl_launcher_uid, op_uid, root_op_uid FROM kernels('mla') ORDER BY uid;
-- call stacks through the pseudo ops, in the tree with Python frames
SELECT uid, inference_call_stack('mla', uid) AS stack FROM events('mla') WHERE uid IN (3, 6, 11, 14, 22, 43, 44, 45) ORDER BY uid;
SELECT name, "Count", total_direct_kernel_time_sum, total_subtree_kernel_time_sum, call_stack_first
FROM inference_report_ops_summary WHERE trace_id = 1;
SELECT name, op_category, ex_uid, operation_count, total_duration_us, gflops, data_moved_mb, compute_spec,
       kernel_time_us_sum, has_perf_model
FROM unified_perf_summary WHERE trace_id = 1;
SELECT uid, name, num_kernels, gflops, data_moved_mb, flops, bytes FROM inference_perf_ops WHERE trace_id = 1 ORDER BY row;
SELECT ex_uid, call_stack_full, entry_point FROM inference_unified_stacks WHERE trace_id = 1 ORDER BY ex_uid;
