-- gpu_timeline on the hand-made trace: 8 GPU events, 6 linked the TraceLens way
-- (kernel 28 is linked by correlation only, memset 31 has no launch), one NCCL kernel
SELECT trace_open('tests/data/tree_rules.json', 'rules');
.print '-- gpu_timeline (TraceLens: linked GPU events only)'
SELECT * FROM gpu_timeline;
.print '-- the raw rows, µs, with the number of GPU events that went in'
SELECT * FROM gpu_timeline_raw('rules');
.print '-- native reading: every GPU event (linked_only = 0)'
SELECT seq, type, time_us, events FROM gpu_timeline_raw(1, 0);
.print '-- computation + exposed comm + exposed memcpy + idle = total'
SELECT sum(CASE WHEN type IN ('computation_time', 'exposed_comm_time', 'exposed_memcpy_time',
                             'idle_time') THEN time_us END)
       = max(CASE WHEN type = 'total_time' THEN time_us END) AS identity_holds
FROM gpu_timeline_raw(1);
.print '-- micro/macro idle at 100 µs, as a table-valued function argument'
SELECT seq, type, time_us FROM gpu_timeline_raw(1, 1, 100);
.print '-- ... and through report_params, for the views'
UPDATE report_params SET value = 100 WHERE name = 'micro_idle_thresh_us';
SELECT * FROM gpu_timeline;
UPDATE report_params SET value = NULL WHERE name = 'micro_idle_thresh_us';
UPDATE report_params SET value = 1 WHERE name = 'include_unlinked_kernels';
SELECT type, time_ms FROM gpu_timeline WHERE type IN ('busy_time', 'total_time');
UPDATE report_params SET value = 0 WHERE name = 'include_unlinked_kernels';
.print '-- report_gpu_timeline: TraceLens CSV cells'
SELECT * FROM report_gpu_timeline;
.print '-- two traces: one set of rows each, filtered by trace_id'
SELECT trace_open('examples/demo_trace.json.gz', 'demo');
SELECT trace_id, count(*), max(events) FROM gpu_timeline_raw GROUP BY trace_id;
SELECT trace_id, type, time_ms FROM gpu_timeline WHERE trace_id = 1 AND type = 'total_time';
.print '-- errors'
SELECT * FROM gpu_timeline_raw(1, 1, -5);
