-- 75_hta_events.sql — HTA's event table itself and its profiler steps (docs/hta.md).

-- hta_preprocessed_events: every row of every rank of the call after HTA's
-- preprocessing, as HTA's get_trace() holds it (ts aligned to the job's first row).
CREATE TEMP VIEW IF NOT EXISTS hta_preprocessed_events_v AS
SELECT rank, uid AS "index", cat, name, pid, tid, ts, dur, stream, correlation, index_correlation,
       iteration, memory_bw_gbps
FROM hta_events ORDER BY rank, uid;

-- hta_profiler_steps: the step numbers of rows named ProfilerStep#N that survived the
-- last-step filter, on any rank, ascending.
CREATE TEMP VIEW IF NOT EXISTS hta_profiler_steps_v AS
SELECT DISTINCT profiler_step FROM hta_step_events WHERE profiler_step >= 0 ORDER BY profiler_step;
