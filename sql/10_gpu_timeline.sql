-- 10_gpu_timeline.sql — report_params (options of the perf-report views) and the
-- gpu_timeline view (TraceLens's gpu_timeline sheet; docs/report.md).

-- report_params: one row per option, read by the report views at query time, so
--   UPDATE report_params SET value = 5 WHERE name = 'short_kernel_threshold_us';
-- changes every view that uses it (per connection: the table is TEMP). Names and
-- defaults follow TraceLens's report options. Other sql/ files may add their own rows
-- (CREATE TEMP TABLE IF NOT EXISTS with this definition, then INSERT OR IGNORE).
CREATE TEMP TABLE IF NOT EXISTS report_params(
    name TEXT PRIMARY KEY,
    value,
    doc TEXT
);
INSERT OR IGNORE INTO report_params(name, value, doc) VALUES
    ('include_unlinked_kernels', 0,
     '1: gpu_timeline (and the total time the kernel views divide by) uses every GPU event; 0: only GPU events TraceLens links to a launch (its default)'),
    ('micro_idle_thresh_us', NULL,
     'NULL: one idle_time row; a number (µs): idle split into micro_idle_time (gaps shorter than it) and macro_idle_time'),
    ('short_kernel_threshold_us', 10,
     'a kernel is short when its duration (µs) is below this (strict)'),
    ('short_kernel_histogram_bins', 100,
     'number of equal-width bins of short_kernel_histogram'),
    ('topk_short_kernels', NULL,
     'NULL: every short_kernels_summary row; N: only the first N rows per trace');

-- gpu_timeline: TraceLens's GPU timeline per trace, rows in its order.
--   type     computation_time, exposed_comm_time, exposed_memcpy_time, busy_time,
--            idle_time (or micro_idle_time, macro_idle_time), total_time,
--            total_comm_time, total_memcpy_time
--   time_ms  milliseconds
--   percent  of total_time (NULL when total_time is 0)
CREATE TEMP VIEW IF NOT EXISTS gpu_timeline AS
SELECT trace_id, type, time_ms, percent
FROM (
    SELECT trace_id, seq, type,
           time_us / 1e3 AS time_ms,
           time_us / max(CASE WHEN type = 'total_time' THEN time_us END)
                         OVER (PARTITION BY trace_id) * 100 AS percent
    FROM gpu_timeline_raw
    WHERE linked_only = (SELECT coalesce(value, 0) = 0 FROM report_params
                         WHERE name = 'include_unlinked_kernels')
      AND micro_idle_thresh_us = (SELECT value FROM report_params
                                  WHERE name = 'micro_idle_thresh_us')
)
ORDER BY trace_id, seq;
