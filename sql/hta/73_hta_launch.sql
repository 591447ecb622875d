-- 73_hta_launch.sql — HTA's CUDA kernel launch statistics and queue length
-- (docs/hta.md). Times in µs.

-- hta_cuda_kernel_launch_stats: each launch (cudaLaunchKernel, cudaLaunchKernelExC,
-- runFunction - job_prep_and_submit_for_execution, and with include_memory_events
-- cudaMemsetAsync / cudaMemcpyAsync; not cuLaunchKernel) joined on correlation with the
-- device rows it launched: the launch's and the kernel's dur, and the delay from the
-- launch's end to the kernel's start (0 when negative).
CREATE TEMP VIEW IF NOT EXISTS hta_cuda_kernel_launch_stats_v AS
WITH l AS MATERIALIZED (SELECT rank, correlation, ts, dur, uid, stream, launch_class FROM hta_launch_events),
d AS MATERIALIZED (SELECT rank, correlation, ts, dur, uid FROM hta_device_events),
c AS MATERIALIZED (
    SELECT DISTINCT rank, correlation FROM l
    WHERE launch_class & 8 OR (launch_class & 16 AND hta_arg('include_memory_events'))
),
cpu AS (
    SELECT l.rank, l.correlation, l.ts, l.dur, l.uid FROM l
    JOIN c ON c.rank = l.rank AND c.correlation = l.correlation WHERE l.stream = -1
)
SELECT cpu.rank, cpu.correlation, cpu.dur AS cpu_duration, g.dur AS gpu_duration,
       max(g.ts - cpu.ts - cpu.dur, 0.0) AS launch_delay
FROM cpu JOIN d g ON g.rank = cpu.rank AND g.correlation = cpu.correlation
ORDER BY cpu.rank, cpu.uid, g.uid;

-- hta_cuda_kernel_launch_stats_summary: per rank, the rows, and the three sets HTA
-- plots: short kernels (cpu_duration <= runtime_cutoff and gpu_duration <
-- cpu_duration), runtime outliers (cpu_duration > runtime_cutoff), launch delay
-- outliers (launch_delay > launch_delay_cutoff).
CREATE TEMP VIEW IF NOT EXISTS hta_cuda_kernel_launch_stats_summary_v AS
SELECT i.rank, count(s.rank) AS rows,
       count(*) FILTER (WHERE s.cpu_duration <= hta_arg('runtime_cutoff') AND s.gpu_duration < s.cpu_duration)
           AS "short_gpu_kernels(cpu<=50 & gpu<cpu)",
       count(*) FILTER (WHERE s.cpu_duration > hta_arg('runtime_cutoff')) AS "runtime_outliers(cpu>50)",
       count(*) FILTER (WHERE s.launch_delay > hta_arg('launch_delay_cutoff')) AS "launch_delay_outliers(delay>100)"
FROM hta_info i LEFT JOIN hta_cuda_kernel_launch_stats_v s ON s.rank = i.rank
GROUP BY i.rank ORDER BY i.rank;

-- hta_queue_events: +1 at each launch (the queue-length launch names, with a device
-- partner), taking stream, pid and tid of the device rows of its correlation; -1 at
-- each of those device rows. At equal ts, tie_order puts the launches first
-- ('launch_first') or the kernels first ('kernel_first'), each in event order.
CREATE TEMP VIEW IF NOT EXISTS hta_queue_events AS
WITH l AS MATERIALIZED (
    SELECT rank, correlation, uid, ts FROM hta_launch_events WHERE launch_class & 32 AND index_correlation > 0
),
d AS MATERIALIZED (SELECT rank, correlation, uid, ts, pid, tid, stream FROM hta_device_events),
c AS MATERIALIZED (SELECT DISTINCT rank, correlation FROM l)
SELECT l.uid AS event_index, l.rank, l.ts, d.pid, d.tid, d.stream, 1 AS delta
FROM l JOIN d ON d.rank = l.rank AND d.correlation = l.correlation
UNION ALL
SELECT d.uid, d.rank, d.ts, d.pid, d.tid, d.stream, -1
FROM d JOIN c ON c.rank = d.rank AND c.correlation = d.correlation;

CREATE TEMP VIEW IF NOT EXISTS hta_queue_length_time_series_v AS
SELECT event_index, rank, ts, pid, tid, stream,
       sum(delta) OVER (PARTITION BY rank, stream
                        ORDER BY ts, CASE WHEN hta_arg('tie_order') = 'kernel_first' THEN delta ELSE -delta END,
                                 event_index
                        ROWS UNBOUNDED PRECEDING) AS queue_length
FROM hta_queue_events
ORDER BY rank, stream, ts, CASE WHEN hta_arg('tie_order') = 'kernel_first' THEN delta ELSE -delta END, event_index;

-- hta_queue_length_summary: pandas' describe() of the series per rank and stream.
CREATE TEMP VIEW IF NOT EXISTS hta_queue_length_summary_v AS
SELECT rank, stream, CAST(count(*) AS REAL) AS count, avg(queue_length) AS mean,
       pd_std(queue_length) AS std, CAST(min(queue_length) AS REAL) AS min,
       np_quantile(queue_length, 0.25) AS "25%", np_quantile(queue_length, 0.5) AS "50%",
       np_quantile(queue_length, 0.75) AS "75%", CAST(max(queue_length) AS REAL) AS max
FROM hta_queue_length_time_series_v GROUP BY rank, stream ORDER BY rank, stream;
