-- The critical path on the hand-made traces of tests/data/hta/make_cp_traces.py: the
-- summaries and path lengths are HTA's own output on them (tests/data/hta/cp_oracle/,
-- compared file by file in make test-hta); the calls with other arguments are ours.
SELECT trace_open('tests/data/hta/cp_edges.json', 'cp') IS NOT NULL AS opened;
SELECT * FROM hta_critical_path_summary;
-- the path in order: edge types, attributed events, bounds
SELECT path_pos, type, weight, event_idx, s_name, bound_by FROM hta_critical_path_edges;
-- the whole trace ('' annotation) gives the same path here; the step's GPU copy
-- (instance 1, in event order) spans 100..950 µs: only the backward op starts in it
-- (HTA: 3 edges, 530 µs)
SELECT count(*) AS edges, sum(graph_weight) AS length FROM hta_critical_path_edges('cp', '');
SELECT count(*) AS edges, sum(graph_weight) AS length, min(begin_ts) AS start FROM hta_critical_path_edges('cp', 'ProfilerStep', 1);
-- a rank the call does not have: no rows; rank NULL is the call's first (here 0)
SELECT count(*) AS rows_rank_1 FROM hta_critical_path_edges('cp', 'ProfilerStep', 0, 1);
SELECT count(*) AS rows_rank_null FROM hta_critical_path_edges('cp', 'ProfilerStep', 0, NULL);
-- the core table: graph size, absolute times
SELECT graph_nodes, graph_edges, count(*) AS path_edges, min(begin_ts) AS start_abs
FROM hta_cp_path('cp', 1, 0, 'ProfilerStep', 0);
-- the ns trace: rounding and the last-step filter on (HTA's defaults), and off
SELECT trace_open('tests/data/hta/cp_ns.json', 'ns') IS NOT NULL AS opened;
SELECT * FROM hta_critical_path_summary('ns');
SELECT count(*) AS edges, sum(graph_weight) AS length FROM hta_critical_path_edges('ns', 'ProfilerStep', 0, NULL, 0, 0);
SELECT count(*) AS edges, sum(graph_weight) AS length FROM hta_critical_path_edges('ns', 'ProfilerStep#2', 0, NULL, 1, 0);
-- with the filter (HTA's default) the second step is cut: tests/hta/errors.sql
