-- module: inference.inference_perf_sheet_summary
-- requires: inference.inference_perf_ops, perf.gpu_arch

-- inference_perf_sheet_summary: perf_sheet_summary (sql/perf/perf_sheet_summary.sql) for
-- the inference sheets, with num_kernels (GPU events under the op) among the keys:
-- instances of one op with another kernel count are another row.
CREATE TEMP VIEW IF NOT EXISTS inference_perf_sheet_summary AS
WITH o AS (
    SELECT p.*,
           roofline_time_us(p.flops, p.bytes, p.kernel_time_us, a.peak_tflops, a.mem_bw_gbps) AS rl_time,
           roofline_bound(p.flops, p.bytes, p.kernel_time_us, a.peak_tflops, a.mem_bw_gbps) AS rl_bound,
           roofline_pct(p.flops, p.bytes, p.kernel_time_us, a.peak_tflops, a.mem_bw_gbps) AS rl_pct
    FROM inference_perf_ops p LEFT JOIN gpu_arch a ON a.compute_spec = p.compute_spec AND p.compute_spec <> ''
)
SELECT trace_id, inference_sheet AS sheet, name, sheet_params AS params, num_kernels,
       first(gflops, row) AS gflops_first,
       first(data_moved_mb, row) AS data_moved_mb_first,
       first(flops_per_byte, row) AS flops_per_byte_first,
       pd_mean(tb_s, row) AS tb_s_mean, median(tb_s) AS tb_s_median, pd_std(tb_s, row) AS tb_s_std,
       min(tb_s) AS tb_s_min, max(tb_s) AS tb_s_max,
       pd_mean(tflops_s, row) AS tflops_s_mean, median(tflops_s) AS tflops_s_median,
       pd_std(tflops_s, row) AS tflops_s_std, min(tflops_s) AS tflops_s_min, max(tflops_s) AS tflops_s_max,
       first(process_name, row) AS process_name_first,
       first(process_label, row) AS process_label_first,
       first(thread_name, row) AS thread_name_first,
       first(compute_spec, row) AS compute_spec,
       first(rl_time, row) AS roofline_time_us_first,
       first(rl_bound, row) AS roofline_bound_first,
       pd_mean(rl_pct, row) AS pct_roofline_mean, median(rl_pct) AS pct_roofline_median,
       pd_std(rl_pct, row) AS pct_roofline_std, min(rl_pct) AS pct_roofline_min, max(rl_pct) AS pct_roofline_max,
       max(sheet_kernel_time_int) OR (SELECT whole_us FROM traces w WHERE w.trace_id = o.trace_id) AS kernel_time_int,
       max(sheet_roofline_specs) AS roofline_specs,
       kernel_details_summary(kernel_details, row) AS kernel_details_summary,
       trunc_kernel_details(kernel_details_summary(kernel_details, row)) AS trunc_kernel_details,
       first(input_dims, row) AS input_dims_first,
       first(input_type, row) AS input_type_first,
       first(input_strides, row) AS input_strides_first,
       first(concrete_inputs, row) AS concrete_inputs_first,
       pd_mean(kernel_time_us, row) AS kernel_time_us_mean,
       median(kernel_time_us) AS kernel_time_us_median,
       pd_std(kernel_time_us, row) AS kernel_time_us_std,
       min(kernel_time_us) AS kernel_time_us_min,
       max(kernel_time_us) AS kernel_time_us_max,
       pd_sum(kernel_time_us, row) AS kernel_time_us_sum,
       count(*) AS name_count,
       first(uid, row) AS uid_first
FROM o
GROUP BY trace_id, inference_sheet, name, sheet_params, num_kernels
ORDER BY trace_id, sheet, kernel_time_us_sum DESC, uid_first;
