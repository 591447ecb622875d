-- module: hta.hta_step_events
-- requires: hta.hta_info, hta.hta_job

CREATE TEMP VIEW IF NOT EXISTS hta_step_events AS
SELECT i.rank, e.trace_id, e.uid, e.name, e.profiler_step
FROM hta_info i CROSS JOIN hta_job j CROSS JOIN hta_rows e
WHERE e.trace_id = i.trace_id AND e.time_rounding = hta_arg('time_rounding') AND e.subset = 'steps'
  AND (NOT j.filtered OR e.keep);
