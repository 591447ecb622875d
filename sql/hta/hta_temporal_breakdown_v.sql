-- module: hta.hta_temporal_breakdown_v
-- requires: hta.hta_unions

-- HTA's temporal breakdown, comm/comp overlap and GPU kernel
-- breakdowns (docs/hta.md), over hta_unions. Every rank of the call; times in µs.

-- hta_temporal_breakdown: kernel_time = last end - first start of the device rows;
-- idle = kernel_time - their union; compute = the union of COMPUTATION rows; the rest
-- is non-compute. Percentages of kernel_time, numpy-rounded to 2 decimals.
CREATE TEMP VIEW IF NOT EXISTS hta_temporal_breakdown_v AS
WITH a AS (
    SELECT rank,
           max(e) FILTER (WHERE class = 'ALL') - min(s) FILTER (WHERE class = 'ALL') AS kernel_time,
           total(e - s) FILTER (WHERE class = 'ALL') AS busy,
           total(e - s) FILTER (WHERE class = 'COMPUTATION') AS compute
    FROM hta_unions GROUP BY rank
),
t AS (SELECT rank, kernel_time - busy AS idle, compute, busy - compute AS non_compute, kernel_time FROM a)
SELECT rank, CAST(idle AS REAL) AS "idle_time(us)", CAST(compute AS REAL) AS "compute_time(us)",
       CAST(non_compute AS REAL) AS "non_compute_time(us)", CAST(kernel_time AS REAL) AS "kernel_time(us)",
       np_round(100.0 * idle / kernel_time, 2) AS idle_time_pctg,
       np_round(100.0 * compute / kernel_time, 2) AS compute_time_pctg,
       np_round(100.0 * non_compute / kernel_time, 2) AS non_compute_time_pctg
FROM t ORDER BY rank;
