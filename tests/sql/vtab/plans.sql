-- Which constraints each table takes over (EXPLAIN QUERY PLAN names idxNum, the
-- TSQL_PLAN_* bits of ext/vtab/table.h): 0x04 uid, 0x08 parent, 0x10 correlation,
-- 0x20 an indexed key column (its number from bit 16 up), 0x40/0x80 uid lower/upper
-- bound, 0x100 uid = ? as both bounds, 0x200/0x400 further arguments; and the rows
-- they give.
SELECT trace_open('tests/data/tree_rules.json') AS t1, trace_open('tests/data/tree_rules.json.gz') AS t2;
.mode list
EXPLAIN QUERY PLAN SELECT * FROM events WHERE uid = 5;
EXPLAIN QUERY PLAN SELECT * FROM events WHERE trace_id = 1 AND uid = 5;
EXPLAIN QUERY PLAN SELECT * FROM events WHERE uid BETWEEN 3 AND 6;
EXPLAIN QUERY PLAN SELECT * FROM events WHERE uid > 30;
EXPLAIN QUERY PLAN SELECT * FROM kernels WHERE launcher_uid = 2;
EXPLAIN QUERY PLAN SELECT * FROM kernels WHERE op_uid = 1;
EXPLAIN QUERY PLAN SELECT * FROM kernels WHERE uid < 22;
EXPLAIN QUERY PLAN SELECT * FROM perf_ops WHERE uid = 1;
EXPLAIN QUERY PLAN SELECT * FROM unified_ops WHERE uid = 1;
EXPLAIN QUERY PLAN SELECT * FROM trace_warnings WHERE uid = 5;
EXPLAIN QUERY PLAN SELECT * FROM kernel_launchers WHERE uid >= 10;
EXPLAIN QUERY PLAN SELECT * FROM trace_warnings WHERE +uid = 5 AND uid BETWEEN 5 AND 5.0;
EXPLAIN QUERY PLAN SELECT * FROM collectives WHERE uid = 5;
-- gpu_timeline_raw's further arguments; its rows need no sort for ORDER BY trace_id, seq
EXPLAIN QUERY PLAN SELECT * FROM gpu_timeline_raw(1, 0, 50) ORDER BY trace_id, seq;
EXPLAIN QUERY PLAN SELECT * FROM gpu_timeline_raw ORDER BY type;
.mode csv
-- ranges give exactly the rows a scan filtered by SQLite gives (the +uid form is not
-- pushed down), also with REAL and TEXT bounds
SELECT 'events between' AS q, group_concat(trace_id || ':' || uid) FROM events WHERE uid BETWEEN 3 AND 6;
SELECT 'events between +' AS q, group_concat(trace_id || ':' || uid) FROM events WHERE +uid BETWEEN 3 AND 6;
SELECT 'events > 32.5' AS q, group_concat(uid) FROM events WHERE trace_id = 1 AND uid > 32.5;
SELECT 'events >= ''33''' AS q, group_concat(uid) FROM events WHERE trace_id = 1 AND uid >= '33';
SELECT 'events < 2' AS q, group_concat(uid) FROM events WHERE trace_id = 1 AND uid < 2;
SELECT 'events <= -1' AS q, count(*) FROM events WHERE uid <= -1;
SELECT 'edges range' AS q, group_concat(child_uid) FROM tree_edges WHERE trace_id = 1 AND child_uid BETWEEN 18 AND 24;
SELECT 'edges range +' AS q, group_concat(child_uid) FROM tree_edges WHERE trace_id = 1 AND +child_uid BETWEEN 18 AND 24;
SELECT 'kernels < 22' AS q, group_concat(uid) FROM kernels WHERE trace_id = 1 AND uid < 22;
SELECT 'kernels < 22 +' AS q, group_concat(uid) FROM kernels WHERE trace_id = 1 AND +uid < 22;
-- key columns: the same rows as the unindexed form, in table order
SELECT 'launcher_uid' AS q, launcher_uid, group_concat(uid) FROM kernels WHERE trace_id = 1 AND launcher_uid IN (2, 2.0, '13') GROUP BY launcher_uid;
SELECT 'launcher_uid +' AS q, launcher_uid, group_concat(uid) FROM kernels WHERE trace_id = 1 AND +launcher_uid IN (2, 13) GROUP BY launcher_uid;
SELECT 'op_uid' AS q, k.op_uid, count(*) FROM kernels k WHERE trace_id = 1 AND op_uid = (SELECT op_uid FROM kernels WHERE trace_id = 1 AND op_uid IS NOT NULL LIMIT 1);
SELECT 'op_uid +' AS q, k.op_uid, count(*) FROM kernels k WHERE trace_id = 1 AND +op_uid = (SELECT op_uid FROM kernels WHERE trace_id = 1 AND op_uid IS NOT NULL LIMIT 1);
SELECT 'launchers >= 10' AS q, group_concat(uid) FROM (SELECT uid FROM kernel_launchers WHERE trace_id = 1 AND uid >= 10 ORDER BY uid);
SELECT 'launchers >= 10 +' AS q, group_concat(uid) FROM (SELECT uid FROM kernel_launchers WHERE trace_id = 1 AND +uid >= 10 ORDER BY uid);
SELECT 'warnings' AS q, w.uid, w.code FROM trace_warnings w WHERE trace_id = 1 AND uid = (SELECT uid FROM trace_warnings WHERE trace_id = 1 AND uid IS NOT NULL LIMIT 1);
SELECT 'warnings +' AS q, w.uid, w.code FROM trace_warnings w WHERE trace_id = 1 AND +uid = (SELECT uid FROM trace_warnings WHERE trace_id = 1 AND uid IS NOT NULL LIMIT 1);
SELECT 'warnings range' AS q, count(*) FROM trace_warnings WHERE uid BETWEEN 0 AND 1000;
SELECT 'warnings range +' AS q, count(*) FROM trace_warnings WHERE +uid BETWEEN 0 AND 1000;
SELECT 'timeline args' AS q, trace, linked_only, micro_idle_thresh_us, count(*) FROM gpu_timeline_raw(2, 0, 50.0);
SELECT 'timeline default' AS q, trace, linked_only, micro_idle_thresh_us, count(*) FROM gpu_timeline_raw WHERE trace_id = 1;
SELECT 'timeline bad' AS q, count(*) FROM gpu_timeline_raw(1, 'x');
