-- The same trace as plain JSON, gzip, multi-member gzip and zip loads identically.
SELECT trace_open('tests/data/tree_rules.json', 'plain');
SELECT trace_open('tests/data/tree_rules.json.gz', 'gz');
SELECT trace_open('tests/data/tree_rules_multimember.json.gz', 'gz2');
SELECT trace_open('tests/data/tree_rules.zip', 'zip');
SELECT label, format, events, gpu_events, json_bytes FROM traces ORDER BY trace_id;
SELECT count(DISTINCT h) AS distinct_contents FROM (
  SELECT trace_id, group_concat(uid || ':' || coalesce(name, '') || ':' || coalesce(ts_ns, '')
                                || ':' || coalesce(parent_uid, ''), ',') AS h
  FROM events GROUP BY trace_id);
