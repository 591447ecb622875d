-- inference_unified_stacks: per row of unified_perf_summary (by ex_uid), the call-stack
-- columns of TraceLens's inference report (docs/inference.md, Call stacks):
--   call_stack_full   JSON: the stacks of the row's kernels (those of its first instance
--                     with GPU work, in kernel_details_summary order) each ending with
--                     the kernel's name, merged: their common prefix, then each
--                     distinct tail as a list (call_stack_full()); synthetic rows have
--                     no stack: the kernel's name alone
--   entry_point       the Python frame of the op (entry_point())
CREATE TEMP VIEW IF NOT EXISTS inference_unified_stacks AS
WITH k AS (
    SELECT u.*,
           CASE WHEN u.synthetic THEN u.kernel_details ELSE
               (SELECT json_group_array(json_set(j.value, '$.call_stack',
                           json(inference_kernel_stack(u.trace_id, u.node_uid, json_extract(j.value, '$.gpu_op_uid')))))
                FROM json_each(u.kernel_details) j) END AS kd
    FROM unified_ops u
), g AS (
    SELECT trace_id, name, first(uid, row) AS ex_uid, pd_sum(kernel_time_us, row) AS kernel_time_us_sum,
           call_stack_full(kernel_details_summary(kd, row)) AS call_stack_full
    FROM k
    GROUP BY trace_id, name, op_category, process_name, process_label, thread_name,
             input_dims, input_type, input_strides, concrete_inputs
)
SELECT trace_id, ex_uid, kernel_time_us_sum, call_stack_full,
       coalesce(entry_point(name, call_stack_full), 'Not found') AS entry_point
FROM g;

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
