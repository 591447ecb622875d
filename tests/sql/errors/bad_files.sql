-- Bad input gives an error naming the file and the byte offset, and opens nothing.
-- (.bail is off here so that every statement runs.)
.bail off
SELECT trace_open('tests/data/bad_truncated.json');
SELECT trace_open('tests/data/bad_truncated.json.gz');
SELECT trace_open('tests/data/bad_corrupt.json.gz');
SELECT trace_open('tests/data/bad_empty.json');
SELECT trace_open('tests/data/bad_not_trace.json');
SELECT trace_open('tests/data/bad_syntax.json');
SELECT trace_open('tests/data/no_such_file.json');
SELECT * FROM events('tests/data/bad_truncated.json');
SELECT count(*) AS open_traces FROM traces;
SELECT trace_open(NULL);
SELECT count(*) FROM events(42);
SELECT tracesql_config('nonsense');
-- a metadata-only trace is valid and empty
SELECT trace_open('tests/data/metadata_only.json');
SELECT events, gpu_events FROM traces;
