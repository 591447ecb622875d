-- module: hta.hta_profiler_steps_v
-- requires: hta.hta_step_events

-- hta_profiler_steps: the step numbers of rows named ProfilerStep#N that survived the
-- last-step filter, on any rank, ascending.
CREATE TEMP VIEW IF NOT EXISTS hta_profiler_steps_v AS
SELECT DISTINCT profiler_step FROM hta_step_events WHERE profiler_step >= 0 ORDER BY profiler_step;
