-- Opening, reopening, naming and closing traces.
SELECT trace_open('tests/data/tree_rules.json') AS first;
SELECT trace_open('tests/data/tree_rules.json') AS same_file_same_id;
SELECT trace_open('tests/data/old_bare_array.json', 'old') AS second;
SELECT trace_id, label, format, bytes, json_bytes, events, gpu_events, rank, world_size,
       devices, gpu_name, base_time_ns, warnings, link_key, tl_compatible
FROM traces ORDER BY trace_id;
SELECT metadata FROM traces WHERE trace_id = 1;
-- a table-valued function takes an id, a label or a path
SELECT count(*) FROM events(2);
SELECT count(*) FROM events('old');
SELECT count(*) FROM events('tests/data/tree_rules.json');
SELECT trace_id, count(*) FROM events GROUP BY trace_id;
SELECT count(*) FROM kernels WHERE trace_id = 2;
SELECT trace_close('old') AS closed, trace_close('old') AS again;
SELECT trace_id, label FROM traces;
SELECT count(*) FROM events(2);
