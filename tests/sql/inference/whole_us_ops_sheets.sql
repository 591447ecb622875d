-- The whole-µs rule in the inference report's launcher sheets (docs/report.md, "Cell
-- text"; tests/sql/kernel_views/whole_us_ops_sheets.sql for the standard report): sums,
-- minima and maxima of a trace whose GPU durations are all whole µs print as integers.
-- tests/data/inference/pseudo/moe_triton.json (10 µs kernels); the rows are what
-- TraceLens's inference report writes for it.
.mode csv
.headers on
SELECT trace_open('tests/data/inference/pseudo/moe_triton.json', 'w') IS NOT NULL AS opened;
SELECT trace_inference_prepare('w') AS prepared;
SELECT name, parent_module, total_direct_kernel_time_sum, total_subtree_kernel_time_sum
FROM inference_report_ops_summary WHERE trace_id = (SELECT trace_id FROM traces WHERE label = 'w');
SELECT name, total_direct_kernel_time_mean, total_direct_kernel_time_min, total_direct_kernel_time_sum
FROM inference_report_ops_unique_args WHERE trace_id = (SELECT trace_id FROM traces WHERE label = 'w');
