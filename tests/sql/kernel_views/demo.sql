-- kernel views on the bundled demo trace (kernel names cut to 40 characters here)
SELECT trace_open('examples/demo_trace.json.gz');
.print '-- kernel_summary'
SELECT parent_op_category, parent_op, substr(kernel_name, 1, 40) AS kernel, stream,
       dur_sum_us, count, dur_mean_us, dur_min_us, dur_max_us, pct_of_kernels_time,
       pct_of_total_time
FROM kernel_summary;
.print '-- the percentages add up to 100'
SELECT round(sum(pct_of_kernels_time), 9) AS all_kernels FROM kernel_summary;
.print '-- report_kernel_summary, first rows'
SELECT "Parent op category", "Parent cpu_op", substr("Kernel name", 1, 40) AS kernel,
       "Kernel stream", "Kernel duration (µs)_sum", "Kernel duration (µs)_count",
       "Kernel duration (µs)_mean", "Percent of kernels time (%)", "Percent of total time (%)"
FROM report_kernel_summary LIMIT 8;
.print '-- short_kernels_summary'
SELECT parent_op, input_dims, input_strides, concrete_inputs, substr(kernel_name, 1, 40) AS kernel,
       dur_sum_us, count, dur_mean_us, pct_of_total_time, ex_uid
FROM short_kernels_summary;
.print '-- report_short_kernels_summary: arguments as Python tuples'
SELECT "Parent cpu_op", "Input dims", "Input strides", "Concrete Inputs",
       "Short Kernel duration (µs) sum", "Short Kernel count"
FROM report_short_kernels_summary;
.print '-- top 3 only'
UPDATE report_params SET value = 3 WHERE name = 'topk_short_kernels';
SELECT parent_op, count FROM short_kernels_summary;
.print '-- short_kernel_histogram: non-empty bins'
SELECT * FROM short_kernel_histogram WHERE count > 0;
SELECT count(*) AS bins, sum(count) AS kernels FROM short_kernel_histogram;
