-- module: perf.perf_sheet_summary
-- requires: perf.gpu_arch, perf.perf_sheet_ops

-- perf_sheet_summary_keyed: TraceLens's perf-model sheets (GEMM, CONV_fwd, CONV_bwd,
-- SDPA_fwd, SDPA_bwd, UnaryElementwise, BinaryElementwise, Reduce_fwd, Normalization,
-- ...; docs/report.md) of each report (perf_sheet_ops.report) for every sheet at once:
-- the rows of perf_sheet_ops grouped by sheet, op name and model parameters as the sheet
-- prints them (sheet_params, whose text follows the dtype of each column over the sheet
-- frame, docs/report.md, cell text), and in the inference report by kernel count
-- (num_kernels). `sheet` says which sheet a row belongs to.
--   *_first      value of the first instance (file order) of the group
--   tb_s_*, tflops_s_*          statistics over instances with kernel time (TB/s, TFLOPS/s)
--   roofline_time_us_first, roofline_bound_first, pct_roofline_*   TraceLens's roofline
--                columns against gpu_arch (NULL without an arch or a matching peak)
--   kernel_time_us_*            statistics of the instances' GPU busy time, µs
--   kernel_time_int             1 when the sheet's Kernel Time column is TraceLens's
--                int64: no row of its frames has GPU work, or every GPU duration of the
--                trace is whole µs (traces.whole_us; docs/report.md, cell text)
--   kernel_details_summary      per-kernel statistics (JSON, kernel_details_summary())
--   name_count, uid_first       instances, uid of the first one
--   appended    1 for the groups TraceLens moves from F_fwd to the end of F_bwd (perf)
--   moved_roofline_specs        the moved rows' roofline specs (perf; the inference
--                report has no F_bwd sheet: NULL)
-- Rows ordered per sheet as TraceLens orders them: kernel time sum descending, then
-- uid_first (appended groups last).
-- perf_sheet_summary: the perf report's rows; inference_perf_sheet_summary
-- (sql/inference/) the others.
CREATE TEMP VIEW IF NOT EXISTS perf_sheet_summary_keyed AS
WITH o AS (
    -- each instance with its roofline against the report's arch (docs/report.md, Roofline columns): the peak of its
    -- exact Compute Spec, an empty spec never matching
    SELECT p.*,
           roofline_time_us(p.flops, p.bytes, p.kernel_time_us, a.peak_tflops, a.mem_bw_gbps) AS rl_time,
           roofline_bound(p.flops, p.bytes, p.kernel_time_us, a.peak_tflops, a.mem_bw_gbps) AS rl_bound,
           roofline_pct(p.flops, p.bytes, p.kernel_time_us, a.peak_tflops, a.mem_bw_gbps) AS rl_pct
    FROM perf_sheet_ops p LEFT JOIN gpu_arch a ON a.compute_spec = p.compute_spec AND p.compute_spec <> ''
), g AS (
    SELECT trace_id, report, report_sheet AS sheet, report_appended AS appended, name, sheet_params AS params,
           report_num_kernels AS num_kernels,
           first(gflops, row) AS gflops_first,
           first(data_moved_mb, row) AS data_moved_mb_first,
           first(flops_per_byte, row) AS flops_per_byte_first,
           pd_mean(tb_s, row) AS tb_s_mean, median(tb_s) AS tb_s_median, pd_std(tb_s, row) AS tb_s_std,
           min(tb_s) AS tb_s_min, max(tb_s) AS tb_s_max,
           pd_mean(tflops_s, row) AS tflops_s_mean, median(tflops_s) AS tflops_s_median,
           pd_std(tflops_s, row) AS tflops_s_std, min(tflops_s) AS tflops_s_min,
           max(tflops_s) AS tflops_s_max,
           first(process_name, row) AS process_name_first,
           first(process_label, row) AS process_label_first,
           first(thread_name, row) AS thread_name_first,
           first(compute_spec, row) AS compute_spec,
           first(rl_time, row) AS roofline_time_us_first,
           first(rl_bound, row) AS roofline_bound_first,
           pd_mean(rl_pct, row) AS pct_roofline_mean, median(rl_pct) AS pct_roofline_median,
           pd_std(rl_pct, row) AS pct_roofline_std, min(rl_pct) AS pct_roofline_min,
           max(rl_pct) AS pct_roofline_max,
           max(sheet_kernel_time_int) OR (SELECT whole_us FROM traces w WHERE w.trace_id = o.trace_id) AS kernel_time_int,
           max(sheet_roofline_specs) AS roofline_specs,
           CASE WHEN report = 'perf' THEN max(sheet_moved_roofline_specs) END AS moved_roofline_specs,
           kernel_details_summary(kernel_details, row) AS kernel_details_summary,
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
    GROUP BY trace_id, report_sheet, report_appended, name, sheet_params, report_num_kernels, report
)
SELECT *, trunc_kernel_details(kernel_details_summary) AS trunc_kernel_details
FROM g
ORDER BY trace_id, report, sheet, appended, kernel_time_us_sum DESC, uid_first;

CREATE TEMP VIEW IF NOT EXISTS perf_sheet_summary AS
SELECT trace_id, sheet, name, params, gflops_first, data_moved_mb_first, flops_per_byte_first,
       tb_s_mean, tb_s_median, tb_s_std, tb_s_min, tb_s_max,
       tflops_s_mean, tflops_s_median, tflops_s_std, tflops_s_min, tflops_s_max,
       process_name_first, process_label_first, thread_name_first, compute_spec,
       roofline_time_us_first, roofline_bound_first, pct_roofline_mean, pct_roofline_median,
       pct_roofline_std, pct_roofline_min, pct_roofline_max,
       kernel_details_summary, trunc_kernel_details,
       input_dims_first, input_type_first, input_strides_first, concrete_inputs_first,
       kernel_time_us_mean, kernel_time_us_median, kernel_time_us_std, kernel_time_us_min,
       kernel_time_us_max, kernel_time_us_sum, kernel_time_int, roofline_specs, moved_roofline_specs, name_count, uid_first, appended
FROM perf_sheet_summary_keyed WHERE report = 'perf'
ORDER BY trace_id, sheet, appended, kernel_time_us_sum DESC, uid_first;
