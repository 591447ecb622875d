-- module: kernels.report_short_kernels_summary
-- requires: kernels.kernel_int_durations, kernels.short_kernels_summary

-- report_short_kernels_summary: TraceLens's short_kernels_summary.csv
-- (docs/report.md) from the short_kernels_summary view: argument columns as Python
-- tuples, sums as ints when every kernel duration of the trace is a whole number.
CREATE TEMP VIEW IF NOT EXISTS report_short_kernels_summary AS
WITH s AS MATERIALIZED (SELECT * FROM short_kernels_summary),
f AS MATERIALIZED (SELECT * FROM kernel_int_durations)
SELECT s.trace_id,
       parent_op AS "Parent cpu_op",
       py_repr(input_dims, 1) AS "Input dims",
       py_repr(input_strides, 1) AS "Input strides",
       py_repr(concrete_inputs, 1) AS "Concrete Inputs",
       kernel_name AS "Kernel name",
       CASE WHEN int_dur THEN CAST(dur_sum_us AS INTEGER) ELSE py_float(dur_sum_us) END
           AS "Short Kernel duration (µs) sum",
       count AS "Short Kernel count",
       py_float(dur_mean_us) AS "Short Kernel duration (µs) mean",
       py_float(pct_of_total_time) AS "Short Kernel duration (µs) percent of total time"
FROM s JOIN f USING (trace_id)
ORDER BY s.trace_id, dur_sum_us DESC, count, dur_mean_us, pct_of_total_time, ex_uid;
