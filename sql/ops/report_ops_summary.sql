-- module: ops.report_ops_summary
-- requires: ops.ops_summary

-- report_ops_summary: TraceLens's ops_summary.csv (columns, order and cell text as
-- TraceLens writes them); trace_id first. Native numbers: the ops_summary table.
CREATE TEMP VIEW IF NOT EXISTS report_ops_summary AS
SELECT trace_id,
       name,
       iif(w.whole_us, CAST(total_direct_kernel_time_sum AS INTEGER), py_float(total_direct_kernel_time_sum)) AS total_direct_kernel_time_sum,
       iif(w.whole_us, CAST(total_subtree_kernel_time_sum AS INTEGER), py_float(total_subtree_kernel_time_sum)) AS total_subtree_kernel_time_sum,
       py_float(total_direct_kernel_time_ms) AS total_direct_kernel_time_ms,
       py_float(total_subtree_kernel_time_ms) AS total_subtree_kernel_time_ms,
       count AS "Count",
       categories AS "Categories",
       py_float(percentage) AS "Percentage (%)",
       py_float(cumulative_percentage) AS "Cumulative Percentage (%)"
FROM ops_summary JOIN (SELECT trace_id, whole_us FROM traces) w USING (trace_id)
ORDER BY trace_id, rank;
