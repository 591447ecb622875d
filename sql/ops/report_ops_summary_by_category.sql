-- module: ops.report_ops_summary_by_category
-- requires: ops.ops_summary_by_category

-- ops_summary_by_category_cells: TraceLens's ops_summary_by_category.csv of each report
-- (ops_summary_by_category_keyed.report), cell text as TraceLens writes it; trace_id,
-- report and rank (row order) first; parent_module and call_stack_first NULL in 'perf'.
-- report_ops_summary_by_category: the perf report's sheet;
-- inference_report_ops_summary_by_category (sql/inference/) the inference report's.
CREATE TEMP VIEW IF NOT EXISTS ops_summary_by_category_cells AS
SELECT trace_id, report, rank,
       op_category AS "op category",
       parent_module,
       count AS "Count",
       py_repr(call_stack_first) AS call_stack_first,
       py_float(total_direct_kernel_time_ms) AS total_direct_kernel_time_ms,
       py_float(percentage) AS "Percentage (%)",
       py_float(cumulative_percentage) AS "Cumulative Percentage (%)"
FROM ops_summary_by_category_keyed
ORDER BY trace_id, report, rank;

CREATE TEMP VIEW IF NOT EXISTS report_ops_summary_by_category AS
SELECT trace_id, "op category", "Count", total_direct_kernel_time_ms, "Percentage (%)", "Cumulative Percentage (%)"
FROM ops_summary_by_category_cells WHERE report = 'perf' ORDER BY trace_id, rank;
