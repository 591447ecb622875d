-- module: hta.hta_cuda_kernel_launch_stats_summary_v
-- requires: hta.hta_cuda_kernel_launch_stats_v, hta.hta_info

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
