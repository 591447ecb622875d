-- module: inference.inference_perf_sheet_summary
-- requires: perf.perf_sheet_summary

-- inference_perf_sheet_summary: the inference report's perf-model sheets: the
-- 'inference' rows of perf_sheet_summary_keyed (sql/perf/perf_sheet_summary.sql), with
-- num_kernels (GPU events under the op) among the keys: instances of one op with
-- another kernel count are another row.
CREATE TEMP VIEW IF NOT EXISTS inference_perf_sheet_summary AS
SELECT trace_id, sheet, name, params, num_kernels, gflops_first, data_moved_mb_first, flops_per_byte_first,
       tb_s_mean, tb_s_median, tb_s_std, tb_s_min, tb_s_max, tflops_s_mean, tflops_s_median, tflops_s_std,
       tflops_s_min, tflops_s_max, process_name_first, process_label_first, thread_name_first, compute_spec,
       roofline_time_us_first, roofline_bound_first, pct_roofline_mean, pct_roofline_median, pct_roofline_std,
       pct_roofline_min, pct_roofline_max, kernel_time_int, roofline_specs, kernel_details_summary,
       trunc_kernel_details, input_dims_first, input_type_first, input_strides_first, concrete_inputs_first,
       kernel_time_us_mean, kernel_time_us_median, kernel_time_us_std, kernel_time_us_min, kernel_time_us_max,
       kernel_time_us_sum, name_count, uid_first
FROM perf_sheet_summary_keyed WHERE report = 'inference'
ORDER BY trace_id, sheet, kernel_time_us_sum DESC, uid_first;
