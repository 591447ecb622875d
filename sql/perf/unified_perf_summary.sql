-- module: perf.unified_perf_summary
-- requires: perf.gpu_arch

-- unified_perf_summary: TraceLens's unified_perf_summary sheet
-- (docs/schema.md, unified_ops): the instances of unified_ops grouped by name, category, process/thread and
-- exact arguments. GPU time goes to the highest op with a perf model, to leaf
-- launchers elsewhere, and to synthetic "op->kernel (Synthetic Op)" rows.
--   ex_uid, operation_count        first instance (collection order), instances
--   total/mean/std_duration_us     CPU duration of the instances, µs
--   gflops, data_moved_mb, flops_per_byte, compute_spec   of the first instance
--   tb_s_*, tflops_s_*, kernel_time_us_*   statistics over instances (std: sample)
--   roofline_time_us_first, roofline_bound, pct_roofline_*   TraceLens's roofline
--                                  columns against gpu_arch (docs/report.md, Roofline columns; NULL without one)
--   kernel_details_summary         per-kernel statistics (JSON)
--   perf_params                    model parameters of the first instance (Python dict)
--   int_durations, int_kernel_times    1 when TraceLens's frame holds the CPU durations /
--                                  kernel times as int64 (unified_ops; docs/report.md,
--                                  Whole-µs traces): their sum, min, max print as integers
--   percentage, cumulative_percentage      share of all kernel time, %
-- Rows: kernel time sum descending, then ex_uid.
CREATE TEMP VIEW IF NOT EXISTS unified_perf_summary AS
WITH o AS (
    SELECT u.*,
           roofline_time_us(u.flops, u.bytes, u.kernel_time_us, a.peak_tflops, a.mem_bw_gbps) AS rl_time,
           roofline_bound(u.flops, u.bytes, u.kernel_time_us, a.peak_tflops, a.mem_bw_gbps) AS rl_bound,
           roofline_pct(u.flops, u.bytes, u.kernel_time_us, a.peak_tflops, a.mem_bw_gbps) AS rl_pct
    FROM unified_ops u LEFT JOIN gpu_arch a ON a.compute_spec = u.compute_spec AND u.compute_spec <> ''
), g AS (
    SELECT trace_id, name, op_category, process_name, process_label, thread_name,
           input_dims, input_type, input_strides, concrete_inputs,
           first(uid, row) AS ex_uid, count(uid) AS operation_count,
           pd_sum(duration_us, row) AS total_duration_us, pd_mean(duration_us, row) AS mean_duration_us,
           pd_std(duration_us, row) AS std_duration_us,
           first(gflops, row) AS gflops, first(data_moved_mb, row) AS data_moved_mb,
           first(flops_per_byte, row) AS flops_per_byte, first(compute_spec, row) AS compute_spec,
           pd_mean(tb_s, row) AS tb_s_mean, pd_std(tb_s, row) AS tb_s_std,
           pd_mean(tflops_s, row) AS tflops_s_mean, pd_std(tflops_s, row) AS tflops_s_std,
           pd_mean(kernel_time_us, row) AS kernel_time_us_mean, pd_std(kernel_time_us, row) AS kernel_time_us_std,
           pd_sum(kernel_time_us, row) AS kernel_time_us_sum,
           median(duration_us) AS duration_us_median, min(duration_us) AS duration_us_min,
           max(duration_us) AS duration_us_max,
           median(tb_s) AS tb_s_median, min(tb_s) AS tb_s_min, max(tb_s) AS tb_s_max,
           median(tflops_s) AS tflops_s_median, min(tflops_s) AS tflops_s_min,
           max(tflops_s) AS tflops_s_max,
           median(kernel_time_us) AS kernel_time_us_median, min(kernel_time_us) AS kernel_time_us_min,
           max(kernel_time_us) AS kernel_time_us_max,
           first(rl_time, row) AS roofline_time_us_first, first(rl_bound, row) AS roofline_bound,
           pd_mean(rl_pct, row) AS pct_roofline_mean, median(rl_pct) AS pct_roofline_median,
           pd_std(rl_pct, row) AS pct_roofline_std, min(rl_pct) AS pct_roofline_min,
           max(rl_pct) AS pct_roofline_max,
           kernel_details_summary(kernel_details, row) AS kernel_details_summary,
           first(perf_params, row) AS perf_params,
           first(has_perf_model, row) AS has_perf_model,
           max(int_durations) AS int_durations, max(int_kernel_times) AS int_kernel_times
    FROM o
    GROUP BY trace_id, name, op_category, process_name, process_label, thread_name,
             input_dims, input_type, input_strides, concrete_inputs
)
SELECT trace_id, name, op_category, process_name, process_label, thread_name,
       input_dims, input_type, input_strides, concrete_inputs,
       ex_uid, operation_count, total_duration_us, mean_duration_us, std_duration_us,
       gflops, data_moved_mb, flops_per_byte, compute_spec,
       tb_s_mean, tb_s_std, tflops_s_mean, tflops_s_std,
       kernel_time_us_mean, kernel_time_us_std, kernel_time_us_sum,
       duration_us_median, duration_us_min, duration_us_max,
       tb_s_median, tb_s_min, tb_s_max, tflops_s_median, tflops_s_min, tflops_s_max,
       kernel_time_us_median, kernel_time_us_min, kernel_time_us_max,
       roofline_time_us_first, roofline_bound, pct_roofline_mean, pct_roofline_median,
       pct_roofline_std, pct_roofline_min, pct_roofline_max,
       kernel_details_summary, trunc_kernel_details(kernel_details_summary) AS trunc_kernel_details,
       perf_params, has_perf_model, int_durations, int_kernel_times,
       -- as pandas: the share of numpy's sum of the sorted column, and numpy's cumsum
       percentage, cumsum(percentage) OVER run AS cumulative_percentage
FROM (SELECT *, kernel_time_us_sum / np_sum(kernel_time_us_sum) OVER whole * 100.0 AS percentage
      FROM g
      WINDOW whole AS (PARTITION BY trace_id ORDER BY kernel_time_us_sum DESC, ex_uid
                       ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING))
WINDOW run AS (PARTITION BY trace_id ORDER BY kernel_time_us_sum DESC, ex_uid ROWS UNBOUNDED PRECEDING)
ORDER BY trace_id, kernel_time_us_sum DESC, ex_uid;
