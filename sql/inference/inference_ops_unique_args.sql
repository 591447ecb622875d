-- module: inference.inference_ops_unique_args
-- requires: ops.ops_unique_args

-- inference_ops_unique_args: TraceLens's ops_unique_args of the inference report: the
-- 'inference' rows of ops_unique_args_keyed (sql/ops/ops_unique_args.sql), with
-- parent_module and num_kernels among the keys and call_stack (the first launcher's)
-- among the aggregates. Rows: direct time sum descending, then ex_uid.
CREATE TEMP VIEW IF NOT EXISTS inference_ops_unique_args AS
SELECT trace_id, name, op_category, parent_module, process_name, process_label, thread_name, input_dims,
       input_type, input_strides, concrete_inputs, num_kernels, operation_count, total_direct_kernel_time_mean,
       total_subtree_kernel_time_mean, total_direct_kernel_time_median, total_subtree_kernel_time_median,
       total_direct_kernel_time_std, total_subtree_kernel_time_std, total_direct_kernel_time_min,
       total_subtree_kernel_time_min, total_direct_kernel_time_max, total_subtree_kernel_time_max,
       total_direct_kernel_time_sum, total_subtree_kernel_time_sum, ex_uid, call_stack, kernel_details_summary,
       percentage, trunc_kernel_details, cumulative_percentage
FROM ops_unique_args_keyed WHERE report = 'inference'
ORDER BY trace_id, total_direct_kernel_time_sum DESC, ex_uid;
