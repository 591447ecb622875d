-- module: inference.inference_report_ops_summary
-- requires: inference.inference_ops_summary

-- inference_report_ops_summary, inference_report_ops_summary_by_category,
-- inference_report_ops_unique_args: the launcher sheets of TraceLens's inference report
-- as it writes them (column names, order and cell text; docs/inference.md); trace_id
-- first. They are not named report_*: the standard report (perf_report_files) does not
-- write them.
CREATE TEMP VIEW IF NOT EXISTS inference_report_ops_summary AS
SELECT trace_id, name, parent_module,
       iif(w.whole_us, CAST(total_direct_kernel_time_sum AS INTEGER), py_float(total_direct_kernel_time_sum)) AS total_direct_kernel_time_sum,
       iif(w.whole_us, CAST(total_subtree_kernel_time_sum AS INTEGER), py_float(total_subtree_kernel_time_sum)) AS total_subtree_kernel_time_sum,
       total_subtree_kernel_time_count,
       py_float(total_direct_kernel_time_ms) AS total_direct_kernel_time_ms,
       count AS "Count", categories AS "Categories",
       py_repr(call_stack_first) AS call_stack_first,
       py_float(percentage) AS "Percentage (%)",
       py_float(cumulative_percentage) AS "Cumulative Percentage (%)"
FROM inference_ops_summary JOIN (SELECT trace_id, whole_us FROM traces) w USING (trace_id)
ORDER BY trace_id, rank;
