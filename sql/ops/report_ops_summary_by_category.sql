-- module: ops.report_ops_summary_by_category
-- requires: ops.ops_summary_by_category

-- report_ops_summary_by_category: TraceLens's ops_summary_by_category.csv; trace_id first.
CREATE TEMP VIEW IF NOT EXISTS report_ops_summary_by_category AS
SELECT trace_id,
       op_category AS "op category",
       count AS "Count",
       py_float(total_direct_kernel_time_ms) AS total_direct_kernel_time_ms,
       py_float(percentage) AS "Percentage (%)",
       py_float(cumulative_percentage) AS "Cumulative Percentage (%)"
FROM ops_summary_by_category;
