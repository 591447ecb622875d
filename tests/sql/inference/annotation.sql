-- Attention ops read the per-step statistics of the iteration annotation that encloses
-- them (first by ts, strict end test): tests/data/inference/vllm_attention.json has two
-- ops in a detailed vLLM step, one outside every annotation, one in a step without
-- query tokens, one ending exactly with a detailed step inside a profiler step.
SELECT trace_open('tests/data/inference/vllm_attention.json', 'att') IS NOT NULL AS opened;
-- the perf sheets: only the two ops of the detailed step are vLLM attention rows
SELECT sheet, name, params, gflops_first, data_moved_mb_first, compute_spec, kernel_time_us_sum, name_count, uid_first
FROM perf_sheet_summary ORDER BY sheet, name;
-- unified rows: the NA and profiler-step ops keep a row without metrics; the step
-- without query tokens has none
SELECT uid, name, has_perf_model, gflops IS NOT NULL AS has_metrics, kernel_time_us
FROM unified_ops('att') WHERE name LIKE 'vllm::%' ORDER BY uid;
