-- module: kernels.report_kernel_summary
-- requires: kernels.kernel_int_durations, kernels.kernel_summary

-- report_kernel_summary: TraceLens's kernel_summary.csv (docs/report.md) from the
-- kernel_summary view. As pandas writes them: a stream column with a missing value is
-- a float column ("7.0"); durations that are all whole numbers were read as ints, so
-- their sum, min and max print without ".0".
CREATE TEMP VIEW IF NOT EXISTS report_kernel_summary AS
WITH s AS (
    SELECT *, max(stream IS NULL) OVER (PARTITION BY trace_id) AS float_stream
    FROM kernel_summary
),
f AS MATERIALIZED (SELECT * FROM kernel_int_durations)
SELECT s.trace_id,
       parent_op_category AS "Parent op category",
       parent_op AS "Parent cpu_op",
       kernel_name AS "Kernel name",
       CASE WHEN float_stream THEN py_float(stream) ELSE stream END AS "Kernel stream",
       CASE WHEN int_dur THEN CAST(dur_sum_us AS INTEGER) ELSE py_float(dur_sum_us) END
           AS "Kernel duration (µs)_sum",
       count AS "Kernel duration (µs)_count",
       py_float(dur_mean_us) AS "Kernel duration (µs)_mean",
       CASE WHEN int_dur THEN CAST(dur_min_us AS INTEGER) ELSE py_float(dur_min_us) END
           AS "Kernel duration (µs)_min",
       CASE WHEN int_dur THEN CAST(dur_max_us AS INTEGER) ELSE py_float(dur_max_us) END
           AS "Kernel duration (µs)_max",
       py_float(pct_of_kernels_time) AS "Percent of kernels time (%)",
       py_float(pct_of_total_time) AS "Percent of total time (%)"
FROM s JOIN f USING (trace_id)
ORDER BY s.trace_id, dur_sum_us DESC, parent_op_category NULLS LAST, parent_op NULLS LAST,
         kernel_name NULLS LAST, stream NULLS LAST;
