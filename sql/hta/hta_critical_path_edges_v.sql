-- module: hta.hta_critical_path_edges_v
-- requires: hta.hta_cp_edges

-- hta_critical_path_edges: one row per edge of the path, in path order: its nodes and
-- their events, times (µs), HTA's edge type, weight (µs; graph_weight is what the
-- longest path used), the event it is attributed to (event_idx = index; s_name is
-- HTA's short name) and what bounds it.
CREATE TEMP VIEW IF NOT EXISTS hta_critical_path_edges_v AS
SELECT path_pos, begin_node, end_node, begin_ev, end_ev, begin_ts, end_ts, type, weight,
       graph_weight, event_idx, s_name, cat, pid, tid, stream, event_idx AS "index",
       cat AS s_cat, weight AS duration, bound_by
FROM hta_cp_edges ORDER BY path_pos;
