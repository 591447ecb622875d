-- module: kernels.kernel_int_durations

-- kernel_int_durations: per trace, whether every kernel's duration is a whole number of
-- µs. pandas then reads TraceLens's duration column as integers, so the report prints
-- its sums, minima and maxima without ".0" (report_kernel_summary,
-- report_short_kernels_summary).
CREATE TEMP VIEW IF NOT EXISTS kernel_int_durations AS
SELECT trace_id,
       NOT EXISTS (SELECT 1 FROM kernels k
                   WHERE k.trace_id = t.trace_id AND k.kind = 'kernel'
                     AND k.dur_ns % 1000 <> 0) AS int_dur
FROM traces t;
