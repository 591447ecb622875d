-- Qwen1.5-0.5B-Chat, the same forward pass on H100 (baseline) and MI300X (variant).
-- Hand-derived from the traces (SELECT kind, count(*), sum(dur) FROM kernels(...)):
--   H100: 1707 GPU events (1465 kernels, 241 memsets, 1 memcpy), Σ dur 45647.300 µs;
--   MI300X: 1517 GPU events (1516 kernels, 1 memcpy), Σ dur 43062.802 µs;
--   both have 24 Qwen2DecoderLayer modules under one Qwen2Model (one forward pass);
--   neither has phase markers nor decode / prefill attention kernels.
SELECT trace_open('../shared/conformance/tracelens/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz', 'h100') AS b,
       trace_open('../shared/conformance/tracelens/mi300/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz', 'mi300') AS v;
-- conservation: every GPU event in exactly one row
SELECT sum(baseline_count) AS b_events, sum(variant_count) AS v_events,
       round(sum(baseline_total_ms), 6) AS b_ms, round(sum(variant_total_ms), 6) AS v_ms,
       (SELECT round(sum(dur) / 1000.0, 6) FROM kernels('h100')) AS b_gpu_ms,
       (SELECT round(sum(dur) / 1000.0, 6) FROM kernels('mi300')) AS v_gpu_ms
FROM compare_ops('h100', 'mi300');
-- the rows; statuses against ±5 ms: Elementwise gap 8.145 ms → slower; GEMM −4.094 → similar
SELECT operation, baseline_count, variant_count, round(baseline_avg_us, 3) AS b_avg_us,
       round(variant_avg_us, 3) AS v_avg_us, round(baseline_total_ms, 3) AS b_ms,
       round(variant_total_ms, 3) AS v_ms, round(ratio, 4) AS ratio, round(avg_ratio, 4) AS avg_ratio,
       round(gap_ms, 3) AS gap_ms, status, substr(baseline_kernel, 1, 40) AS b_kernel,
       substr(variant_kernel, 1, 40) AS v_kernel, baseline_cpu_op, variant_cpu_op, phases, note
FROM compare_ops('h100', 'mi300');
-- a lower threshold turns GEMM (variant slower by 4.094 ms) into faster
UPDATE compare_params SET value = 1.0 WHERE name = 'op_gap_ms';
SELECT operation, status FROM compare_ops('h100', 'mi300') WHERE operation IN ('GEMM', 'Attention');
UPDATE compare_params SET value = 5.0 WHERE name = 'op_gap_ms';
-- 24 layers, each in both traces
SELECT count(*) AS layers, min(layer) AS first, max(layer) AS last, sum(in_both) AS in_both,
       sum(baseline_kernels) AS b_kernels, sum(variant_kernels) AS v_kernels
FROM compare_layers('h100', 'mi300');
SELECT layer, baseline_kernels, variant_kernels, round(baseline_total_ms, 4) AS b_ms,
       round(variant_total_ms, 4) AS v_ms, round(ratio, 4) AS ratio, round(gap_ms, 4) AS gap_ms, status
FROM compare_layers('h100', 'mi300') LIMIT 3;
-- with 1.05× and 0.05 ms, layer 0 (1.125×, +0.147 ms) is slower
UPDATE compare_params SET value = 1.05 WHERE name = 'layer_ratio';
UPDATE compare_params SET value = 0.05 WHERE name = 'layer_gap_ms';
SELECT layer, status FROM compare_layers('h100', 'mi300') WHERE layer IN (0, 2);
-- per trace: layers and passes
SELECT count(DISTINCT layer) AS layers, count(DISTINCT pass) AS passes, count(*) AS events,
       sum(layer IS NULL) AS outside_layers FROM gpu_ops('h100');
-- a phase neither trace has is an error naming the phases each has
SELECT * FROM compare_ops('h100', 'mi300', 'decode');
