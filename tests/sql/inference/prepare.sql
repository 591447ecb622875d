-- trace_inference_prepare: the inference report's changes to a trace
-- (tests/data/inference/sglang_names.json; the values are what TraceLens's inference
-- report writes for it). sglang_profiler::<op>_<n> loses its last _<n> when the name's
-- first event is a cpu_op: not sglang_profiler::helper_3 (first a Python frame) nor
-- sglang_profiler::_7 (nothing before the suffix); sglang_profiler::fused_1_2 keeps _1.
-- The paged attention ops then read their step annotation (the inference rule): two in
-- the detailed step get metrics, the one ending with the step (strict end test) none.
.mode list
.nullvalue NULL
SELECT trace_open('tests/data/inference/sglang_names.json', 'sg') IS NOT NULL AS opened;
SELECT trace_inference_prepare('sg') AS prepared;
-- a second call does nothing
SELECT trace_inference_prepare('sg') AS again;
SELECT name, count(*) AS events FROM events('sg') WHERE name LIKE 'sglang_profiler::%' GROUP BY name ORDER BY name;
SELECT name, parent_module, "Count", "Categories" FROM inference_report_ops_summary;
SELECT sheet, name, json_extract(params, '$.g_sk') AS g_sk, gflops_first, data_moved_mb_first, name_count, uid_first
FROM inference_perf_sheet_summary;
SELECT uid, name, has_perf_model, gflops IS NOT NULL AS has_metrics FROM unified_ops('sg') ORDER BY uid;
-- after the trace was analysed it cannot be prepared: a second trace shows the error
SELECT trace_open('tests/data/inference/report_stacks.json', 'st') IS NOT NULL AS opened;
SELECT count(*) > 0 AS analysed FROM kernel_launchers('st');
SELECT trace_inference_prepare('st');
