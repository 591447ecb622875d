-- module: hta.hta_launch_events
-- requires: hta.hta_info, hta.hta_job

-- launch_class bits: 8 launch-stats kernel launches, 16 memcpy/memset launches,
-- 32 queue-length launches, 64 ATen-op launches (core/analysis/hta.h)
CREATE TEMP VIEW IF NOT EXISTS hta_launch_events AS
SELECT i.rank, e.trace_id, e.uid, e.name, e.pid, e.tid, e.ts - j.min_ts AS ts, e.dur, e.stream,
       e.correlation, e.index_correlation, e.launch_class
FROM hta_info i CROSS JOIN hta_job j CROSS JOIN hta_rows e
WHERE e.trace_id = i.trace_id AND e.time_rounding = hta_arg('time_rounding') AND e.subset = 'launch'
  AND (NOT j.filtered OR e.keep);
