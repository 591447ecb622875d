-- module: kernels.report_short_kernel_histogram
-- requires: kernels.short_kernel_histogram

-- report_short_kernel_histogram: TraceLens's short_kernel_histogram.csv
-- (docs/report.md) from the short_kernel_histogram view.
CREATE TEMP VIEW IF NOT EXISTS report_short_kernel_histogram AS
SELECT trace_id,
       py_float(bin_start) AS bin_start,
       py_float(bin_end) AS bin_end,
       count
FROM short_kernel_histogram
ORDER BY trace_id, bin;
