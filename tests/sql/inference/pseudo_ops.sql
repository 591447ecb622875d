-- The inference report's pseudo ops applied to the tree (docs/inference.md, Pseudo ops), on
-- tests/data/inference/pseudo/moe_triton.json (29 events; GPT-OSS Triton MoE: two
-- matmul_ogs kernels and one matmul_scatter kernel below vllm::moe_forward). The values are
-- what TraceLens's inference report writes for it: three cpu_ops appended with UIDs 29-31,
-- no ts or dur, the planned args; each lists its launch call while the launch keeps its
-- parent; in unified_perf_summary their rows have total_duration_us 0.0 and no
-- mean/std/median/min/max, the two GEMMs a model, the scatter none; the call stack of a
-- pseudo op runs through it to its kernel.
.mode list
.nullvalue NULL
SELECT trace_open('tests/data/inference/pseudo/moe_triton.json', 'mt') IS NOT NULL AS opened;
SELECT count(*) AS events_before FROM events('mt');
SELECT trace_inference_prepare('mt') AS prepared;
SELECT uid, name, kind, ts, dur, parent_uid, external_id, seq, args FROM events('mt') WHERE uid >= 29 ORDER BY uid;
-- the launch calls keep their parents (upward unchanged); the pseudo ops list them (downward)
SELECT p.uid AS pseudo, e.child_uid AS lists, l.parent_uid AS launch_parent, l.name AS launch
FROM events('mt') p JOIN tree_edges('mt') e ON e.parent_uid = p.uid JOIN events('mt') l ON l.uid = e.child_uid
WHERE p.uid >= 29 ORDER BY p.uid;
SELECT name, op_category, ex_uid, operation_count, total_duration_us, mean_duration_us, std_duration_us,
       duration_us_median, duration_us_min, duration_us_max, gflops, data_moved_mb, compute_spec,
       kernel_time_us_sum, has_perf_model
FROM unified_perf_summary WHERE trace_id = 1;
SELECT uid, inference_call_stack('mt', uid) AS stack FROM unified_ops('mt') WHERE uid >= 29 ORDER BY uid;
-- the plan is skipped on a trace with a paged-attention op: nothing appended
SELECT trace_open('tests/data/inference/pseudo/moe_triton_paged.json', 'pg') IS NOT NULL AS opened;
SELECT count(*) AS before FROM events('pg');
SELECT trace_inference_prepare('pg') AS prepared;
SELECT count(*) AS after, count(*) FILTER (WHERE name LIKE 'pseudo_op::%') AS pseudo FROM events('pg');
