-- module: hta.hta_memory_bw_events
-- requires: hta.hta_device_events

-- HTA's memory bandwidth time series and summary
-- (docs/hta.md). Bandwidths in GB/s (the trace's args), times in µs.

-- hta_memory_bw_events: each MEMORY device row (named by its copy type: Memset,
-- Memcpy DtoH, ..., Memcpy Unknown) adds its bandwidth at ts and takes it back at
-- ts + dur (a dur of 0 counts as 1). row_index numbers a rank's starts 0..n-1 in event
-- order and their ends n..2n-1, as HTA's frame does.
CREATE TEMP VIEW IF NOT EXISTS hta_memory_bw_events AS
WITH m AS (
    SELECT rank, uid, ts, CASE WHEN dur = 0 THEN 1 ELSE dur END AS d, pid,
           CASE WHEN substr(name, 1, 6) = 'Memset' THEN 'Memset'
                WHEN substr(name, 1, 6) <> 'Memcpy' OR name IS NULL THEN 'Memcpy Unknown'
                ELSE substr(name, 1, 11) END AS name,
           memory_bw_gbps AS bw,
           row_number() OVER (PARTITION BY rank ORDER BY uid) - 1 AS i,
           count(*) OVER (PARTITION BY rank) AS n
    FROM hta_device_events WHERE kernel_type = 'MEMORY'
)
SELECT i AS row_index, rank, ts, pid, name, bw AS delta FROM m
UNION ALL
SELECT n + i, rank, ts + d, pid, name, -bw FROM m;
