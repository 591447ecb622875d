-- module: inference.inference_report_ops_unique_args
-- requires: inference.inference_ops_unique_args

CREATE TEMP VIEW IF NOT EXISTS inference_report_ops_unique_args AS
SELECT trace_id, name, op_category AS "op category", parent_module,
       process_name, process_label, thread_name,
       py_repr(input_dims, 1) AS "Input Dims",
       py_repr(input_type, 1) AS "Input type",
       py_repr(input_strides, 1) AS "Input Strides",
       py_repr(concrete_inputs, 1) AS "Concrete Inputs",
       num_kernels, operation_count,
       py_float(total_direct_kernel_time_mean) AS total_direct_kernel_time_mean,
       py_float(total_subtree_kernel_time_mean) AS total_subtree_kernel_time_mean,
       py_float(total_direct_kernel_time_median) AS total_direct_kernel_time_median,
       py_float(total_subtree_kernel_time_median) AS total_subtree_kernel_time_median,
       py_float(total_direct_kernel_time_std) AS total_direct_kernel_time_std,
       py_float(total_subtree_kernel_time_std) AS total_subtree_kernel_time_std,
       iif(w.whole_us, CAST(total_direct_kernel_time_min AS INTEGER), py_float(total_direct_kernel_time_min)) AS total_direct_kernel_time_min,
       iif(w.whole_us, CAST(total_subtree_kernel_time_min AS INTEGER), py_float(total_subtree_kernel_time_min)) AS total_subtree_kernel_time_min,
       iif(w.whole_us, CAST(total_direct_kernel_time_max AS INTEGER), py_float(total_direct_kernel_time_max)) AS total_direct_kernel_time_max,
       iif(w.whole_us, CAST(total_subtree_kernel_time_max AS INTEGER), py_float(total_subtree_kernel_time_max)) AS total_subtree_kernel_time_max,
       iif(w.whole_us, CAST(total_direct_kernel_time_sum AS INTEGER), py_float(total_direct_kernel_time_sum)) AS total_direct_kernel_time_sum,
       iif(w.whole_us, CAST(total_subtree_kernel_time_sum AS INTEGER), py_float(total_subtree_kernel_time_sum)) AS total_subtree_kernel_time_sum,
       ex_uid AS "ex_UID",
       py_repr(call_stack) AS call_stack,
       py_repr(kernel_details_summary) AS kernel_details_summary,
       py_repr(trunc_kernel_details) AS trunc_kernel_details,
       py_float(percentage) AS "Percentage (%)",
       py_float(cumulative_percentage) AS "Cumulative Percentage (%)"
FROM inference_ops_unique_args o JOIN (SELECT trace_id, whole_us FROM traces) w USING (trace_id)
ORDER BY trace_id, o.total_direct_kernel_time_sum DESC, o.ex_uid;
