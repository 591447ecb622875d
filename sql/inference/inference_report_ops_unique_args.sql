-- module: inference.inference_report_ops_unique_args
-- requires: ops.report_ops_unique_args

-- inference_report_ops_unique_args: the inference report's ops_unique_args.csv: the
-- 'inference' rows of ops_unique_args_cells (sql/ops/report_ops_unique_args.sql), with
-- parent_module, num_kernels and call_stack.
CREATE TEMP VIEW IF NOT EXISTS inference_report_ops_unique_args AS
SELECT trace_id, name, "op category", parent_module, process_name, process_label, thread_name, "Input Dims",
       "Input type", "Input Strides", "Concrete Inputs", num_kernels, operation_count, total_direct_kernel_time_mean,
       total_subtree_kernel_time_mean, total_direct_kernel_time_median, total_subtree_kernel_time_median,
       total_direct_kernel_time_std, total_subtree_kernel_time_std, total_direct_kernel_time_min,
       total_subtree_kernel_time_min, total_direct_kernel_time_max, total_subtree_kernel_time_max,
       total_direct_kernel_time_sum, total_subtree_kernel_time_sum, "ex_UID", call_stack, kernel_details_summary,
       trunc_kernel_details, "Percentage (%)", "Cumulative Percentage (%)"
FROM ops_unique_args_cells WHERE report = 'inference' ORDER BY trace_id, rank;
