-- The trace argument: a REAL equal to a trace_id names that trace, like the integer
-- (trace_id = 2.0 already matches trace 2); any other REAL names none.
SELECT trace_open('tests/data/tree_rules.json') AS t1, trace_open('tests/sql/collectives/coll.json') AS t2;
SELECT 'events(2)' AS q, count(*), min(trace), max(trace_id) FROM events(2);
SELECT 'events(2.0)' AS q, count(*), min(trace), max(trace_id) FROM events(2.0);
SELECT 'collectives(2.0)' AS q, count(*), min(trace) FROM collectives(2.0);
SELECT 'gpu_timeline_raw(1.0, 0)' AS q, count(*), min(trace) FROM gpu_timeline_raw(1.0, 0);
SELECT 'trace_close(2.0)' AS q, trace_close(2.0) AS closed, (SELECT group_concat(trace_id) FROM traces) AS open;
SELECT count(*) FROM events(1.5);
