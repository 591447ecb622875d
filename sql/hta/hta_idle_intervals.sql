-- module: hta.hta_idle_intervals
-- requires: hta.hta_device_events

-- HTA's idle-time breakdown and its interval statistics
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
