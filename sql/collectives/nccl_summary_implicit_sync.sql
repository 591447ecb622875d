-- module: collectives.nccl_summary_implicit_sync
-- requires: collectives.nccl_implicit_sync

-- nccl_summary_implicit_sync: TraceLens's nccl_summary_implicit_sync sheet (report
-- metrics mean, median, min, max): nccl_implicit_sync grouped by Collective name, dtype
-- and In msg nelems (a missing key reads 'Unknown'; process groups are not a key), with
-- first values of Process Group Name, Group size and Full msg size (MB), count and
-- Total comm latency (ms) = Σ comm_latency / 1000. Largest total first. TraceLens leaves
-- out the bandwidth columns when every bandwidth is NaN; here they are then all NULL.
CREATE TEMP VIEW IF NOT EXISTS nccl_summary_implicit_sync AS
WITH s AS (
    SELECT coalesce("Collective name", 'Unknown') AS cname, coalesce(dtype, 'Unknown') AS dt,
           coalesce("In msg nelems", 'Unknown') AS in_n,
           first_ord AS o, *
    FROM nccl_implicit_sync
),
g AS (
SELECT cname AS "Collective name", dt AS dtype, in_n AS "In msg nelems",
       first("Process Group Name", o) AS "Process Group Name",
       first("Group size", o) AS "Group size",
       first("Full msg size (MB)", o) AS "Full msg size (MB)",
       CAST(pd_mean(comm_latency, o) AS REAL) AS comm_latency_mean,
       CAST(median(comm_latency) AS REAL) AS comm_latency_median,
       min(comm_latency) AS comm_latency_min, max(comm_latency) AS comm_latency_max,
       CAST(pd_mean("skew in start time", o) AS REAL) AS "skew in start time_mean",
       CAST(median("skew in start time") AS REAL) AS "skew in start time_median",
       min("skew in start time") AS "skew in start time_min", max("skew in start time") AS "skew in start time_max",
       CAST(pd_mean("skew in end time", o) AS REAL) AS "skew in end time_mean",
       CAST(median("skew in end time") AS REAL) AS "skew in end time_median",
       min("skew in end time") AS "skew in end time_min", max("skew in end time") AS "skew in end time_max",
       pd_mean("algo bw (GB/s)", o) AS "algo bw (GB/s)_mean",
       median("algo bw (GB/s)") AS "algo bw (GB/s)_median",
       min("algo bw (GB/s)") AS "algo bw (GB/s)_min", max("algo bw (GB/s)") AS "algo bw (GB/s)_max",
       pd_mean("bus bw (GB/s)", o) AS "bus bw (GB/s)_mean",
       median("bus bw (GB/s)") AS "bus bw (GB/s)_median",
       min("bus bw (GB/s)") AS "bus bw (GB/s)_min", max("bus bw (GB/s)") AS "bus bw (GB/s)_max",
       count(*) AS count,
       np_sum(comm_latency, o) / 1000.0 AS "Total comm latency (ms)"
FROM s
GROUP BY cname, dt, in_n
),
-- groups in key order, then pandas' unstable sort by the total
o AS (SELECT *, row_number() OVER (ORDER BY "Collective name", dtype, "In msg nelems") AS o FROM g),
pos AS MATERIALIZED (SELECT CAST(j.value AS INTEGER) AS o, j.key AS k
                     FROM (SELECT np_argsort("Total comm latency (ms)", o, 1) AS perm FROM o) p,
                          json_each(p.perm) j)
SELECT "Collective name", dtype, "In msg nelems", "Process Group Name", "Group size", "Full msg size (MB)",
       comm_latency_mean, comm_latency_median, comm_latency_min, comm_latency_max,
       "skew in start time_mean", "skew in start time_median", "skew in start time_min", "skew in start time_max",
       "skew in end time_mean", "skew in end time_median", "skew in end time_min", "skew in end time_max",
       "algo bw (GB/s)_mean", "algo bw (GB/s)_median", "algo bw (GB/s)_min", "algo bw (GB/s)_max",
       "bus bw (GB/s)_mean", "bus bw (GB/s)_median", "bus bw (GB/s)_min", "bus bw (GB/s)_max",
       count, "Total comm latency (ms)"
FROM o JOIN pos USING (o)
ORDER BY pos.k;
