-- Layers from nn.Module blocks and the per-trace cache of the classified events, on the
-- hand-made tests/data/compare/modules.json (tests/data/compare/make_module_trace.py:
-- kernels k1..k13, durations 3, 20, 40, 21, 22, 4, 5, 23, 30, 24, 25, 2, 35 µs).
SELECT trace_open('tests/data/compare/modules.json', 'm') AS m,
       trace_open('tests/sql/compare/sglang_like.json', 's') AS s;
-- k2..k4 in layers 0, 0, 1 of pass 1; k8..k11 in layers 0, 0, 1, 1 of pass 2
SELECT uid, op, phase, step, layer, pass FROM gpu_ops('m');
-- per layer over both passes: layer 0 = k2 20 + k3 40 + k8 23 + k9 30 = 113 µs;
-- layer 1 = k4 21 + k10 24 + k11 25 = 70 µs. Compared with itself: similar, ratio 1.
SELECT layer, baseline_kernels, variant_kernels, baseline_total_ms, variant_total_ms, ratio, gap_ms,
       status, in_both FROM compare_layers('m', 'm');
-- totals: 254 µs over 13 events; GEMM k2 k4 k5 k8 k10 k11 = 135 µs over 6
SELECT operation, baseline_count, baseline_total_ms, ratio, status FROM compare_ops('m', 'm');
-- phases: prefill k1 k2 k3 k4 k13 = 119 µs; decode k8 k9 = 53; mixed k10 k11 k12 = 51
SELECT side, phase_filter, gpu_events, total_ms, layers, forward_passes, prefill_ms, decode_ms,
       mixed_ms, no_phase_ms FROM compare_metadata('m', 's');
SELECT operation, baseline_count, variant_count, baseline_total_ms FROM compare_ops('m', 's', 'decode');
-- a rule the user adds applies to the next call: GEMM kernels of aten::mm become Other
-- (k2 k4 k5 k8 k10 k11; k4 has no CPU op around its launch, so it stays GEMM)
INSERT INTO kernel_op_rules(priority, pattern, cpu_op, label, comment)
VALUES (0, 'sm90_xmma_gemm*', 'aten::mm', 'Other', 'test: a user rule first');
SELECT operation, baseline_count, baseline_total_ms FROM compare_ops('m', 'm') WHERE operation IN ('GEMM', 'Other');
DELETE FROM kernel_op_rules WHERE priority = 0;
SELECT operation, baseline_count, baseline_total_ms FROM compare_ops('m', 'm') WHERE operation IN ('GEMM', 'Other');
-- outside a call the tables of the running call are empty
SELECT count(*) AS events FROM compare_events;
SELECT count(*) AS groups FROM compare_event_groups;
-- a closed trace is an error naming it (last: the shell stops at the first error)
SELECT trace_close('s');
SELECT count(*) AS rows FROM compare_ops('m', 'm');
SELECT count(*) FROM compare_ops('m', 's');
