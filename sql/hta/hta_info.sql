-- module: hta.hta_info
-- requires: hta.hta_scope

-- hta_info: per trace of the call: rounding applied, first row's ts, step names.
CREATE TEMP VIEW IF NOT EXISTS hta_info AS
SELECT s.trace_id, s.rank, i.rounded, i.min_ts, i.step_names
FROM hta_scope s CROSS JOIN hta_trace_info i
WHERE i.trace_id = s.trace_id AND i.time_rounding = hta_arg('time_rounding');
