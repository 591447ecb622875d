-- gpu_timeline of the bundled demo trace (one NCCL all-reduce, a memcpy, unlinked work)
SELECT trace_open('examples/demo_trace.json.gz');
SELECT * FROM gpu_timeline;
SELECT * FROM report_gpu_timeline;
SELECT type, time_us, events FROM gpu_timeline_raw(1, 0);
