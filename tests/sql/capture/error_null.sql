SELECT trace_merge_capture(NULL, 'tests/data/inference/merge/cap');
