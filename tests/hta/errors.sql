-- Bad arguments of the hta_* functions: each line runs alone (tests/hta/run.sh), after
-- the edges trace is opened; each error names the argument and what it takes.
SELECT * FROM hta_idle_time_breakdown(NULL, -1);
SELECT * FROM hta_idle_time_breakdown(NULL, 'x');
SELECT * FROM hta_idle_time_breakdown(NULL, 30, 'stream 7');
SELECT * FROM hta_gpu_kernel_breakdown_by_type(NULL, 1.5);
SELECT * FROM hta_gpu_kernel_breakdown_by_kernel(NULL, 0.8, 2.5);
SELECT * FROM hta_temporal_breakdown(NULL, 2);
SELECT * FROM hta_temporal_breakdown(NULL, 1, 'yes');
SELECT * FROM hta_queue_length_summary(NULL, 'random');
SELECT * FROM hta_memory_bw_summary(NULL, 'launch_first');
SELECT * FROM hta_temporal_breakdown('no/such/trace.json');
SELECT * FROM hta_rows(1, 1, 'kernels');
SELECT * FROM hta_rows(1, 'x');
SELECT count(*) AS rows_without_arguments FROM hta_frequent_cuda_kernel_sequences;
SELECT * FROM hta_frequent_cuda_kernel_sequences(NULL);
SELECT * FROM hta_frequent_cuda_kernel_sequences(NULL, 7);
SELECT * FROM hta_frequent_cuda_kernel_sequences(NULL, 'aten::op', -1);
SELECT count(*) AS rows_outside_a_call FROM hta_temporal_breakdown_v;
SELECT trace_close('edges'), (SELECT count(*) FROM hta_temporal_breakdown) AS rows_without_traces;
SELECT * FROM hta_critical_path_summary('edges', 'NoSuchAnnotation');
SELECT * FROM hta_critical_path_summary('edges', 'ProfilerStep', 99);
SELECT * FROM hta_critical_path_summary('edges', 'ProfilerStep', -1);
SELECT * FROM hta_critical_path_summary('edges', 7);
SELECT * FROM hta_cp_path('edges', 1, 2);
