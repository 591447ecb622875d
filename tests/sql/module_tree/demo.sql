-- module_tree and module_summary on the bundled demo trace (a small GPT with Python
-- stacks): the top of the tree and the per-class totals.
SELECT trace_open('examples/demo_trace.json.gz') AS id;
SELECT uid, module, instance, parent_uid, depth, path, round(dur, 3) AS dur, child_modules,
       gpu_events, round(gpu_time_us, 3) AS gpu_us, round(self_gpu_time_us, 3) AS self_us,
       round(pct_of_parent_gpu, 3) AS pct_parent
FROM module_tree WHERE depth <= 2;
SELECT module, instances, min_depth, round(cpu_time_us_sum, 3) AS cpu_us, gpu_events,
       round(gpu_time_us_sum, 3) AS gpu_us, round(self_gpu_time_us_sum, 3) AS self_us,
       round(pct_of_model_gpu, 3) AS pct
FROM module_summary;
-- the top module's GPU events, counted by brute force: launches inside its span
SELECT (SELECT gpu_events FROM module_tree WHERE depth = 0) =
       (SELECT count(*) FROM kernels k
        JOIN events r ON r.trace_id = k.trace_id AND r.uid = k.launcher_uid
        JOIN events m ON m.trace_id = k.trace_id AND m.uid = (SELECT uid FROM module_tree WHERE depth = 0)
        WHERE r.pid = m.pid AND r.tid = m.tid AND r.ts_ns >= m.ts_ns AND r.ts_ns < m.end_ns)
       AS brute_force_agrees;
