-- The other pseudo-op rules applied (docs/inference.md, Pseudo ops), on
-- tests/data/inference/pseudo/moe_aiter.json (aiter fused MoE: one
-- pseudo_op::moe_aiter_fused_1stage for its fmoe kernel) and moe_gptq.json (GPTQ/AWQ: up
-- then down); the unified rows are what TraceLens's inference report writes for them.
.mode list
.nullvalue NULL
SELECT trace_open('tests/data/inference/pseudo/moe_aiter.json', 'ai') IS NOT NULL AS opened;
SELECT trace_inference_prepare('ai') AS prepared;
SELECT uid, name, kind, dur, parent_uid FROM events('ai') WHERE name LIKE 'pseudo_op::%' ORDER BY uid;
SELECT name, op_category, ex_uid, operation_count, total_duration_us, mean_duration_us, gflops, compute_spec,
       has_perf_model
FROM unified_perf_summary WHERE trace_id = 1;
SELECT trace_open('tests/data/inference/pseudo/moe_gptq.json', 'gq') IS NOT NULL AS opened;
SELECT trace_inference_prepare('gq') AS prepared;
SELECT uid, name, kind, dur, parent_uid FROM events('gq') WHERE name LIKE 'pseudo_op::%' ORDER BY uid;
SELECT name, op_category, ex_uid, operation_count, total_duration_us, mean_duration_us, gflops, compute_spec,
       has_perf_model
FROM unified_perf_summary WHERE trace_id = 2;
