-- module: inference.inference_report_unified_perf_summary
-- requires: inference.inference_unified_stacks, perf.report_unified_perf_summary

-- inference_report_unified_perf_summary: TraceLens's unified_perf_summary.csv of the
-- inference report: report_unified_perf_summary with entry_point and call_stack_full
-- before the percentages.
CREATE TEMP VIEW IF NOT EXISTS inference_report_unified_perf_summary AS
WITH s AS MATERIALIZED (SELECT * FROM inference_unified_stacks)
SELECT r."trace_id", r."name", r."op category", r."process_name", r."process_label", r."thread_name",
       r."Input Dims", r."Input type", r."Input Strides", r."Concrete Inputs", r."ex_UID", r."operation_count",
       r."total_duration_us", r."mean_duration_us", r."std_duration_us", r."GFLOPS", r."Data Moved (MB)",
       r."FLOPS/Byte", r."Compute Spec", r."Roofline Bound", r."TB/s_mean", r."TB/s_std", r."TFLOPS/s_mean",
       r."TFLOPS/s_std", r."Kernel Time (µs)_mean", r."Kernel Time (µs)_std", r."Kernel Time (µs)_sum",
       r."speedup (trace2/trace1)", r."delta_us (trace2 - trace1)", r."lca_count_trace2", r."lca_id", r."lca_name",
       r."lca_total_kernel_time_trace1_us", r."lca_total_kernel_time_trace2_us", r."duration_us_median",
       r."duration_us_min", r."duration_us_max", r."TB/s_median", r."TB/s_min", r."TB/s_max", r."TFLOPS/s_median",
       r."TFLOPS/s_min", r."TFLOPS/s_max", r."Roofline Time (µs)_first", r."Pct Roofline_mean",
       r."Pct Roofline_median", r."Pct Roofline_std", r."Pct Roofline_min", r."Pct Roofline_max",
       r."Kernel Time (µs)_median", r."Kernel Time (µs)_min", r."Kernel Time (µs)_max", r."kernel_details_summary",
       r."trunc_kernel_details", r."perf_params", r."has_perf_model",
       s.entry_point,
       CASE WHEN json_valid(s.call_stack_full) THEN py_repr(s.call_stack_full) ELSE s.call_stack_full END
         AS call_stack_full,
       r."Percentage (%)", r."Cumulative Percentage (%)"
FROM report_unified_perf_summary r
     JOIN s ON s.trace_id = r.trace_id AND s.ex_uid = r."ex_UID"
ORDER BY r.trace_id, s.kernel_time_us_sum DESC, s.ex_uid;
