-- gpu_timeline_raw with no trace open has no rows; bad arguments give clear errors
-- (the runner stops at the first error, so there is one, last)
SELECT count(*) FROM gpu_timeline_raw;
SELECT count(*) FROM gpu_timeline;
SELECT trace_open('tests/data/tree_rules.json', 'rules');
SELECT trace_close(1);
SELECT count(*) FROM gpu_timeline_raw;
SELECT trace_open('tests/data/tree_rules.json', 'rules');
SELECT * FROM gpu_timeline_raw(2, 'yes');
