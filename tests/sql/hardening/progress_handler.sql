-- The application's progress handler (sqlite3_progress_handler; the shell's .progress)
-- is called while trace_open loads, and stops the load when it returns non-zero: a
-- timeout or cancel button works on trace_open as on any long statement (issue 26).
.bail off
.progress 1000 --limit 1
SELECT trace_open('examples/demo_trace.json.gz');
.progress 0
SELECT count(*) AS open_after_the_stop FROM traces;
SELECT trace_open('examples/demo_trace.json.gz') > 0 AS loads_without_handler;
-- a handler that never stops the load changes nothing
.progress 1000000
SELECT trace_open('tests/data/tree_rules.json') > 0 AS loads_with_a_patient_handler;
-- trace_open_dir too: its loader threads cannot run SQL, the calling thread asks
SELECT sum(trace_close(trace_id)) AS closed FROM traces;
.progress 1000 --limit 1
SELECT trace_open_dir('["examples/demo_trace.json.gz"]');
.progress 0
SELECT count(*) AS open_after_the_stop FROM traces WHERE path = 'examples/demo_trace.json.gz';
