-- Each error says what to do; the texts are pinned here (docs/clients/README.md).
.bail off
-- no trace open: the views are empty, and tracesql_status says why and what to do
SELECT count(*) AS gpu_timeline_rows FROM gpu_timeline;
SELECT open_traces, labels, message FROM tracesql_status;
-- a missing file, a directory, a path through a file
SELECT trace_open('tests/data/no_such_file.json');
SELECT trace_open('tests/data');
SELECT trace_open('tests/data/bad_empty.json/inner.json');
-- files that are not traces: which key or element was expected where
SELECT trace_open('tests/data/bad_not_trace.json');
SELECT trace_open('tests/data/bad_events_not_array.json');
SELECT trace_open('tests/data/bad_array_of_numbers.json');
-- an unknown label lists the labels that are open
SELECT trace_open('tests/data/tree_rules.json', 'rules');
SELECT count(*) FROM kernels('nosuch');
SELECT open_traces, labels, message FROM tracesql_status;
-- an export to a folder that does not exist, or onto a directory
SELECT trace_export('rules', 'build/no_such_dir/run.db');
SELECT trace_export('rules', 'tests');
