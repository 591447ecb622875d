-- The hand-made ns-resolution trace tests/data/hta/edges.json (make_traces.py): the
-- default calls' values below are HTA's own output on it (HTA f4d0062); the calls with
-- arguments and the call-graph depths are ours. Rounding gives two kernels a
-- dur of -1; the last-step filter cuts at the GPU copy of ProfilerStep#3; the orphan
-- kernel and the second launch of step 3 are dropped; the stream-0 cpu_op is a
-- COMPUTATION device row; the NCCL kernel overlaps only the memcpy.
SELECT trace_open('tests/data/hta/edges.json', 'edges') IS NOT NULL AS opened;
SELECT rounded, min_ts, rows, step_names FROM hta_trace_info;
SELECT * FROM hta_profiler_steps;
SELECT * FROM hta_temporal_breakdown;
SELECT * FROM hta_idle_time_breakdown;
SELECT * FROM hta_idle_interval_stats;
SELECT * FROM hta_gpu_kernel_breakdown_by_type;
SELECT * FROM hta_gpu_kernel_breakdown_by_kernel;
SELECT * FROM hta_cuda_kernel_launch_stats;
SELECT * FROM hta_cuda_kernel_launch_stats_summary;
SELECT * FROM hta_queue_length_summary;
SELECT * FROM hta_memory_bw_time_series;
SELECT * FROM hta_memory_bw_summary;
SELECT * FROM hta_comm_comp_overlap;
SELECT * FROM hta_aten_op_kernels_and_delay;
SELECT * FROM hta_frequent_cuda_kernel_sequences(NULL, 'aten::op');
SELECT depth, count(*) AS nodes, sum(num_kernels) AS kernels FROM hta_call_graph(1, 1, 1) GROUP BY depth;
-- the rows of the first launches: rounded to -1, linked both ways, in step 1
SELECT "index", name, ts, dur, stream, index_correlation, iteration
FROM hta_preprocessed_events WHERE "index" BETWEEN 8 AND 15 AND cat <> 'cpu_op';
-- without the filter: step 3's second launch, its kernel and the orphan come back
SELECT count(*) AS rows, max("index") AS last FROM hta_preprocessed_events(NULL, 1, 0);
SELECT * FROM hta_profiler_steps('edges', 1, 0);
-- without the rounding: the tiny kernels keep their fractional durs
SELECT "index", ts, round(dur, 6) AS dur FROM hta_preprocessed_events(NULL, 0) WHERE "index" IN (12, 15);
SELECT * FROM hta_temporal_breakdown(NULL, 0);
-- arguments: under a 2 µs threshold only the 1 µs gap is kernel_wait; stream 7 only
SELECT * FROM hta_idle_time_breakdown('edges', 2, '[7]');
SELECT kernel_type, name, "sum (us)" FROM hta_gpu_kernel_breakdown_by_kernel(NULL, 0.5, 1, 0);
SELECT * FROM hta_cuda_kernel_launch_stats_summary(1, 5, 20, 0);
SELECT * FROM hta_queue_length_summary(NULL, 'kernel_first');
