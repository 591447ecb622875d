-- The whole-µs rule of unified_perf_summary (docs/report.md, "Whole-µs traces"): in
-- TraceLens's frame a column is int64 only when every row holds an int, so
--   total_duration_us, duration_us_min/_max   integers when every row's CPU duration is
--                                             whole µs (synthetic rows: their parent's)
--   Kernel Time (µs)_sum/_min/_max            integers when every row's GPU events have
--                                             whole-µs ts and dur (their busy time is an int)
-- means, medians and std stay floats. Traces: tests/data/inference/pseudo/moe_triton.json
-- (every time whole) and its variants in tests/data/inference/whole_us/: ts_frac (kernel ts
-- +0.5 µs), kdur_frac (one kernel 10.5 µs), cpu_frac (a collected op 100.5 µs),
-- synthetic_frac (a synthetic row whose runtime call lasts 5.5 µs), nomoe (no pseudo ops
-- in the inference report), nccl_frac (a 10.5 µs NCCL kernel, outside the frame). The
-- rows are TraceLens's perf report for each (unified_perf_summary.csv).
.mode csv
.headers on
SELECT trace_open('tests/data/inference/pseudo/moe_triton.json', 'moe_triton') IS NOT NULL AS opened;
SELECT trace_open('tests/data/inference/whole_us/ts_frac.json', 'ts_frac') IS NOT NULL AS opened;
SELECT trace_open('tests/data/inference/whole_us/kdur_frac.json', 'kdur_frac') IS NOT NULL AS opened;
SELECT trace_open('tests/data/inference/whole_us/cpu_frac.json', 'cpu_frac') IS NOT NULL AS opened;
SELECT trace_open('tests/data/inference/whole_us/synthetic_frac.json', 'synthetic_frac') IS NOT NULL AS opened;
SELECT trace_open('tests/data/inference/whole_us/nomoe.json', 'nomoe') IS NOT NULL AS opened;
SELECT trace_open('tests/data/inference/whole_us/nccl_frac.json', 'nccl_frac') IS NOT NULL AS opened;
SELECT t.label, r.name, r.total_duration_us, r.mean_duration_us, r.duration_us_median, r.duration_us_min, r.duration_us_max,
       r."Kernel Time (µs)_mean", r."Kernel Time (µs)_median", r."Kernel Time (µs)_std", r."Kernel Time (µs)_sum",
       r."Kernel Time (µs)_min", r."Kernel Time (µs)_max"
FROM report_unified_perf_summary r JOIN traces t USING (trace_id)
ORDER BY t.trace_id, CAST(r."Kernel Time (µs)_sum" AS REAL) DESC, r."ex_UID";
