-- The whole-µs rule of the inference report's unified_perf_summary (docs/report.md,
-- "Whole-µs traces"; tests/sql/perf/whole_us_unified.sql for the standard report and the
-- traces). A pseudo op has no duration: its NaN makes the frame's durations floats, so
-- only nomoe (no pseudo op) prints integer durations. The rows are TraceLens's inference
-- report for each trace.
.mode csv
.headers on
SELECT trace_open('tests/data/inference/pseudo/moe_triton.json', 'moe_triton') IS NOT NULL AS opened;
SELECT trace_inference_prepare('moe_triton') AS prepared;
SELECT trace_open('tests/data/inference/whole_us/ts_frac.json', 'ts_frac') IS NOT NULL AS opened;
SELECT trace_inference_prepare('ts_frac') AS prepared;
SELECT trace_open('tests/data/inference/whole_us/kdur_frac.json', 'kdur_frac') IS NOT NULL AS opened;
SELECT trace_inference_prepare('kdur_frac') AS prepared;
SELECT trace_open('tests/data/inference/whole_us/cpu_frac.json', 'cpu_frac') IS NOT NULL AS opened;
SELECT trace_inference_prepare('cpu_frac') AS prepared;
SELECT trace_open('tests/data/inference/whole_us/synthetic_frac.json', 'synthetic_frac') IS NOT NULL AS opened;
SELECT trace_inference_prepare('synthetic_frac') AS prepared;
SELECT trace_open('tests/data/inference/whole_us/nomoe.json', 'nomoe') IS NOT NULL AS opened;
SELECT trace_inference_prepare('nomoe') AS prepared;
SELECT trace_open('tests/data/inference/whole_us/nccl_frac.json', 'nccl_frac') IS NOT NULL AS opened;
SELECT trace_inference_prepare('nccl_frac') AS prepared;
SELECT t.label, r.name, r.total_duration_us, r.mean_duration_us, r.duration_us_median, r.duration_us_min, r.duration_us_max,
       r."Kernel Time (µs)_mean", r."Kernel Time (µs)_median", r."Kernel Time (µs)_std", r."Kernel Time (µs)_sum",
       r."Kernel Time (µs)_min", r."Kernel Time (µs)_max"
FROM inference_report_unified_perf_summary r JOIN traces t USING (trace_id)
ORDER BY t.trace_id, CAST(r."Kernel Time (µs)_sum" AS REAL) DESC, r."ex_UID";
