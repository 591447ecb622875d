-- CUDA event synchronisation on the critical path (tests/data/hta/make_cp_traces.py,
-- cp_sync.json; docs/hta.md): an Event Sync adds a sync edge from the kernel launched
-- last before its cudaEventRecord (same GPU and stream) to the end of the
-- cudaEventSynchronize; a Stream Wait Event makes the next kernel launched to the
-- waiting stream (same thread) wait for that kernel. Every value below is HTA's own
-- output on the trace (the ProfilerStep window is also compared file by file in make
-- test-hta, cp_oracle/cp_sync/).
SELECT trace_open('tests/data/hta/cp_sync.json', 'sync') IS NOT NULL AS opened;
-- the step: kernel_a's end -> cudaEventSynchronize's end (the blocking call's own span
-- weighs 0), then kernel_c's end -> kernel_d's start (HTA: 14 edges, 1073 µs)
SELECT path_pos, begin_node, end_node, begin_ev, end_ev, begin_ts, end_ts, type, weight, event_idx, s_name, bound_by
FROM hta_critical_path_edges('sync');
SELECT * FROM hta_critical_path_summary('sync');
-- the graph has 5 sync edges (HTA: 34 nodes, 37 edges): the two Event Syncs on op_a's
-- record, the Stream Wait Event, the Context Sync's two streams; the record on
-- stream 30 (nothing launched there before it) and the wait with no launch after it
-- add none
SELECT graph_nodes, graph_edges, count(*) AS path_edges, sum(graph_weight) AS length
FROM hta_cp_path('sync', 1, 0, 'ProfilerStep', 0);
-- op_b's window: kernel_a was launched before it (no nodes), so the Event Sync inside
-- op_b adds no edge; the stream wait still does (HTA: 18 nodes, 17 edges; path 5
-- edges, 540 µs)
SELECT graph_nodes, graph_edges FROM hta_cp_path('sync', 1, 0, 'aten::op_b', 0) LIMIT 1;
SELECT path_pos, begin_node, end_node, begin_ev, end_ev, begin_ts, end_ts, type, weight, event_idx, s_name, bound_by
FROM hta_critical_path_edges('sync', 'aten::op_b');
SELECT * FROM hta_critical_path_summary('sync', 'aten::op_b');
