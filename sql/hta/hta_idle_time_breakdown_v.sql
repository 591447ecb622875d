-- module: hta.hta_idle_time_breakdown_v
-- requires: hta.hta_idle_intervals

-- hta_idle_time_breakdown: per rank, stream and category present, the summed gaps
-- and their share of the stream's idle time (NULL when it has none), 2 decimals.
CREATE TEMP VIEW IF NOT EXISTS hta_idle_time_breakdown_v AS
WITH c AS (
    SELECT rank, stream, idle_category, total(gap) AS idle_time FROM hta_idle_intervals GROUP BY 1, 2, 3
)
SELECT rank, stream, idle_category, np_round(idle_time, 2) AS idle_time,
       np_round(idle_time / nullif(sum(idle_time) OVER (PARTITION BY rank, stream), 0), 2) AS idle_time_ratio
FROM c ORDER BY rank, stream, idle_category;
