-- 72_hta_idle.sql — HTA's idle-time breakdown and its interval statistics
-- (docs/hta.md): each kernel's gap to the kernel before it on its stream, classed by
-- why the GPU waited. Times in µs.

-- hta_idle_intervals: kernel, memcpy and memset rows of each stream in ts order; gap
-- = ts - the previous row's end (not a running maximum; NULL for the first row);
-- host_wait when the launch came after that end, kernel_wait when the gap is under
-- consecutive_kernel_delay, other otherwise (the first row of a stream included).
CREATE TEMP VIEW IF NOT EXISTS hta_idle_intervals AS
WITH k AS (
    SELECT rank, stream, uid, ts, dur, partner_ts AS ts_runtime,
           lag(ts + dur) OVER (PARTITION BY rank, stream ORDER BY ts, uid) AS prev_end
    FROM hta_device_events
    WHERE cat IN ('kernel', 'Kernel', 'gpu_memset', 'Memset', 'gpu_memcpy', 'Memcpy', 'mtia_ccp_events')
      AND (hta_arg('streams') IS NULL OR stream IN (SELECT value FROM json_each(hta_arg('streams'))))
)
SELECT rank, stream, uid, ts, ts - prev_end AS gap,
       CASE WHEN ts_runtime > prev_end THEN 'host_wait'
            WHEN ts - prev_end < hta_arg('consecutive_kernel_delay') THEN 'kernel_wait'
            ELSE 'other' END AS idle_category
FROM k;

-- hta_idle_time_breakdown: per rank, stream and category present, the summed gaps
-- and their share of the stream's idle time (NULL when it has none), 2 decimals.
CREATE TEMP VIEW IF NOT EXISTS hta_idle_time_breakdown_v AS
WITH c AS (
    SELECT rank, stream, idle_category, total(gap) AS idle_time FROM hta_idle_intervals GROUP BY 1, 2, 3
)
SELECT rank, stream, idle_category, np_round(idle_time, 2) AS idle_time,
       np_round(idle_time / nullif(sum(idle_time) OVER (PARTITION BY rank, stream), 0), 2) AS idle_time_ratio
FROM c ORDER BY rank, stream, idle_category;

-- hta_idle_interval_stats: pandas' describe() of the gaps per rank, stream and
-- category, every value rounded to 2 decimals (count 0 and NULLs for a category that
-- holds only a stream's first row).
CREATE TEMP VIEW IF NOT EXISTS hta_idle_interval_stats_v AS
SELECT idle_category, rank, stream, CAST(count(gap) AS REAL) AS count,
       np_round(avg(gap), 2) AS mean, np_round(pd_std(gap, uid), 2) AS std, np_round(min(gap), 2) AS min,
       np_round(np_quantile(gap, 0.25), 2) AS "25%", np_round(np_quantile(gap, 0.5), 2) AS "50%",
       np_round(np_quantile(gap, 0.75), 2) AS "75%", np_round(max(gap), 2) AS max
FROM hta_idle_intervals GROUP BY rank, stream, idle_category
ORDER BY rank, stream, idle_category;
