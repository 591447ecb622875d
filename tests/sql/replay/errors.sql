-- replay_script() errors: events that are no op call, ops without recorded shapes,
-- unknown uids and traces, a uid that is not an integer; and a view cannot call it
-- (it may open files: SQLITE_DIRECTONLY).
.bail off
SELECT trace_open('tests/sql/replay/ops.json', 'ops') AS id;
SELECT replay_script('ops', 18);
SELECT replay_script('ops', 16);
SELECT replay_script('ops', 17);
SELECT replay_script('ops', 99);
SELECT replay_script('ops', -1);
SELECT replay_script('ops', 'x');
SELECT replay_script('no_such_trace', 0);
SELECT replay_script(42, 0);
CREATE TEMP VIEW v AS SELECT replay_script('ops', 0) AS s;
SELECT length(s) > 0 FROM v;
CREATE VIEW main.v2 AS SELECT replay_script('ops', 0) AS s;
SELECT length(s) > 0 FROM main.v2;
