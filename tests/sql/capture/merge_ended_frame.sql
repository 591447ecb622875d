-- The call stacks of a merged trace place each copied call under its parent in the
-- capture tree with Python frames. In this capture, aten::add calls a Python frame
-- jit/utils.py(53): wrapper that ends (at 206) before aten::add's hipLaunchKernel starts
-- (at 210): the launch hangs under aten::add, not under the ended frame, although after
-- the merge every copy carries the graph launch's times. TraceLens's inference report of
-- the same files (replay.json + cap_ended as capture_traces/) gives add_k the
-- call_stack_full ['vllm/worker.py(50): execute_model', 'aten::add', 'add_k'].
SELECT trace_open('tests/data/inference/merge/replay.json', 'serve') AS id;
SELECT trace_merge_capture('serve', 'tests/data/inference/merge/cap_ended') AS same_id;
SELECT trace_inference_prepare('serve') AS prepared;
-- the copied launch of add_k and the ended frame: both children of aten::add
SELECT e.name, inference_call_stack('serve', e.uid) AS stack
FROM events('serve') e WHERE e.uid >= 11 AND e.kind IN ('python_function', 'cuda_runtime', 'cpu_op') ORDER BY e.uid;
SELECT k.name, inference_kernel_stack('serve', k.op_uid, k.uid) AS kernel_stack
FROM kernels('serve') k WHERE k.name IN ('gemm_k', 'add_k') ORDER BY k.uid;
SELECT u.name, s.call_stack_full, s.entry_point
FROM inference_report_unified_perf_summary u JOIN inference_unified_stacks s ON s.ex_uid = u."ex_UID" AND s.trace_id = u.trace_id
ORDER BY u."ex_UID";
