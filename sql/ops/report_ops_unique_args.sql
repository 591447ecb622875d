-- module: ops.report_ops_unique_args
-- requires: ops.ops_unique_args

-- ops_unique_args_cells: TraceLens's ops_unique_args.csv of each report
-- (ops_unique_args_keyed.report), columns in its order, cell text as TraceLens writes it;
-- trace_id, report and rank (row order) first. Argument cells are Python tuple reprs,
-- statistics Python floats, kernel details and call stacks Python reprs; sums, minima
-- and maxima integers on a whole-µs trace (docs/report.md, cell text). The inference
-- report's columns (parent_module, num_kernels, call_stack) are NULL in 'perf'.
-- report_ops_unique_args: the perf report's sheet; inference_report_ops_unique_args
-- (sql/inference/) the inference report's, each with its own columns.
CREATE TEMP VIEW IF NOT EXISTS ops_unique_args_cells AS
SELECT trace_id, report, rank,
       name,
       op_category AS "op category",
       parent_module,
       process_name, process_label, thread_name,
       py_repr(input_dims, 1) AS "Input Dims",
       py_repr(input_type, 1) AS "Input type",
       py_repr(input_strides, 1) AS "Input Strides",
       py_repr(concrete_inputs, 1) AS "Concrete Inputs",
       num_kernels,
       operation_count,
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
FROM ops_unique_args_keyed JOIN (SELECT trace_id, whole_us FROM traces) w USING (trace_id)
ORDER BY trace_id, report, rank;

CREATE TEMP VIEW IF NOT EXISTS report_ops_unique_args AS
SELECT trace_id, name, "op category", process_name, process_label, thread_name, "Input Dims", "Input type",
       "Input Strides", "Concrete Inputs", operation_count, total_direct_kernel_time_mean,
       total_subtree_kernel_time_mean, total_direct_kernel_time_median, total_subtree_kernel_time_median,
       total_direct_kernel_time_std, total_subtree_kernel_time_std, total_direct_kernel_time_min,
       total_subtree_kernel_time_min, total_direct_kernel_time_max, total_subtree_kernel_time_max,
       total_direct_kernel_time_sum, total_subtree_kernel_time_sum, "ex_UID", kernel_details_summary,
       trunc_kernel_details, "Percentage (%)", "Cumulative Percentage (%)"
FROM ops_unique_args_cells WHERE report = 'perf' ORDER BY trace_id, rank;
