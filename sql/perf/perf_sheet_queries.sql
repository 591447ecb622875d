-- module: perf.perf_sheet_queries
-- requires: perf.gpu_arch, perf.perf_sheet_ops, perf.perf_sheet_params

-- perf_sheet_queries_keyed: one row per perf-model sheet of a trace (GEMM, SDPA_fwd, ...)
-- in each report (perf_sheet_ops.report) with the SQL that prints it as TraceLens's
-- <sheet>.csv, over perf_sheet_summary_keyed. The sheets' "param: ..." columns depend on
-- the trace (order of first appearance), so the query is built here and run by the
-- report commands (perf_report_files, inference_report_files).
--   - A param cell is the parameter's text by its column's dtype over the frame
--     (perf_ops.sheet_params, docs/report.md, cell text); a missing one (None, NaN, a parameter the row's
--     model does not have) is an empty cell (docs/report.md, cell text).
--   - The inference report has a num_kernels column right after the param columns.
--   - Kernel Time (µs)_min/_max/_sum print the integer 0 when the sheet's column is
--     int64 (no row of its frames has GPU work, docs/report.md, cell text).
--   - The roofline columns (docs/report.md, Roofline columns) exist when a row of the sheet's frames got a
--     roofline against gpu_arch: right after Compute Spec, or at the end of an
--     F_bwd sheet (perf report) whose own (backward) frame has none but whose moved
--     rows' frame has.
-- perf_sheet_queries: the perf report's rows.
CREATE TEMP VIEW IF NOT EXISTS perf_sheet_queries_keyed AS
WITH psp AS MATERIALIZED (SELECT * FROM perf_sheet_params_keyed), sheets AS (
    -- per sheet: its roofline specs (perf_ops.sheet_roofline_specs: rows TraceLens later
    -- drops included), and the moved rows' ones (perf report)
    SELECT trace_id, report, report_sheet AS sheet, max(sheet_roofline_specs) AS roofline_specs,
           CASE WHEN report = 'perf' THEN max(sheet_moved_roofline_specs) END AS moved_roofline_specs
    FROM perf_sheet_ops GROUP BY trace_id, report, report_sheet
), cols AS (
    SELECT s.trace_id, s.report, s.sheet,
           (SELECT group_concat(printf('json_extract(params, ''$."%w"'') AS "param: %w"', x.param, x.param), ', ')
            FROM (SELECT param FROM psp WHERE psp.trace_id = s.trace_id AND psp.report = s.report
                  AND psp.sheet = s.sheet ORDER BY position) x) AS param_cols,
           -- 0 no roofline columns, 1 after Compute Spec, 2 at the end. A frame has them
           -- when one of its rows' Compute Specs has a peak in gpu_arch and the arch a
           -- bandwidth
           CASE WHEN EXISTS (SELECT 1 FROM json_each(s.roofline_specs) j JOIN gpu_arch a
                             ON a.compute_spec = j.value AND a.mem_bw_gbps > 0 AND a.peak_tflops > 0) THEN 1
                WHEN EXISTS (SELECT 1 FROM json_each(s.moved_roofline_specs) j JOIN gpu_arch a
                             ON a.compute_spec = j.value AND a.mem_bw_gbps > 0 AND a.peak_tflops > 0) THEN 2
                ELSE 0 END AS placement
    FROM sheets s
), rl(cols) AS (
    VALUES ('py_float(roofline_time_us_first) AS "Roofline Time (µs)_first", roofline_bound_first AS "Roofline Bound_first", '
            || 'py_float(pct_roofline_mean) AS "Pct Roofline_mean", py_float(pct_roofline_median) AS "Pct Roofline_median", '
            || 'py_float(pct_roofline_std) AS "Pct Roofline_std", py_float(pct_roofline_min) AS "Pct Roofline_min", '
            || 'py_float(pct_roofline_max) AS "Pct Roofline_max"')
)
SELECT c.trace_id, c.report, c.sheet,
       'SELECT name, ' || coalesce(c.param_cols || ', ', '')
       || CASE WHEN c.report = 'inference' THEN 'num_kernels, ' ELSE '' END
       || 'py_float(gflops_first) AS "GFLOPS_first", py_float(data_moved_mb_first) AS "Data Moved (MB)_first", '
       || 'py_float(flops_per_byte_first) AS "FLOPS/Byte_first", '
       || 'py_float(tb_s_mean) AS "TB/s_mean", py_float(tb_s_median) AS "TB/s_median", '
       || 'py_float(tb_s_std) AS "TB/s_std", py_float(tb_s_min) AS "TB/s_min", py_float(tb_s_max) AS "TB/s_max", '
       || 'py_float(tflops_s_mean) AS "TFLOPS/s_mean", py_float(tflops_s_median) AS "TFLOPS/s_median", '
       || 'py_float(tflops_s_std) AS "TFLOPS/s_std", py_float(tflops_s_min) AS "TFLOPS/s_min", '
       || 'py_float(tflops_s_max) AS "TFLOPS/s_max", '
       || 'process_name_first, process_label_first, thread_name_first, compute_spec AS "Compute Spec", '
       || CASE WHEN c.placement = 1 THEN rl.cols || ', ' ELSE '' END
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
       || CASE WHEN c.placement = 2 THEN ', ' || rl.cols || ' ' ELSE '' END
       || printf('FROM perf_sheet_summary_keyed WHERE trace_id = %d AND report = ''%q'' AND sheet = ''%q'' ',
                 c.trace_id, c.report, c.sheet)
       || 'ORDER BY appended, kernel_time_us_sum DESC, uid_first' AS sql
FROM cols c, rl
ORDER BY c.trace_id, c.report, c.sheet;

CREATE TEMP VIEW IF NOT EXISTS perf_sheet_queries AS
SELECT trace_id, sheet, sql FROM perf_sheet_queries_keyed WHERE report = 'perf' ORDER BY trace_id, sheet;
