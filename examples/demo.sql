-- make demo: the perf report of the bundled demo trace (examples/demo_trace.json.gz).
-- Run by hand:  sqlite3 :memory: -cmd '.load build/tracesql' < examples/demo.sql
-- The same sheets as TraceLens CSVs:  tools/tracesql-perf-report examples/demo_trace.json.gz out/ (installed: tracesql-perf-report)
.headers on
.mode table
SELECT trace_open('examples/demo_trace.json.gz', 'demo') AS trace_id;
SELECT label, format, events, gpu_events, gpu_name, round(load_seconds * 1000, 1) AS load_ms
FROM traces;

.print
.print GPU timeline (all streams pooled; TraceLens's gpu_timeline)
SELECT type, round(time_ms, 3) AS time_ms, round(percent, 2) AS percent FROM gpu_timeline;

.print
.print GPU time by op category (ops_summary_by_category)
SELECT op_category, count, round(total_direct_kernel_time_ms, 3) AS ms,
       round(percentage, 2) AS pct FROM ops_summary_by_category;

.print
.print Top ops by direct GPU kernel time (ops_summary)
SELECT name, count, round(total_direct_kernel_time_ms, 3) AS direct_ms,
       round(total_subtree_kernel_time_ms, 3) AS subtree_ms, categories,
       round(cumulative_percentage, 1) AS cum_pct
FROM ops_summary LIMIT 10;

.print
.print Top kernels (kernel_summary)
SELECT parent_op_category AS category, parent_op,
       CASE WHEN length(kernel_name) > 50 THEN substr(kernel_name, 1, 47) || '...'
            ELSE kernel_name END AS kernel,
       count, round(dur_sum_us, 1) AS total_us, round(pct_of_total_time, 2) AS pct_time
FROM kernel_summary LIMIT 8;

.print
.print GEMMs against the roofline of the trace's GPU (perf_sheet_summary + perf_roofline)
SELECT r.name, json_extract(r.params, '$.M') AS M, json_extract(r.params, '$.N') AS N,
       json_extract(r.params, '$.K') AS K, count(*) AS n,
       round(avg(r.kernel_time_us), 1) AS mean_us, round(avg(r.tflops_s), 1) AS tflops_s,
       r.gpu, min(r.roofline_bound) AS bound, round(avg(r.pct_roofline), 1) AS pct_roofline
FROM roofline_gemm r GROUP BY r.name, r.params ORDER BY sum(r.kernel_time_us) DESC LIMIT 8;

.print
.print Where GPU time goes, highest modelled op first (unified_perf_summary)
SELECT name, op_category, operation_count AS n, round(kernel_time_us_sum, 1) AS kernel_us,
       round(tflops_s_mean, 1) AS tflops_s, round(tb_s_mean, 3) AS tb_s,
       round(cumulative_percentage, 1) AS cum_pct
FROM unified_perf_summary LIMIT 10;
