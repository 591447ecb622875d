-- module: hta.hta_memory_bw_summary_v
-- requires: hta.hta_memory_bw_time_series_v

-- hta_memory_bw_summary: pandas' describe() of the values above 0 (strictly: float
-- residues count) per rank and copy type.
CREATE TEMP VIEW IF NOT EXISTS hta_memory_bw_summary_v AS
SELECT rank, name, CAST(count(*) AS REAL) AS count, avg(memory_bw_gbps) AS mean, pd_std(memory_bw_gbps) AS std,
       min(memory_bw_gbps) AS min, np_quantile(memory_bw_gbps, 0.25) AS "25%",
       np_quantile(memory_bw_gbps, 0.5) AS "50%", np_quantile(memory_bw_gbps, 0.75) AS "75%",
       max(memory_bw_gbps) AS max
FROM hta_memory_bw_time_series_v WHERE memory_bw_gbps > 0 GROUP BY rank, name ORDER BY rank, name;
