-- The perf-report tables on the bundled demo trace (a few transformer layers with
-- forward and backward): launcher counts, the top of each sheet, the fwd/bwd split of
-- the perf-model sheets, and the statistics functions.
SELECT trace_open('examples/demo_trace.json.gz') AS id;
SELECT count(*) AS launchers, round(sum(total_direct_kernel_time), 3) AS direct_us,
       sum(direct_kernel_count) AS kernels
FROM kernel_launchers;
SELECT rank, name, round(total_direct_kernel_time_sum, 3) AS direct_us, count, categories
FROM ops_summary WHERE rank <= 8;
SELECT op_category, count, round(total_direct_kernel_time_ms, 6) AS ms,
       round(cumulative_percentage, 4) AS cum
FROM ops_summary_by_category;
SELECT sheet, direction, count(*) AS instances, round(sum(kernel_time_us), 3) AS kernel_us
FROM perf_ops GROUP BY sheet, direction ORDER BY sheet, direction;
SELECT sheet, name, params, round(gflops_first, 6) AS gflops, name_count, uid_first,
       round(kernel_time_us_sum, 3) AS kernel_us
FROM perf_sheet_summary WHERE sheet IN ('GEMM', 'SDPA_fwd', 'SDPA_bwd') ORDER BY sheet, kernel_time_us_sum DESC;
SELECT sheet, group_concat(param, ' ') AS params FROM perf_sheet_params GROUP BY sheet ORDER BY sheet;
SELECT name, op_category, operation_count, has_perf_model, round(kernel_time_us_sum, 3) AS kernel_us
FROM unified_perf_summary LIMIT 10;
SELECT name, operation_count, round(total_direct_kernel_time_mean, 4) AS mean,
       round(total_direct_kernel_time_std, 4) AS std, ex_uid, trunc_kernel_details
FROM ops_unique_args LIMIT 5;
SELECT median(x) AS med, round(stdev(x), 6) AS sd, round(stdev_pop(x), 6) AS sdp, first(x, o) AS f
FROM (SELECT 3.0 AS x, 2 AS o UNION ALL SELECT 1.0, 3 UNION ALL SELECT NULL, 0 UNION ALL SELECT 8.0, 1);
SELECT kernel_details_summary(kd, o) AS s FROM (
    SELECT '[{"name":"a","dur":1.0,"stream":7},{"name":"b","dur":4.0,"stream":7}]' AS kd, 2 AS o
    UNION ALL SELECT '[{"name":"x","dur":3.0,"stream":7},{"name":"y","dur":2.0,"stream":null}]', 1
    UNION ALL SELECT '[{"name":"z","dur":9.0,"stream":7}]', 0
    UNION ALL SELECT '[]', -1);
-- durations written as ints (Kineto before 2024) stay ints in sums, minima and maxima;
-- means, medians and stds are floats, as numpy gives them (Python prints 9 and 9.0)
SELECT py_repr(kernel_details_summary('[{"name":"z","dur":9,"stream":7}]')) AS ints,
       py_repr(trunc_kernel_details('[{"name":"z","stream":7,"mean_duration_us":4}]')) AS trunc;
SELECT trunc_kernel_details('[{"name":"' || printf('%.70c', 'k') || '","stream":7,"mean_duration_us":0.125}]') AS t;
