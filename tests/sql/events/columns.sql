-- Column values of a few events, the args round trip and the query plans.
SELECT trace_open('tests/data/tree_rules.json') AS id;
SELECT uid, ph, cat, kind, name, pid, tid, ts, dur, ts_ns, dur_ns, end_ns, stream, device,
       correlation, external_id, flow_id, flow_bp, seq, python_id, python_parent_id
FROM events(1) WHERE uid IN (1, 3, 7, 20, 21, 33, 34) ORDER BY uid;
SELECT uid, input_dims, input_type, input_strides, concrete_inputs, args
FROM events(1) WHERE uid IN (1, 20, 33, 34);
SELECT typeof(pid), typeof(tid), count(*) FROM events(1) GROUP BY 1, 2;
-- lookups are index plans, not scans
EXPLAIN QUERY PLAN SELECT * FROM events WHERE trace_id = 1 AND uid = 5;
EXPLAIN QUERY PLAN SELECT * FROM events WHERE trace_id = 1 AND parent_uid = 5;
EXPLAIN QUERY PLAN SELECT * FROM events WHERE trace_id = 1 AND correlation = 5;
EXPLAIN QUERY PLAN SELECT * FROM kernels('x') WHERE uid = 5;
