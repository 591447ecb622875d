-- Phases, pattern layers and fused-vs-separate matching on two hand-made traces
-- (tests/sql/compare/make_phase_traces.py writes them; durations in µs):
--   sglang_like: step[EXTEND] (prefill) then step[DECODE]; a layer is norm 4|2, GEMM 10|5,
--     attention 30|8, GEMM 6|3, norm 4|2, GEMM 20|10 (prefill|decode); 2 layers, then a
--     final norm 3 and the LM head GEMM 50. Prefill step 2×74+53 = 201, decode 2×30+53 = 113.
--   vllm_like: execute_..context_1..generation_0 (prefill), context_0/generation_1
--     (decode), context_1/generation_1 (mixed); a layer is norm 5|3, GEMM 12|6,
--     attention 40|10, GEMM 7|4, the post-attention norm fused with the next GEMM 25|12
--     (mixed = prefill + decode); prefill 2×89+53 = 231, decode 2×35+53 = 123,
--     mixed 2×124+53 = 301.
SELECT trace_open('tests/sql/compare/sglang_like.json', 'sglang') AS b,
       trace_open('tests/sql/compare/vllm_like.json', 'vllm') AS v;
-- per trace: phase, layers (final norm and LM head are outside them), passes
SELECT 'sglang' AS t, phase, count(*) AS events, sum(dur) AS us, count(DISTINCT layer) AS layers,
       count(DISTINCT pass) AS passes, sum(layer IS NULL) AS outside
FROM gpu_ops('sglang') GROUP BY phase;
SELECT 'vllm' AS t, phase, count(*) AS events, sum(dur) AS us, count(DISTINCT layer) AS layers,
       count(DISTINCT pass) AS passes, sum(layer IS NULL) AS outside
FROM gpu_ops('vllm') GROUP BY phase;
-- prefill: baseline RMSNorm 2×(4+4)+3 = 19 µs is compared with the variant's fused
-- RMSNorm+GEMM 2×25 = 50; the variant's own RMSNorm (2×5+3 = 13) has no partner
SELECT operation, baseline_count, variant_count, round(baseline_total_ms * 1000, 3) AS b_us,
       round(variant_total_ms * 1000, 3) AS v_us, round(gap_ms * 1000, 3) AS gap_us, status, phases, note
FROM compare_ops('sglang', 'vllm', 'prefill');
SELECT round(sum(baseline_total_ms) * 1000, 3) AS b_us, round(sum(variant_total_ms) * 1000, 3) AS v_us
FROM compare_ops('sglang', 'vllm', 'prefill');
SELECT round(sum(baseline_total_ms) * 1000, 3) AS b_us, round(sum(variant_total_ms) * 1000, 3) AS v_us
FROM compare_ops('sglang', 'vllm');
-- decode layers: baseline 30 µs per layer, variant 35
SELECT layer, baseline_kernels, variant_kernels, round(baseline_total_ms * 1000, 3) AS b_us,
       round(variant_total_ms * 1000, 3) AS v_us, status, in_both
FROM compare_layers('sglang', 'vllm', 'decode');
-- only the variant has a mixed step: fine; neither trace has it: the error names both
SELECT count(*) AS rows, sum(variant_count) AS v_events FROM compare_ops('sglang', 'vllm', 'mixed');
SELECT side, platform, gpu, phase_filter, gpu_events, round(total_ms * 1000, 3) AS us, layers,
       forward_passes, round(prefill_ms * 1000, 3) AS prefill_us, round(decode_ms * 1000, 3) AS decode_us,
       round(mixed_ms * 1000, 3) AS mixed_us, round(no_phase_ms * 1000, 3) AS none_us
FROM compare_metadata('sglang', 'vllm');
SELECT operation, fused_side, evidence, baseline_count, variant_count,
       round(separate_ms * 1000, 3) AS separate_us, round(fused_ms * 1000, 3) AS fused_us
FROM compare_fusion('sglang', 'vllm', 'prefill');
SELECT layer, position, operation, substr(baseline_kernel, 1, 30) AS b, substr(variant_kernel, 1, 30) AS v,
       baseline_total_us, variant_total_us, is_same_kernel, fusion_note
FROM compare_kernels('sglang', 'vllm', 'decode') WHERE layer = 0;
-- without Python events there are no stacks
SELECT count(*) AS stacks FROM compare_stacks('sglang', 'GEMM');
-- no arguments: no rows
SELECT count(*) AS rows FROM compare_ops;
-- a phase neither trace has: the error names the phases of each
SELECT * FROM compare_ops('sglang', 'sglang', 'mixed');
