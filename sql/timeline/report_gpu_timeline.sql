-- module: timeline.report_gpu_timeline
-- requires: timeline.gpu_timeline_rows

-- report_gpu_timeline: TraceLens's gpu_timeline.csv (docs/report.md): trace_id, then
-- its columns with its cells (floats as Python's repr). Options: report_params.
CREATE TEMP VIEW IF NOT EXISTS report_gpu_timeline AS
SELECT trace_id,
       type,
       py_float(time_us / 1e3) AS "time ms",
       py_float(time_us / max(CASE WHEN type = 'total_time' THEN time_us END)
                               OVER (PARTITION BY trace_id) * 100) AS percent
FROM gpu_timeline_rows
ORDER BY trace_id, seq;
