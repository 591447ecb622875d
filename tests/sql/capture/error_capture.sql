-- a capture file the manifest names that is not a trace: the error names the file and
-- the byte; the open trace is left as it was
SELECT trace_open('tests/data/inference/merge/replay.json', 'serve');
SELECT count(*) FROM events('serve');
SELECT trace_merge_capture('serve', 'tests/data/inference/merge/cap_badtrace');
