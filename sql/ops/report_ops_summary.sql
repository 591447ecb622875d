-- module: ops.report_ops_summary
-- requires: ops.ops_summary

-- ops_summary_cells: TraceLens's ops_summary.csv of each report (ops_summary_keyed.report),
-- cell text as TraceLens writes it; trace_id, report and rank (row order) first. The
-- inference report's columns (parent_module, call_stack_first) are NULL in 'perf'.
-- report_ops_summary: the perf report's sheet (its columns and order);
-- inference_report_ops_summary (sql/inference/) the inference report's. Native numbers:
-- the ops_summary table.
CREATE TEMP VIEW IF NOT EXISTS ops_summary_cells AS
SELECT trace_id, report, rank,
       name,
       parent_module,
       iif(w.whole_us, CAST(total_direct_kernel_time_sum AS INTEGER), py_float(total_direct_kernel_time_sum)) AS total_direct_kernel_time_sum,
       iif(w.whole_us, CAST(total_subtree_kernel_time_sum AS INTEGER), py_float(total_subtree_kernel_time_sum)) AS total_subtree_kernel_time_sum,
       count AS total_subtree_kernel_time_count,
       py_float(total_direct_kernel_time_ms) AS total_direct_kernel_time_ms,
       py_float(total_subtree_kernel_time_ms) AS total_subtree_kernel_time_ms,
       count AS "Count",
       categories AS "Categories",
       py_repr(call_stack_first) AS call_stack_first,
       py_float(percentage) AS "Percentage (%)",
       py_float(cumulative_percentage) AS "Cumulative Percentage (%)"
FROM ops_summary_keyed JOIN (SELECT trace_id, whole_us FROM traces) w USING (trace_id)
ORDER BY trace_id, report, rank;

CREATE TEMP VIEW IF NOT EXISTS report_ops_summary AS
SELECT trace_id, name, total_direct_kernel_time_sum, total_subtree_kernel_time_sum, total_direct_kernel_time_ms,
       total_subtree_kernel_time_ms, "Count", "Categories", "Percentage (%)", "Cumulative Percentage (%)"
FROM ops_summary_cells WHERE report = 'perf' ORDER BY trace_id, rank;
