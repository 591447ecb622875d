-- module: inference.inference_report_ops_summary
-- requires: ops.report_ops_summary

-- inference_report_ops_summary, inference_report_ops_summary_by_category,
-- inference_report_ops_unique_args: the launcher sheets of TraceLens's inference report
-- as it writes them (column names, order and cell text; docs/inference.md); trace_id
-- first: the 'inference' rows of the perf report's cell views (ops_summary_cells, ...:
-- sql/ops/report_ops_*.sql) with the inference report's columns. They are not named
-- report_*: the standard report (perf_report_files) does not write them.
CREATE TEMP VIEW IF NOT EXISTS inference_report_ops_summary AS
SELECT trace_id, name, parent_module, total_direct_kernel_time_sum, total_subtree_kernel_time_sum,
       total_subtree_kernel_time_count, total_direct_kernel_time_ms, "Count", "Categories", call_stack_first,
       "Percentage (%)", "Cumulative Percentage (%)"
FROM ops_summary_cells WHERE report = 'inference' ORDER BY trace_id, rank;
