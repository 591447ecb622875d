-- 74_hta_memory_bw.sql — HTA's memory bandwidth time series and summary
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

-- hta_memory_bw_time_series: the running bandwidth per rank and copy type, summed
-- in time order (numpy's cumsum); at equal ts tie_order puts the starts first
-- ('start_first') or the ends first ('end_first'), each in row_index order.
CREATE TEMP VIEW IF NOT EXISTS hta_memory_bw_time_series_v AS
SELECT row_index, rank, CAST(ts AS REAL) AS ts, pid, name,
       cumsum(delta) OVER (PARTITION BY rank, name
                           ORDER BY ts, CASE WHEN (delta >= 0) = (hta_arg('tie_order') = 'end_first') THEN 1 ELSE 0 END,
                                    row_index
                           ROWS UNBOUNDED PRECEDING) AS memory_bw_gbps
FROM hta_memory_bw_events
ORDER BY rank, name, ts, CASE WHEN (delta >= 0) = (hta_arg('tie_order') = 'end_first') THEN 1 ELSE 0 END, row_index;

-- hta_memory_bw_summary: pandas' describe() of the values above 0 (strictly: float
-- residues count) per rank and copy type.
CREATE TEMP VIEW IF NOT EXISTS hta_memory_bw_summary_v AS
SELECT rank, name, CAST(count(*) AS REAL) AS count, avg(memory_bw_gbps) AS mean, pd_std(memory_bw_gbps) AS std,
       min(memory_bw_gbps) AS min, np_quantile(memory_bw_gbps, 0.25) AS "25%",
       np_quantile(memory_bw_gbps, 0.5) AS "50%", np_quantile(memory_bw_gbps, 0.75) AS "75%",
       max(memory_bw_gbps) AS max
FROM hta_memory_bw_time_series_v WHERE memory_bw_gbps > 0 GROUP BY rank, name ORDER BY rank, name;
