-- module: report.hta_summary_md

-- hta_summary_md: the Markdown summary tools/tracesql-hta-report
-- prints without OUTDIR, over every open trace (each a rank): temporal breakdown, idle
-- time by category, kernel time by type, launch summary and the critical path of the
-- first step (of the whole trace when it has no ProfilerStep). One line per row:
--   SELECT line FROM hta_summary_md ORDER BY section, pos
-- Tables are GFM tables built by md_row; a section with no rows is left out.
CREATE TEMP VIEW IF NOT EXISTS hta_summary_md AS
WITH tb AS (
    SELECT row_number() OVER (ORDER BY rank) AS pos,
           md_row(rank, "idle_time(us)", "compute_time(us)", "non_compute_time(us)", "kernel_time(us)",
                  idle_time_pctg, compute_time_pctg, non_compute_time_pctg) AS line
    FROM hta_temporal_breakdown
), idle AS (
    SELECT row_number() OVER (ORDER BY rank, idle_category) AS pos,
           md_row(rank, idle_category, printf('%.2f', sum(idle_time))) AS line
    FROM hta_idle_time_breakdown GROUP BY rank, idle_category
), kt AS (
    SELECT row_number() OVER (ORDER BY sum DESC, kernel_type) AS pos,
           md_row(kernel_type, sum, percentage) AS line
    FROM hta_gpu_kernel_breakdown_by_type
), ls AS (
    SELECT row_number() OVER (ORDER BY rank) AS pos,
           md_row(rank, rows, "short_gpu_kernels(cpu<=50 & gpu<cpu)", "runtime_outliers(cpu>50)",
                  "launch_delay_outliers(delay>100)") AS line
    FROM hta_cuda_kernel_launch_stats_summary
), cp AS (
    SELECT row_number() OVER (ORDER BY duration_us DESC, bound_by) AS pos,
           md_row(CASE WHEN bound_by = '' THEN '(dependency)' ELSE bound_by END,
                  printf('%.1f', duration_us), printf('%.2f', pct_of_duration)) AS line
    FROM hta_critical_path_summary(NULL, CASE WHEN EXISTS (SELECT 1 FROM hta_profiler_steps)
                                              THEN 'ProfilerStep' ELSE '' END)
), body(section, pos, line) AS (
    SELECT 0, 0, '# HTA analyses'
    UNION ALL SELECT 0, 1, '- traces: ' || (SELECT count(*) FROM traces) || ' (each a rank)'
    UNION ALL SELECT 1, -3, '' FROM tb WHERE pos = 1
    UNION ALL SELECT 1, -2, '## Temporal breakdown (µs, %)' FROM tb WHERE pos = 1
    UNION ALL SELECT 1, -1, md_row('rank', 'idle', 'compute', 'non-compute', 'kernel time', 'idle %', 'compute %',
                                   'non-compute %') FROM tb WHERE pos = 1
    UNION ALL SELECT 1, 0, '|---:|---:|---:|---:|---:|---:|---:|---:|' FROM tb WHERE pos = 1
    UNION ALL SELECT 1, pos, line FROM tb
    UNION ALL SELECT 2, -3, '' FROM idle WHERE pos = 1
    UNION ALL SELECT 2, -2, '## Idle time by category (µs, summed over streams)' FROM idle WHERE pos = 1
    UNION ALL SELECT 2, -1, md_row('rank', 'category', 'idle time') FROM idle WHERE pos = 1
    UNION ALL SELECT 2, 0, '|---:|---|---:|' FROM idle WHERE pos = 1
    UNION ALL SELECT 2, pos, line FROM idle
    UNION ALL SELECT 3, -3, '' FROM kt WHERE pos = 1
    UNION ALL SELECT 3, -2, '## GPU kernel time by type (µs, %)' FROM kt WHERE pos = 1
    UNION ALL SELECT 3, -1, md_row('type', 'time', '%') FROM kt WHERE pos = 1
    UNION ALL SELECT 3, 0, '|---|---:|---:|' FROM kt WHERE pos = 1
    UNION ALL SELECT 3, pos, line FROM kt
    UNION ALL SELECT 4, -3, '' FROM ls WHERE pos = 1
    UNION ALL SELECT 4, -2, '## Kernel launches' FROM ls WHERE pos = 1
    UNION ALL SELECT 4, -1, md_row('rank', 'launches', 'short kernels', 'runtime > 50 µs', 'delay > 100 µs')
              FROM ls WHERE pos = 1
    UNION ALL SELECT 4, 0, '|---:|---:|---:|---:|---:|' FROM ls WHERE pos = 1
    UNION ALL SELECT 4, pos, line FROM ls
    UNION ALL SELECT 5, -3, '' FROM cp WHERE pos = 1
    UNION ALL SELECT 5, -2, '## Critical path of the first rank (first step, or the whole trace)' FROM cp WHERE pos = 1
    UNION ALL SELECT 5, -1, md_row('bound by', 'time (µs)', '%') FROM cp WHERE pos = 1
    UNION ALL SELECT 5, 0, '|---|---:|---:|' FROM cp WHERE pos = 1
    UNION ALL SELECT 5, pos, line FROM cp
)
SELECT section, pos, line FROM body;
