-- module: hta.hta_cuda_kernel_launch_stats_v
-- requires: hta.hta_device_events, hta.hta_launch_events

-- HTA's CUDA kernel launch statistics and queue length
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
