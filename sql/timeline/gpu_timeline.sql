-- module: timeline.gpu_timeline
-- requires: timeline.gpu_timeline_rows

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
    FROM gpu_timeline_rows
)
ORDER BY trace_id, seq;
