-- module: inference.inference_perf_sheet_queries
-- requires: inference.inference_perf_ops, inference.inference_perf_sheet_summary, perf.gpu_arch

-- inference_perf_sheet_queries: per inference perf-model sheet, the SQL printing it as
-- TraceLens's <sheet>.csv (the rules of perf_sheet_queries, sql/perf/perf_sheet_queries.sql;
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
