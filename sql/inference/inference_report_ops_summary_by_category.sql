-- module: inference.inference_report_ops_summary_by_category
-- requires: inference.inference_ops_summary_by_category

CREATE TEMP VIEW IF NOT EXISTS inference_report_ops_summary_by_category AS
SELECT trace_id, op_category AS "op category", parent_module, count AS "Count",
       py_repr(call_stack_first) AS call_stack_first,
       py_float(total_direct_kernel_time_ms) AS total_direct_kernel_time_ms,
       py_float(percentage) AS "Percentage (%)",
       py_float(cumulative_percentage) AS "Cumulative Percentage (%)"
FROM inference_ops_summary_by_category
ORDER BY trace_id, rank;
