-- module: collectives.nccl_summary_all2allv
-- requires: collectives.nccl_all2allv

-- nccl_summary_all2allv: TraceLens's nccl_summary_all2allv sheet: nccl_all2allv grouped
-- by Process Group Name and dtype; mean, std, min, max of total data, wall time (and its
-- sum) and throughput; mean and max of size_imbalance, max_rank_dur and the skews;
-- count; first Process Group Ranks, Collective name, Group size; Total wall_time (ms).
-- Largest Total wall_time (ms) first.
CREATE TEMP VIEW IF NOT EXISTS nccl_summary_all2allv AS
WITH s AS (SELECT *, row_number() OVER () AS o FROM nccl_all2allv),
g AS (
SELECT "Process Group Name", dtype,
       pd_mean("total data communicated (MB)", o) AS "total data communicated (MB)_mean",
       pd_std("total data communicated (MB)", o) AS "total data communicated (MB)_std",
       min("total data communicated (MB)") AS "total data communicated (MB)_min",
       max("total data communicated (MB)") AS "total data communicated (MB)_max",
       CAST(pd_mean("wall_time (us)", o) AS REAL) AS "wall_time (us)_mean",
       pd_std("wall_time (us)", o) AS "wall_time (us)_std",
       min("wall_time (us)") AS "wall_time (us)_min",
       max("wall_time (us)") AS "wall_time (us)_max",
       pd_sum("wall_time (us)", o) AS "Total wall_time (us)",
       pd_mean("throughput (GB/s)", o) AS "throughput (GB/s)_mean",
       pd_std("throughput (GB/s)", o) AS "throughput (GB/s)_std",
       min("throughput (GB/s)") AS "throughput (GB/s)_min",
       max("throughput (GB/s)") AS "throughput (GB/s)_max",
       pd_mean(size_imbalance, o) AS size_imbalance_mean,
       max(size_imbalance) AS size_imbalance_max,
       CAST(pd_mean("max_rank_dur (us)", o) AS REAL) AS "max_rank_dur (us)_mean",
       max("max_rank_dur (us)") AS "max_rank_dur (us)_max",
       CAST(pd_mean("skew in start time", o) AS REAL) AS "skew in start time_mean",
       max("skew in start time") AS "skew in start time_max",
       CAST(pd_mean("skew in end time", o) AS REAL) AS "skew in end time_mean",
       max("skew in end time") AS "skew in end time_max",
       count(*) AS count,
       first("Process Group Ranks", o) AS "Process Group Ranks",
       first("Collective name", o) AS "Collective name",
       first("Group size", o) AS "Group size",
       pd_sum("wall_time (us)", o) / 1000.0 AS "Total wall_time (ms)"
FROM s
GROUP BY "Process Group Name", dtype
),
-- groups in key order, then pandas' unstable sort by the total
o AS (SELECT *, row_number() OVER (ORDER BY "Process Group Name", dtype) AS o FROM g),
pos AS MATERIALIZED (SELECT CAST(j.value AS INTEGER) AS o, j.key AS k
                     FROM (SELECT np_argsort("Total wall_time (ms)", o, 1) AS perm FROM o) p, json_each(p.perm) j)
SELECT "Process Group Name", dtype, "total data communicated (MB)_mean", "total data communicated (MB)_std",
       "total data communicated (MB)_min", "total data communicated (MB)_max", "wall_time (us)_mean",
       "wall_time (us)_std", "wall_time (us)_min", "wall_time (us)_max", "Total wall_time (us)",
       "throughput (GB/s)_mean", "throughput (GB/s)_std", "throughput (GB/s)_min", "throughput (GB/s)_max",
       size_imbalance_mean, size_imbalance_max, "max_rank_dur (us)_mean", "max_rank_dur (us)_max",
       "skew in start time_mean", "skew in start time_max", "skew in end time_mean", "skew in end time_max",
       count, "Process Group Ranks", "Collective name", "Group size", "Total wall_time (ms)"
FROM o JOIN pos USING (o)
ORDER BY pos.k;
