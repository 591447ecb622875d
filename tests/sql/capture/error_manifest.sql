-- a malformed execution_details.json: the error names it; nothing changes
SELECT trace_open('tests/data/inference/merge/replay.json', 'serve');
SELECT trace_merge_capture('serve', 'tests/data/inference/merge/cap_badmanifest');
