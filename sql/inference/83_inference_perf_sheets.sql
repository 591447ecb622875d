-- inference_perf_ops: the perf_ops rows of TraceLens's inference report, under its sheet
-- names (docs/inference.md, Perf-model sheets): forward rows only (no F_bwd sheet);
-- Normalization is Normalization_fwd; of the forward rows the training report moves
-- to F_bwd, ConvBias_Backward and ConvBiasReLU_Backward stay in F_fwd and the others
-- are dropped.
CREATE TEMP VIEW IF NOT EXISTS inference_perf_ops AS
SELECT p.*,
       CASE WHEN p.sheet = 'Normalization' THEN 'Normalization_fwd'
            WHEN p.appended THEN substr(p.sheet, 1, length(p.sheet) - 4) || '_fwd'
            ELSE p.sheet END AS inference_sheet
FROM perf_ops p
WHERE p.direction = 'fwd'
  AND (NOT p.appended OR p.name IN ('ConvBias_Backward', 'ConvBiasReLU_Backward'));

-- inference_perf_sheet_summary: perf_sheet_summary (sql/perf/40_perf_sheets.sql) for
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
       max(sheet_kernel_time_int) AS kernel_time_int,
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

-- inference_perf_sheet_queries: per inference perf-model sheet, the SQL printing it as
-- TraceLens's <sheet>.csv (the rules of perf_sheet_queries, sql/perf/45_perf_sheet_queries.sql;
-- num_kernels right after the "param: ..." columns). The param columns are in order of
-- first appearance over the sheet's rows (file order).
CREATE TEMP VIEW IF NOT EXISTS inference_perf_sheet_queries AS
WITH d AS MATERIALIZED (
    SELECT trace_id, inference_sheet AS sheet, sheet_params AS params, min(row) AS row
    FROM inference_perf_ops GROUP BY trace_id, inference_sheet, sheet_params
), p AS MATERIALIZED (
    SELECT d.trace_id, d.sheet, d.row, j.key AS param, j.id AS pos FROM d, json_each(d.params) j
), f AS (
    SELECT trace_id, sheet, param, min(row) AS first_row FROM p GROUP BY trace_id, sheet, param
), psp AS (
    SELECT f.trace_id, f.sheet, f.param,
           row_number() OVER (PARTITION BY f.trace_id, f.sheet ORDER BY f.first_row, p.pos) AS position
    FROM f JOIN p ON p.trace_id = f.trace_id AND p.sheet = f.sheet AND p.param = f.param AND p.row = f.first_row
), sheets AS (
    SELECT DISTINCT trace_id, sheet FROM d
), cols AS (
    SELECT s.trace_id, s.sheet,
           (SELECT group_concat(printf('json_extract(params, ''$."%w"'') AS "param: %w"', x.param, x.param), ', ')
            FROM (SELECT param FROM psp WHERE psp.trace_id = s.trace_id AND psp.sheet = s.sheet ORDER BY position) x)
             AS param_cols
    FROM sheets s
), rl AS (
    SELECT s.trace_id, s.sheet,
           EXISTS (SELECT 1 FROM json_each(s.roofline_specs) j JOIN gpu_arch a
                   ON a.compute_spec = j.value AND a.mem_bw_gbps > 0 AND a.peak_tflops > 0) AS has_rl
    FROM (SELECT trace_id, sheet, max(roofline_specs) AS roofline_specs
          FROM inference_perf_sheet_summary GROUP BY trace_id, sheet) s
)
SELECT c.trace_id, c.sheet,
       'SELECT name, ' || coalesce(c.param_cols || ', ', '') || 'num_kernels, '
       || 'py_float(gflops_first) AS "GFLOPS_first", py_float(data_moved_mb_first) AS "Data Moved (MB)_first", '
       || 'py_float(flops_per_byte_first) AS "FLOPS/Byte_first", '
       || 'py_float(tb_s_mean) AS "TB/s_mean", py_float(tb_s_median) AS "TB/s_median", '
       || 'py_float(tb_s_std) AS "TB/s_std", py_float(tb_s_min) AS "TB/s_min", py_float(tb_s_max) AS "TB/s_max", '
       || 'py_float(tflops_s_mean) AS "TFLOPS/s_mean", py_float(tflops_s_median) AS "TFLOPS/s_median", '
       || 'py_float(tflops_s_std) AS "TFLOPS/s_std", py_float(tflops_s_min) AS "TFLOPS/s_min", '
       || 'py_float(tflops_s_max) AS "TFLOPS/s_max", '
       || 'process_name_first, process_label_first, thread_name_first, compute_spec AS "Compute Spec", '
       || CASE WHEN r.has_rl THEN 'py_float(roofline_time_us_first) AS "Roofline Time (µs)_first", roofline_bound_first AS "Roofline Bound_first", '
          || 'py_float(pct_roofline_mean) AS "Pct Roofline_mean", py_float(pct_roofline_median) AS "Pct Roofline_median", '
          || 'py_float(pct_roofline_std) AS "Pct Roofline_std", py_float(pct_roofline_min) AS "Pct Roofline_min", '
          || 'py_float(pct_roofline_max) AS "Pct Roofline_max", ' ELSE '' END
       || 'py_repr(kernel_details_summary) AS kernel_details__summarize_kernel_stats, '
       || 'py_repr(trunc_kernel_details) AS trunc_kernel_details, '
       || 'py_repr(input_dims_first) AS "Input Dims_first", py_repr(input_type_first) AS "Input type_first", '
       || 'py_repr(input_strides_first) AS "Input Strides_first", '
       || 'py_repr(concrete_inputs_first) AS "Concrete Inputs_first", '
       || 'py_float(kernel_time_us_mean) AS "Kernel Time (µs)_mean", '
       || 'py_float(kernel_time_us_median) AS "Kernel Time (µs)_median", '
       || 'py_float(kernel_time_us_std) AS "Kernel Time (µs)_std", '
       || 'iif(kernel_time_int, CAST(kernel_time_us_min AS INTEGER), py_float(kernel_time_us_min)) AS "Kernel Time (µs)_min", '
       || 'iif(kernel_time_int, CAST(kernel_time_us_max AS INTEGER), py_float(kernel_time_us_max)) AS "Kernel Time (µs)_max", '
       || 'iif(kernel_time_int, CAST(kernel_time_us_sum AS INTEGER), py_float(kernel_time_us_sum)) AS "Kernel Time (µs)_sum", '
       || 'name_count, uid_first AS "UID_first" '
       || printf('FROM inference_perf_sheet_summary WHERE trace_id = %d AND sheet = ''%q'' ', c.trace_id, c.sheet)
       || 'ORDER BY kernel_time_us_sum DESC, uid_first' AS sql
FROM cols c JOIN rl r ON r.trace_id = c.trace_id AND r.sheet = c.sheet
ORDER BY c.trace_id, c.sheet;
