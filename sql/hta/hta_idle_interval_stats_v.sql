-- module: hta.hta_idle_interval_stats_v
-- requires: hta.hta_idle_intervals

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
