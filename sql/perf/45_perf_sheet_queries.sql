-- perf_sheet_queries: one row per perf-model sheet of a trace (GEMM, SDPA_fwd, ...)
-- with the SQL that prints it as TraceLens's <sheet>.csv. The sheets' "param: ..."
-- columns depend on the trace (order of first appearance), so the query is built
-- here and run by examples/perf_report.sh. A parameter the row's model does not have
-- prints as nan; a None value as an empty cell, except in a sheet whose rows have
-- different parameter sets, where TraceLens's grouping turned every parameter into
-- text and None prints as None (timesformer's UnaryElementwise reference).
CREATE TEMP VIEW IF NOT EXISTS perf_sheet_queries AS
WITH psp AS MATERIALIZED (SELECT * FROM perf_sheet_params), np AS (
    SELECT trace_id, sheet, count(*) AS n FROM psp GROUP BY trace_id, sheet
), mixed AS (
    -- 1 for a sheet whose rows have different parameter sets (some print nan); each
    -- distinct params text counted once
    SELECT o.trace_id, o.sheet, max((SELECT count(*) FROM json_each(o.params)) < np.n) AS mixed
    FROM (SELECT DISTINCT trace_id, sheet, params FROM perf_ops) o
    JOIN np ON np.trace_id = o.trace_id AND np.sheet = o.sheet
    GROUP BY o.trace_id, o.sheet
), cols AS (
    SELECT p.trace_id, p.sheet,
           group_concat(printf('CASE WHEN json_type(params, ''$."%w"'') IS NULL THEN ''nan'' '
                               || 'WHEN json_type(params, ''$."%w"'') = ''null'' THEN %s '
                               || 'ELSE json_extract(params, ''$."%w"'') END AS "param: %w"',
                               p.param, p.param, CASE WHEN m.mixed THEN '''None''' ELSE 'NULL' END,
                               p.param, p.param), ', ')
             AS param_cols
    FROM (SELECT * FROM psp ORDER BY trace_id, sheet, position) p
    JOIN mixed m ON m.trace_id = p.trace_id AND m.sheet = p.sheet
    GROUP BY p.trace_id, p.sheet
)
SELECT trace_id, sheet,
       'SELECT name, ' || coalesce(param_cols || ', ', '') ||
       'py_float(gflops_first) AS "GFLOPS_first", py_float(data_moved_mb_first) AS "Data Moved (MB)_first", '
       || 'py_float(flops_per_byte_first) AS "FLOPS/Byte_first", '
       || 'py_float(tb_s_mean) AS "TB/s_mean", py_float(tb_s_median) AS "TB/s_median", '
       || 'py_float(tb_s_std) AS "TB/s_std", py_float(tb_s_min) AS "TB/s_min", py_float(tb_s_max) AS "TB/s_max", '
       || 'py_float(tflops_s_mean) AS "TFLOPS/s_mean", py_float(tflops_s_median) AS "TFLOPS/s_median", '
       || 'py_float(tflops_s_std) AS "TFLOPS/s_std", py_float(tflops_s_min) AS "TFLOPS/s_min", '
       || 'py_float(tflops_s_max) AS "TFLOPS/s_max", '
       || 'process_name_first, process_label_first, thread_name_first, compute_spec AS "Compute Spec", '
       || 'py_repr(kernel_details_summary) AS kernel_details__summarize_kernel_stats, '
       || 'py_repr(trunc_kernel_details) AS trunc_kernel_details, '
       || 'py_repr(input_dims_first) AS "Input Dims_first", py_repr(input_type_first) AS "Input type_first", '
       || 'py_repr(input_strides_first) AS "Input Strides_first", '
       || 'py_repr(concrete_inputs_first) AS "Concrete Inputs_first", '
       || 'py_float(kernel_time_us_mean) AS "Kernel Time (µs)_mean", '
       || 'py_float(kernel_time_us_median) AS "Kernel Time (µs)_median", '
       || 'py_float(kernel_time_us_std) AS "Kernel Time (µs)_std", '
       || 'py_float(kernel_time_us_min) AS "Kernel Time (µs)_min", '
       || 'py_float(kernel_time_us_max) AS "Kernel Time (µs)_max", '
       || 'py_float(kernel_time_us_sum) AS "Kernel Time (µs)_sum", '
       || 'name_count, uid_first AS "UID_first" '
       || printf('FROM perf_sheet_summary WHERE trace_id = %d AND sheet = ''%q'' ', trace_id, sheet)
       || 'ORDER BY appended, kernel_time_us_sum DESC, uid_first' AS sql
FROM cols
ORDER BY trace_id, sheet;
