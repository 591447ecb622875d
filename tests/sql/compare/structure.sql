-- Forward passes, phases and layers from the trace's own structure (docs/compare.md), on
-- the hand-made traces of tests/data/compare/make_structure_traces.py.
SELECT trace_open('tests/data/compare/generate.json', 'gen') AS g,
       trace_open('tests/data/compare/markers.json', 'mk') AS m,
       trace_open('tests/data/compare/towers.json', 'tw') AS t,
       trace_open('tests/data/compare/no_stacks.json', 'ns') AS n,
       trace_open('tests/data/compare/huge.json', 'huge') AS h,
       trace_open('tests/data/compare/qk_norms.json', 'qk') AS q,
       trace_open('tests/data/compare/varlen.json', 'vl') AS v;
-- generate(): Model_0 runs 4 times. Pass 1 (query length 8) is prefill with the setup
-- kernel before it and the sampling after it; passes 2-3 (length 1) decode; pass 4 runs
-- no attention: no phase. Layers 0 and 1 in every pass.
SELECT pass, phase, count(DISTINCT layer) AS layers, count(*) AS events, sum(dur) AS us
FROM gpu_ops('gen') GROUP BY pass, phase ORDER BY pass;
-- prefill = pass 1 (setup 1 + embedding 2 + 2 layers * (20 + 10 + 30) + sampling 3 =
-- 126 µs), decode = passes 2-3 (2 * 125), no phase = pass 4 (105): 0.481 ms in all
SELECT side, phase_filter, gpu_events, total_ms, layers, forward_passes, prefill_ms, decode_ms, no_phase_ms,
       phases_from FROM compare_metadata('gen', 'gen');
SELECT operation, baseline_count, baseline_total_ms FROM compare_ops('gen', 'gen', 'prefill');
SELECT operation, baseline_count, baseline_total_ms FROM compare_ops('gen', 'gen', 'decode');
-- a marker that disagrees with the shapes: step[DECODE] over pass 1 makes it decode (the
-- setup kernel before the marker keeps the shapes' prefill)
SELECT pass, phase, count(*) AS events FROM gpu_ops('mk') GROUP BY pass, phase ORDER BY pass, phase;
SELECT side, prefill_ms, decode_ms, phases_from FROM compare_metadata('gen', 'mk');
-- per phase side by side: generate() (shapes) against the same loop under a marker
-- (pass 1 decode by the marker, its setup kernel prefill by the shapes)
SELECT * FROM compare_phases('gen', 'mk');
-- two towers of one encoder-layer class: 5 layers numbered along the pass, the head in none
SELECT layer, count(*) AS events, sum(dur) AS us FROM gpu_ops('tw') GROUP BY layer ORDER BY layer;
SELECT layer, baseline_kernels, status FROM compare_layers('tw', 'tw');
-- no Python stacks (no top module), RMSNorm unfused: 2 passes found from the repeating
-- layers, each layer from its norm's pow; the final norm and the LM head in no layer
SELECT pass, layer, phase, count(*) AS events, sum(dur) AS us FROM gpu_ops('ns') GROUP BY pass, layer, phase
ORDER BY pass, layer;
SELECT side, layers, forward_passes, prefill_ms, decode_ms, phases_from FROM compare_metadata('ns', 'tw');
-- Qwen3-like layers without stacks (q and k norms between the input norm and attention):
-- each layer's 8 kernels from its input norm (2+20+1+1+10+10+2+30 = 76 µs); the final norm
-- and the LM head of each pass outside (43 µs); 2 passes, prefill then decode
SELECT pass, layer, phase, count(*) AS events, sum(dur) AS us FROM gpu_ops('qk') GROUP BY pass, layer, phase
ORDER BY pass, layer;
-- variable-length batches: decode (every sequence 1 token), mixed (the counts prove
-- both), prefill; a pass whose calls have lengths 1 and 8: mixed
SELECT pass, phase, count(*) AS events FROM gpu_ops('vl') GROUP BY pass, phase ORDER BY pass;
-- huge durations: two kernels of 9e15 µs in one group; their sum in ns saturates at the
-- int64 maximum (9223372036854775807 ns) instead of wrapping to a negative total
SELECT operation, baseline_count, baseline_total_ms, baseline_total_ms > 0 AS positive
FROM compare_ops('huge', 'huge');
-- an unknown phase lists the valid ones; a phase in neither trace says how phases are found
SELECT count(*) FROM compare_ops('gen', 'tw', 'decoding');
