-- module: hta.hta_device_events
-- requires: hta.hta_info, hta.hta_job

CREATE TEMP VIEW IF NOT EXISTS hta_device_events AS
SELECT i.rank, e.trace_id, e.uid, e.cat, e.name, e.pid, e.tid, e.ts - j.min_ts AS ts, e.dur,
       e.stream, e.correlation, e.index_correlation, e.kernel_type, e.memory_bw_gbps,
       CASE WHEN NOT j.filtered OR e.partner_keep THEN e.partner_ts - j.min_ts END AS partner_ts
FROM hta_info i CROSS JOIN hta_job j CROSS JOIN hta_rows e
WHERE e.trace_id = i.trace_id AND e.time_rounding = hta_arg('time_rounding') AND e.subset = 'device'
  AND (NOT j.filtered OR e.keep);
