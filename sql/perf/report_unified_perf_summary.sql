-- module: perf.report_unified_perf_summary
-- requires: diff.unified_perf_diff, perf.unified_perf_summary

-- report_unified_perf_summary: TraceLens's unified_perf_summary.csv (docs/report.md).
-- Sums, minima and maxima of durations and kernel times print as integers when
-- TraceLens's frame holds them as int64 (int_durations, int_kernel_times; docs/report.md,
-- Whole-µs traces); means, medians and std stay floats.
CREATE TEMP VIEW IF NOT EXISTS report_unified_perf_summary AS
SELECT trace_id,
       name,
       op_category AS "op category",
       process_name, process_label, thread_name,
       py_repr(input_dims, 1) AS "Input Dims",
       py_repr(input_type, 1) AS "Input type",
       py_repr(input_strides, 1) AS "Input Strides",
       py_repr(concrete_inputs, 1) AS "Concrete Inputs",
       ex_uid AS "ex_UID",
       operation_count,
       iif(int_durations, CAST(total_duration_us AS INTEGER), py_float(total_duration_us)) AS total_duration_us,
       py_float(mean_duration_us) AS mean_duration_us,
       py_float(std_duration_us) AS std_duration_us,
       iif(pm, coalesce(py_float(gflops), ''), NULL) AS "GFLOPS",
       iif(pm, coalesce(py_float(data_moved_mb), ''), NULL) AS "Data Moved (MB)",
       iif(pm, coalesce(py_float(flops_per_byte), ''), NULL) AS "FLOPS/Byte",
       iif(pm, coalesce(compute_spec, ''), NULL) AS "Compute Spec",
       iif(rl, coalesce(roofline_bound, ''), NULL) AS "Roofline Bound",
       iif(pm, coalesce(py_float(tb_s_mean), ''), NULL) AS "TB/s_mean",
       iif(pm, coalesce(py_float(tb_s_std), ''), NULL) AS "TB/s_std",
       iif(pm, coalesce(py_float(tflops_s_mean), ''), NULL) AS "TFLOPS/s_mean",
       iif(pm, coalesce(py_float(tflops_s_std), ''), NULL) AS "TFLOPS/s_std",
       py_float(kernel_time_us_mean) AS "Kernel Time (µs)_mean",
       py_float(kernel_time_us_std) AS "Kernel Time (µs)_std",
       iif(int_kernel_times, CAST(kernel_time_us_sum AS INTEGER), py_float(kernel_time_us_sum)) AS "Kernel Time (µs)_sum",
       -- the report option comparison's TraceDiff columns (sql/diff/unified_perf_diff.sql)
       py_float(d.speedup) AS "speedup (trace2/trace1)",
       py_float(d.sum_t2_us - kernel_time_us_sum) AS "delta_us (trace2 - trace1)",
       CASE WHEN max(d.ex_uid IS NULL) OVER (PARTITION BY trace_id)
            THEN py_float(d.lca_count_trace2) ELSE d.lca_count_trace2 END AS lca_count_trace2,
       d.lca_id, d.lca_name,
       py_float(d.lca_total_kernel_time_trace1_us) AS lca_total_kernel_time_trace1_us,
       py_float(d.lca_total_kernel_time_trace2_us) AS lca_total_kernel_time_trace2_us,
       py_float(duration_us_median) AS duration_us_median,
       iif(int_durations, CAST(duration_us_min AS INTEGER), py_float(duration_us_min)) AS duration_us_min,
       iif(int_durations, CAST(duration_us_max AS INTEGER), py_float(duration_us_max)) AS duration_us_max,
       iif(pm, coalesce(py_float(tb_s_median), ''), NULL) AS "TB/s_median",
       iif(pm, coalesce(py_float(tb_s_min), ''), NULL) AS "TB/s_min",
       iif(pm, coalesce(py_float(tb_s_max), ''), NULL) AS "TB/s_max",
       iif(pm, coalesce(py_float(tflops_s_median), ''), NULL) AS "TFLOPS/s_median",
       iif(pm, coalesce(py_float(tflops_s_min), ''), NULL) AS "TFLOPS/s_min",
       iif(pm, coalesce(py_float(tflops_s_max), ''), NULL) AS "TFLOPS/s_max",
       iif(rl, coalesce(py_float(roofline_time_us_first), ''), NULL) AS "Roofline Time (µs)_first",
       iif(rl, coalesce(py_float(pct_roofline_mean), ''), NULL) AS "Pct Roofline_mean",
       iif(rl, coalesce(py_float(pct_roofline_median), ''), NULL) AS "Pct Roofline_median",
       iif(rl, coalesce(py_float(pct_roofline_std), ''), NULL) AS "Pct Roofline_std",
       iif(rl, coalesce(py_float(pct_roofline_min), ''), NULL) AS "Pct Roofline_min",
       iif(rl, coalesce(py_float(pct_roofline_max), ''), NULL) AS "Pct Roofline_max",
       py_float(kernel_time_us_median) AS "Kernel Time (µs)_median",
       iif(int_kernel_times, CAST(kernel_time_us_min AS INTEGER), py_float(kernel_time_us_min)) AS "Kernel Time (µs)_min",
       iif(int_kernel_times, CAST(kernel_time_us_max AS INTEGER), py_float(kernel_time_us_max)) AS "Kernel Time (µs)_max",
       py_repr(kernel_details_summary) AS kernel_details_summary,
       py_repr(trunc_kernel_details) AS trunc_kernel_details,
       perf_params,
       CASE has_perf_model WHEN 1 THEN 'True' ELSE 'False' END AS has_perf_model,
       py_float(percentage) AS "Percentage (%)",
       py_float(cumulative_percentage) AS "Cumulative Percentage (%)"
FROM (SELECT *, max(roofline_bound IS NOT NULL) OVER (PARTITION BY trace_id) AS rl,
             max(gflops IS NOT NULL) OVER (PARTITION BY trace_id) AS pm
      FROM unified_perf_summary)
     LEFT JOIN unified_perf_diff d USING (trace_id, ex_uid)
ORDER BY trace_id, kernel_time_us_sum DESC, ex_uid;
