-- Serving traces of ../shared/conformance/tracelens/inference without Python stacks
-- (docs/compare.md): SGLang's Qwen3-8B decode step (phases from its step[DECODE]
-- marker; 36 pattern layers in one pass, each from its input norm although q and k norms
-- run between it and the attention) and vLLM's CUDA-graph decode (24 layers).
SELECT side, gpu_events, layers, forward_passes, decode_ms, no_phase_ms, phases_from
FROM compare_metadata('../shared/conformance/tracelens/inference/sglang_decode/sglang_Qwen3-8B_decode.json.gz',
                      '../shared/conformance/tracelens/inference/vllm_decode_full/graph_execution.json.gz');
SELECT layer, baseline_kernels, variant_kernels FROM compare_layers(
    '../shared/conformance/tracelens/inference/sglang_decode/sglang_Qwen3-8B_decode.json.gz',
    '../shared/conformance/tracelens/inference/vllm_decode_full/graph_execution.json.gz')
WHERE layer IN (0, 1, 23, 35) ORDER BY layer;
