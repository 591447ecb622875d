-- 78_hta_critical_path.sql — HTA's critical path of one step or annotation instance of
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

-- hta_critical_path_edges: one row per edge of the path, in path order: its nodes and
-- their events, times (µs), HTA's edge type, weight (µs; graph_weight is what the
-- longest path used), the event it is attributed to (event_idx = index; s_name is
-- HTA's short name) and what bounds it.
CREATE TEMP VIEW IF NOT EXISTS hta_critical_path_edges_v AS
SELECT path_pos, begin_node, end_node, begin_ev, end_ev, begin_ts, end_ts, type, weight,
       graph_weight, event_idx, s_name, cat, pid, tid, stream, event_idx AS "index",
       cat AS s_cat, weight AS duration, bound_by
FROM hta_cp_edges ORDER BY path_pos;

-- hta_critical_path_summary: the path's duration per bound_by (µs) and its share of
-- the path's length (%).
CREATE TEMP VIEW IF NOT EXISTS hta_critical_path_summary_v AS
WITH e AS (SELECT bound_by, weight FROM hta_cp_edges),
b AS (SELECT bound_by, total(weight) AS duration_us FROM e GROUP BY bound_by)
SELECT bound_by, duration_us / (SELECT total(weight) FROM e) * 100 AS pct_of_duration, duration_us
FROM b ORDER BY bound_by;
