-- A key compares as an INTEGER column does: 5, 5.0 and '5' find the same rows; 5.5,
-- 'x' and NULL find none (and are no error). Two traces open, so uid alone matches
-- one row per trace.
SELECT trace_open('tests/data/tree_rules.json') AS t1, trace_open('tests/data/tree_rules.json.gz') AS t2;
SELECT 'uid=5' AS q, count(*), group_concat(trace_id || ':' || name) FROM events WHERE uid = 5;
SELECT 'uid=5.0' AS q, count(*), group_concat(trace_id || ':' || name) FROM events WHERE uid = 5.0;
SELECT 'uid=''5''' AS q, count(*), group_concat(trace_id || ':' || name) FROM events WHERE uid = '5';
SELECT 'uid=5.5' AS q, count(*) FROM events WHERE uid = 5.5;
SELECT 'uid=''x''' AS q, count(*) FROM events WHERE uid = 'x';
SELECT 'uid=NULL' AS q, count(*) FROM events WHERE uid = NULL;
SELECT 'trace_id=1.0' AS q, count(*) FROM events WHERE trace_id = 1.0;
SELECT 'trace_id=''2''' AS q, count(*) FROM events WHERE trace_id = '2';
SELECT 'trace_id=1.5' AS q, count(*) FROM events WHERE trace_id = 1.5;
SELECT 'parent_uid=0' AS q, group_concat(uid) FROM events WHERE trace_id = 1 AND parent_uid = 0;
SELECT 'parent_uid=0.0' AS q, group_concat(uid) FROM events WHERE trace_id = 1 AND parent_uid = 0.0;
SELECT 'parent_uid=''0''' AS q, group_concat(uid) FROM events WHERE trace_id = 1 AND parent_uid = '0';
SELECT 'correlation=50.0' AS q, group_concat(uid) FROM events WHERE trace_id = 1 AND correlation = 50.0;
SELECT 'kernels uid=''20''' AS q, group_concat(trace_id || ':' || uid) FROM kernels WHERE uid = '20';
SELECT 'edges child=''1''' AS q, group_concat(trace_id || ':' || parent_uid) FROM tree_edges WHERE child_uid = '1.0';
-- the hidden trace column reads back as the trace id in every per-trace table
SELECT DISTINCT 'trace column' AS q, trace FROM events('tests/data/tree_rules.json.gz');
SELECT DISTINCT 'trace column' AS q, trace FROM kernels('tests/data/tree_rules.json.gz');
SELECT DISTINCT 'trace column' AS q, trace FROM collectives('tests/sql/collectives/coll.json');
SELECT DISTINCT 'trace column' AS q, trace FROM gpu_timeline_raw('tests/data/tree_rules.json.gz');
