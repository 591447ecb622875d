-- module: inference.inference_report_ops_summary_by_category
-- requires: ops.report_ops_summary_by_category

CREATE TEMP VIEW IF NOT EXISTS inference_report_ops_summary_by_category AS
SELECT trace_id, "op category", parent_module, "Count", call_stack_first, total_direct_kernel_time_ms,
       "Percentage (%)", "Cumulative Percentage (%)"
FROM ops_summary_by_category_cells WHERE report = 'inference' ORDER BY trace_id, rank;
