-- trace_export writes the trace's tables and views as plain tables of a new file.
.bail off
SELECT trace_open('tests/data/tree_rules.json') AS id;
SELECT trace_export(1, 'build/sql_export_test.db', 'replace') > 300 AS wrote_rows;
SELECT trace_export(1, 'build/sql_export_test.db');
SELECT trace_export(1, 'build/sql_export_test.db', 'overwrite');
SELECT trace_export(1, NULL);
SELECT trace_export(99, 'build/sql_export_test_none.db');
ATTACH 'build/sql_export_test.db' AS x;
SELECT name FROM x.sqlite_master
WHERE type = 'table' AND name IN ('traces', 'events', 'kernels', 'tree_edges', 'trace_warnings')
ORDER BY name;
-- the same rows as the virtual tables
SELECT (SELECT count(*) FROM (SELECT * FROM x.events EXCEPT
          SELECT trace_id, uid, ph, cat, kind, name, pid, tid, ts, dur, ts_ns, dur_ns, end_ns, stream,
                 device, correlation, external_id, flow_id, flow_bp, seq, python_id,
                 python_parent_id, parent_uid, depth, tl_dropped, tl_root, input_dims, input_type,
                 input_strides, concrete_inputs, args FROM main.events WHERE trace_id = 1)) AS events_differing,
       (SELECT count(*) FROM x.events) AS events,
       (SELECT count(*) FROM (SELECT * FROM x.tree_edges EXCEPT SELECT trace_id, parent_uid, child_uid, kind, tl FROM main.tree_edges WHERE trace_id = 1)) AS edges_differing,
       (SELECT count(*) FROM x.kernels) = (SELECT count(*) FROM main.kernels WHERE trace_id = 1) AS same_kernels;
SELECT label, events, warnings FROM x.traces;
-- the analyses as tables too, with the same rows; what wrote the file, in meta
SELECT name FROM x.sqlite_master
WHERE type = 'table' AND name IN ('kernel_launchers', 'perf_ops', 'unified_ops', 'collectives',
                                  'gpu_timeline_raw', 'ops_summary', 'gpu_timeline', 'meta',
                                  'module_tree', 'module_summary')
ORDER BY name;
SELECT (SELECT count(*) FROM (SELECT uid, name, total_direct_kernel_time FROM x.kernel_launchers
          EXCEPT SELECT uid, name, total_direct_kernel_time FROM main.kernel_launchers WHERE trace_id = 1))
         AS launchers_differing,
       (SELECT count(*) FROM x.kernel_launchers) AS launchers,
       (SELECT count(*) FROM x.unified_ops) AS unified,
       (SELECT group_concat(type, ' ') FROM x.gpu_timeline_raw) AS timeline;
SELECT key, CASE WHEN key IN ('exported_at', 'load_seconds', 'source_mtime', 'sqlite_version') THEN typeof(value) ELSE value END AS value
FROM x.meta ORDER BY key;
PRAGMA x.user_version;
SELECT name FROM x.sqlite_master WHERE type = 'index' AND name LIKE 'events%' ORDER BY name;
DETACH x;
