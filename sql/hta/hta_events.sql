-- module: hta.hta_events
-- requires: hta.hta_info, hta.hta_job

-- hta_rows_of(subset): the rows of the call after the filter, ts aligned; one view
-- per subset so each scan reads only what it needs. partner_ts: the ts of the row at
-- index_correlation, NULL when the filter removed it.
CREATE TEMP VIEW IF NOT EXISTS hta_events AS
SELECT i.rank, e.trace_id, e.uid, e.cat, e.name, e.pid, e.tid, e.ts - j.min_ts AS ts, e.dur,
       e.stream, e.correlation, e.index_correlation, e.iteration, e.kernel_type, e.gpu_side,
       e.launch_class, e.profiler_step, e.memory_bw_gbps
FROM hta_info i CROSS JOIN hta_job j CROSS JOIN hta_rows e
WHERE e.trace_id = i.trace_id AND e.time_rounding = hta_arg('time_rounding') AND e.subset = 'all'
  AND (NOT j.filtered OR e.keep);
