-- a folder that does not exist (or a file): a clear error, the trace stays open as it was
SELECT trace_open('tests/data/inference/merge/replay.json', 'serve');
SELECT trace_merge_capture('serve', 'tests/data/inference/merge/replay.json');
