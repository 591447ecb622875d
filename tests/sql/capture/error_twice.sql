-- a merged trace cannot take a second folder: the error says how to start again
SELECT trace_open('tests/data/inference/merge/replay.json', 'serve');
SELECT trace_merge_capture('serve', 'tests/data/inference/merge/cap');
SELECT trace_merge_capture(1, 'tests/data/inference/merge/cap');
