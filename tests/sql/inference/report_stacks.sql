-- The inference report's call-stack columns on a hand-made trace
-- (tests/data/inference/report_stacks.json; every value below is what TraceLens's
-- inference report writes for it): Python frames nest with the ops by time; parent_module
-- is the second name of the launcher's call stack without "_<digits>" (Linear_3 and
-- Linear_4 are one module), a module name longer than 256 characters is cut to 256 + "..",
-- a bare launch is its own launcher ('NA' without a module above it); entry_point looks
-- inward first (myext::scale -> its launching frame), then outward past wrapper frames
-- (aten::mm -> torch/nn/modules/linear.py); synthetic rows have the kernel's name alone.
.mode list
.nullvalue NULL
SELECT trace_open('tests/data/inference/report_stacks.json', 'st') IS NOT NULL AS opened;
-- ops_summary
SELECT name, substr(parent_module, 1, 40), "Count", substr(call_stack_first, 1, 80), "Percentage (%)"
FROM inference_report_ops_summary;
-- ops_summary_by_category
SELECT "op category", substr(parent_module, 1, 40), "Count", total_direct_kernel_time_ms FROM inference_report_ops_summary_by_category;
-- the long module name: 256 characters and ..
SELECT length(json_extract(call_stack, '$[1]')), substr(json_extract(call_stack, '$[1]'), -4)
FROM inference_launchers WHERE name = 'aten::add';
-- ops_unique_args: one row per kernel count
SELECT name, num_kernels, operation_count, "ex_UID", call_stack FROM inference_report_ops_unique_args WHERE name = 'aten::mm';
-- unified_perf_summary
SELECT name, "ex_UID", entry_point, call_stack_full FROM inference_report_unified_perf_summary;
-- GEMM: num_kernels splits the rows
SELECT sheet, name, num_kernels, name_count, uid_first FROM inference_perf_sheet_summary ORDER BY sheet, uid_first;
-- the sheets the command writes
SELECT position, file FROM inference_report_files ORDER BY position, sheet;
