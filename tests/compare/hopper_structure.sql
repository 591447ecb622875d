-- Forward passes, phases and layers from the structure of the H100 traces of
-- ../shared/conformance/hopper (docs/compare.md).
-- Llama generate(): LlamaForCausalLM runs 8 times; the first pass (query length 256) is
-- prefill, the 7 others (length 1) decode; 4 LlamaDecoderLayer layers; phases from shapes.
SELECT side, gpu_events, total_ms, layers, forward_passes, prefill_ms, decode_ms, no_phase_ms, phases_from
FROM compare_metadata('../shared/conformance/hopper/llama_generate.json.gz',
                      '../shared/conformance/hopper/llama_generate.json.gz');
-- prefill holds exactly the GPU work launched before the second pass starts (the first
-- pass, the setup before it and the sampling after it), decode the rest: counted here
-- from kernels and events directly, then by compare_ops
SELECT trace_open('../shared/conformance/hopper/llama_generate.json.gz', 'llama') > 0 AS opened;
WITH second AS (SELECT ts FROM events('llama') WHERE name = 'nn.Module: LlamaForCausalLM_0'
                ORDER BY ts LIMIT 1 OFFSET 1)
SELECT sum(coalesce(l.ts, k.ts) < second.ts) AS prefill_events, sum(coalesce(l.ts, k.ts) >= second.ts) AS decode_events,
       sum(CASE WHEN coalesce(l.ts, k.ts) < second.ts THEN k.dur_ns END) AS prefill_ns,
       sum(CASE WHEN coalesce(l.ts, k.ts) >= second.ts THEN k.dur_ns END) AS decode_ns
FROM kernels('llama') k LEFT JOIN events('llama') l ON l.uid = k.launcher_uid, second;
SELECT sum(baseline_count) AS prefill_events, round(sum(baseline_total_ms), 6) AS prefill_ms
FROM compare_ops('llama', 'llama', 'prefill');
SELECT sum(baseline_count) AS decode_events, round(sum(baseline_total_ms), 6) AS decode_ms
FROM compare_ops('llama', 'llama', 'decode');
SELECT layer, baseline_kernels, status FROM compare_layers('llama', 'llama', 'decode');
-- GPT-2 eager (GPT2Block modules) and compiled (kernel patterns: backward kernels and the
-- LM head and loss after the final norm are in no layer): 4 forward layers each, 2 passes
-- (steps), no inference phase (a training step); layers comparable one to one
SELECT side, layers, forward_passes, prefill_ms, decode_ms, phases_from
FROM compare_metadata('../shared/conformance/hopper/gpt2_eager.json.gz',
                      '../shared/conformance/hopper/gpt2_compiled.json.gz');
SELECT layer, baseline_kernels, variant_kernels, in_both
FROM compare_layers('../shared/conformance/hopper/gpt2_eager.json.gz',
                    '../shared/conformance/hopper/gpt2_compiled.json.gz') ORDER BY layer;
-- without Python stacks the kernel patterns find the same 4 layers of the compiled trace
-- and the CUDA-graph replay
SELECT side, layers, forward_passes
FROM compare_metadata('../shared/conformance/hopper/gpt2_cudagraph.json.gz',
                      '../shared/conformance/hopper/gpt2_compiled.json.gz');
