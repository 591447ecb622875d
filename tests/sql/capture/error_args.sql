-- no trace or no folder: the usage; a label nobody has: the catalog's error
SELECT trace_merge_capture('nobody', 'tests/data/inference/merge/cap');
