-- perf_sheet_summary: TraceLens's perf-model sheets (GEMM, CONV_fwd, CONV_bwd,
-- SDPA_fwd, SDPA_bwd, UnaryElementwise, BinaryElementwise, Reduce_fwd, Normalization,
-- ...; docs/schema.md, perf_ops) for every sheet at once: the rows of perf_ops grouped
-- by sheet, op name and model parameters. `sheet` says which sheet a row belongs to.
--   *_first      value of the first instance (file order) of the group
--   tb_s_*, tflops_s_*          statistics over instances with kernel time (TB/s, TFLOPS/s)
--   kernel_time_us_*            statistics of the instances' GPU busy time, µs
--   kernel_details_summary      per-kernel statistics (JSON, kernel_details_summary())
--   name_count, uid_first       instances, uid of the first one
--   appended    1 for the groups TraceLens moves from F_fwd to the end of F_bwd
-- Rows ordered per sheet as TraceLens orders them: kernel time sum descending, then
-- uid_first (appended groups last).
CREATE TEMP VIEW IF NOT EXISTS perf_sheet_summary AS
WITH g AS (
    SELECT trace_id, sheet, appended, name, params,
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
    FROM perf_ops
    GROUP BY trace_id, sheet, appended, name, params
)
SELECT trace_id, sheet, name, params, gflops_first, data_moved_mb_first, flops_per_byte_first,
       tb_s_mean, tb_s_median, tb_s_std, tb_s_min, tb_s_max,
       tflops_s_mean, tflops_s_median, tflops_s_std, tflops_s_min, tflops_s_max,
       process_name_first, process_label_first, thread_name_first, compute_spec,
       kernel_details_summary, trunc_kernel_details(kernel_details_summary) AS trunc_kernel_details,
       input_dims_first, input_type_first, input_strides_first, concrete_inputs_first,
       kernel_time_us_mean, kernel_time_us_median, kernel_time_us_std, kernel_time_us_min,
       kernel_time_us_max, kernel_time_us_sum, name_count, uid_first, appended
FROM g
ORDER BY trace_id, sheet, appended, kernel_time_us_sum DESC, uid_first;

-- perf_sheet_params: the parameter names of each sheet in order of first appearance
-- over its instances (file order), i.e. the order of TraceLens's "param: ..." columns.
-- Rows with the same params text have the same names at the same places, so the names
-- are read from each distinct params text once, at its first row (d), not from every
-- instance: the first appearance of a name is the least such first row.
CREATE TEMP VIEW IF NOT EXISTS perf_sheet_params AS
WITH d AS MATERIALIZED (
    SELECT trace_id, sheet, params, min(row) AS row FROM perf_ops GROUP BY trace_id, sheet, params
), p AS MATERIALIZED (
    SELECT d.trace_id, d.sheet, d.row, j.key AS param, j.id AS pos
    FROM d, json_each(d.params) j
), f AS (
    SELECT trace_id, sheet, param, min(row) AS first_row FROM p GROUP BY trace_id, sheet, param
)
SELECT f.trace_id, f.sheet, f.param,
       row_number() OVER (PARTITION BY f.trace_id, f.sheet ORDER BY f.first_row, p.pos) AS position
FROM f JOIN p ON p.trace_id = f.trace_id AND p.sheet = f.sheet AND p.param = f.param
                 AND p.row = f.first_row
ORDER BY f.trace_id, f.sheet, position;
