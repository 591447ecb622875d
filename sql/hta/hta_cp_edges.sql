-- module: hta.hta_cp_edges
-- requires: hta.hta_info, hta.hta_job

-- HTA's critical path of one step or annotation instance of
-- one rank (docs/hta.md), over the path hta_cp_path computes
-- (core/analysis/hta_critical_path.c).

-- hta_cp_edges: the path of the call's rank (its first rank when rank is NULL), its window given by annotation and
-- instance_id, on the rows after the last-step filter; ts aligned to the job's first row.
CREATE TEMP VIEW IF NOT EXISTS hta_cp_edges AS
SELECT p.path_pos, p.begin_node, p.end_node, p.begin_ev, p.end_ev,
       p.begin_ts - j.min_ts AS begin_ts, p.end_ts - j.min_ts AS end_ts, p.type, p.weight,
       p.graph_weight, p.event_idx, p.s_name, p.cat, p.pid, p.tid, p.stream, p.bound_by
FROM hta_info i CROSS JOIN hta_job j CROSS JOIN hta_cp_path p
WHERE i.rank = coalesce(hta_arg('rank'), (SELECT min(rank) FROM hta_info)) AND p.trace_id = i.trace_id
  AND p.time_rounding = hta_arg('time_rounding') AND p.kept_only = j.filtered
  AND p.annotation = hta_arg('annotation') AND p.instance_id = hta_arg('instance_id');
