-- report_gpu_timeline: TraceLens's gpu_timeline.csv (docs/report.md): trace_id, then
-- its columns with its cells (floats as Python's repr). Options: report_params.
CREATE TEMP VIEW IF NOT EXISTS report_gpu_timeline AS
SELECT trace_id,
       type,
       py_float(time_us / 1e3) AS "time ms",
       py_float(time_us / max(CASE WHEN type = 'total_time' THEN time_us END)
                               OVER (PARTITION BY trace_id) * 100) AS percent
FROM gpu_timeline_raw
WHERE linked_only = (SELECT coalesce(CAST(value AS INTEGER), 0) = 0 FROM report_params
                     WHERE name = 'include_unlinked_kernels')
  AND micro_idle_thresh_us = (SELECT value FROM report_params
                              WHERE name = 'micro_idle_thresh_us')
ORDER BY trace_id, seq;
