-- The wrapping pseudo ops of DeepSeek V4 paged decode (docs/inference.md, Pseudo ops), on
-- tests/data/inference/pseudo/v4_decode.json (45 events), with TL_MODEL and TL_TP unset
-- (v4_model_name null, v4_tp 1). The values are what TraceLens's inference report gives
-- the same file:
--   - the frames "paged_decode.py(<n>): sparse_attn_v4_paged_decode" are taken by
--     (pid, tid, ts): 5, 11, 20 (no aiter::v4_attention_with_output above: none), 24 (no
--     GPU work: none) on thread 1, then 17 on thread 2 (call index 4); frame 26's name
--     runs on past the pattern: no match;
--   - the mode comes from the kernels of the attention op: 45 swa (and H_Q, d_h from
--     qk_norm_rope_H64_D512_RD64), 46 hca (hca_compress_forward...), 47 csa
--     (_update_compressor_states_kernel);
--   - the shapes and Sequence number are the attention op's (else the frame's UID).
.mode list
.nullvalue NULL
SELECT trace_open('tests/data/inference/pseudo/v4_decode.json', 'v4') IS NOT NULL AS opened;
SELECT trace_inference_prepare('v4') AS prepared;
SELECT uid, name, pid, tid, ts, dur, parent_uid, seq, args FROM events('v4') WHERE uid >= 45 ORDER BY uid;
SELECT e.parent_uid AS pseudo, e.child_uid, c.name, c.parent_uid FROM tree_edges('v4') e
JOIN events('v4') c ON c.uid = e.child_uid WHERE e.parent_uid >= 45 ORDER BY e.parent_uid, e.child_uid;
SELECT uid, name, tl_launcher_uid FROM kernels('v4') ORDER BY uid;
SELECT uid, inference_call_stack('v4', uid) AS stack FROM events('v4') WHERE uid IN (6, 45) ORDER BY uid;
SELECT name, "Count", total_direct_kernel_time_sum, total_subtree_kernel_time_sum FROM inference_report_ops_summary
WHERE trace_id = 1;
SELECT name, op_category, ex_uid, operation_count, gflops, data_moved_mb, kernel_time_us_sum, has_perf_model
FROM unified_perf_summary WHERE trace_id = 1;
SELECT uid, name, gflops, data_moved_mb, params FROM inference_perf_ops WHERE trace_id = 1 ORDER BY row;
