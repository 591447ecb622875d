-- Whole-µs traces (docs/report.md, "Whole-µs traces"): when every GPU event's duration is a whole
-- number of µs (JSON integers, as older Kineto writes them), pandas holds TraceLens's
-- kernel durations as integers, so ops_summary prints its direct/subtree sums and
-- ops_unique_args its sums, minima and maxima without ".0"; means and medians stay
-- floats; the perf-model sheets' Kernel Time _min, _max and _sum likewise.
-- tests/data/inference/pseudo/moe_triton.json has only 10 µs kernels; the rows
-- are what TraceLens's perf report and inference report write for it. A trace with a
-- fractional duration keeps the floats (the conformance traces).
.mode csv
.headers on
SELECT trace_open('tests/data/inference/pseudo/moe_triton.json', 'w') IS NOT NULL AS opened;
SELECT whole_us FROM traces WHERE label = 'w';
SELECT name, total_direct_kernel_time_sum, total_subtree_kernel_time_sum, total_direct_kernel_time_ms
FROM report_ops_summary WHERE trace_id = (SELECT trace_id FROM traces WHERE label = 'w');
SELECT name, total_direct_kernel_time_mean, total_direct_kernel_time_median, total_direct_kernel_time_min,
       total_subtree_kernel_time_max, total_direct_kernel_time_sum, total_subtree_kernel_time_sum
FROM report_ops_unique_args WHERE trace_id = (SELECT trace_id FROM traces WHERE label = 'w');
-- the perf-model sheets: Kernel Time's _min, _max and _sum print as integers too
-- (TraceLens's GEMM.csv for this trace ends "10.0,10.0,,10,10,10")
SELECT sheet, name, kernel_time_int, kernel_time_us_sum FROM perf_sheet_summary
WHERE trace_id = (SELECT trace_id FROM traces WHERE label = 'w') ORDER BY sheet, name;
SELECT trace_open('examples/demo_trace.json.gz', 'demo') IS NOT NULL AS opened;
SELECT label, whole_us FROM traces ORDER BY trace_id;
SELECT name, total_direct_kernel_time_sum FROM report_ops_summary
WHERE trace_id = (SELECT trace_id FROM traces WHERE label = 'demo') LIMIT 2;
