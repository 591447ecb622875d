-- 54_nccl_implicit_sync.sql — collectives that synchronise their ranks (all-reduce,
-- reduce-scatter, all-gather, all-to-all): communication latency versus waiting for
-- the last rank, TraceLens's nccl_implicit_sync, nccl_summary_implicit_sync and
-- straggler_summary (docs/collectives.md; docs/collectives.md, nccl_implicit_sync;
-- straggler_summary and nccl_all2allv).

-- nccl_implicit_sync_ranks: one row per rank of each matched implicit-sync instance
-- (match_status 'ok'; the type of the instance's first row is an implicit-sync type,
-- or, in simplified mode, unknown or missing): TraceLens's per-rank columns
-- rank_<r>_ts, rank_<r>_dur, rank_<r>_wait_time in long form.
--   wait_time   latest start of the instance minus this rank's start (µs)
CREATE TEMP VIEW IF NOT EXISTS nccl_implicit_sync_ranks AS
WITH mat_nccl_fmt AS MATERIALIZED (SELECT * FROM nccl_fmt),
mat_nccl_match AS MATERIALIZED (SELECT * FROM nccl_match),
inst AS (
    SELECT pg_name, match_key, min(ord) AS first_ord
    FROM mat_nccl_match WHERE match_status = 'ok' GROUP BY pg_name, match_key
),
sel AS (
    SELECT inst.*, m.collective_id, m.coll_type, m.collective_name
    FROM inst JOIN mat_nccl_match m ON m.ord = inst.first_ord, mat_nccl_fmt f
    WHERE m.coll_type IN ('allreduce', 'reducescatter', 'allgather', 'alltoall')
       OR (f.simplified AND (m.collective_name IS NULL OR m.coll_type IS NULL))
)
SELECT sel.collective_id, sel.pg_name, sel.match_key, sel.first_ord, m.rank, m.ord,
       iif(f.int_ts, CAST(m.ts AS INTEGER), m.ts) AS ts,
       iif(f.int_dur, CAST(m.dur AS INTEGER), m.dur) AS dur,
       iif(f.int_ts, CAST(max(m.ts) OVER w - m.ts AS INTEGER), max(m.ts) OVER w - m.ts) AS wait_time,
       m.node_id
FROM sel JOIN mat_nccl_match m USING (pg_name, match_key), mat_nccl_fmt f
WINDOW w AS (PARTITION BY sel.pg_name, sel.match_key)
ORDER BY sel.first_ord, m.rank;

-- nccl_implicit_sync: TraceLens's nccl_implicit_sync sheet, one row per instance in
-- order of first appearance; metadata from its first row. Times in µs, sizes MiB,
-- bandwidths GiB/s (TraceLens's "GB/s"); NULL where TraceLens has NaN.
--   comm_latency            the fastest rank's duration: pure communication
--   skew in start time      latest start − earliest start (the largest wait)
--   earliest arrival rank   the rank that waited longest (ties: the higher rank)
--   avg_wait_time           mean wait over the ranks
--   skew in end time        latest end − earliest end
--   Full msg size (MB)      Out msg size for allgather, else In msg size
--   algo bw (GB/s)          (Full msg size / 1024) / (comm_latency / 1e6)
--   bus bw (GB/s)           algo bw × 2(n−1)/n (allreduce) or (n−1)/n (others), n = Group size
-- node_span, the number of ranks (nranks), pg_name, match_key and first_ord (the
-- instance's first row in nccl_match) follow.
CREATE TEMP VIEW IF NOT EXISTS nccl_implicit_sync AS
WITH mat_nccl_match AS MATERIALIZED (SELECT * FROM nccl_match),
mat_nccl_long AS MATERIALIZED (SELECT * FROM nccl_long),
mat_nccl_implicit_sync_ranks AS MATERIALIZED (SELECT * FROM nccl_implicit_sync_ranks),
agg AS (
    SELECT collective_id, pg_name, match_key, first_ord,
           min(dur) AS comm_latency,
           max(ts) - min(ts) AS skew_start,
           seq_sum(wait_time, rank) * 1.0 / count(*) AS avg_wait,
           max(ts + dur) - min(ts + dur) AS skew_end,
           count(*) AS nranks
    FROM mat_nccl_implicit_sync_ranks GROUP BY pg_name, match_key
),
early AS (
    SELECT pg_name, match_key, rank AS earliest,
           row_number() OVER (PARTITION BY pg_name, match_key ORDER BY wait_time DESC, rank DESC) AS k
    FROM mat_nccl_implicit_sync_ranks
),
meta AS (
    SELECT agg.*, early.earliest, l.*, m.coll_type, m.node_span AS span
    FROM agg JOIN early ON early.pg_name = agg.pg_name AND early.match_key = agg.match_key AND early.k = 1
    JOIN mat_nccl_match m ON m.ord = agg.first_ord
    JOIN mat_nccl_long l ON l.rank = m.rank AND l.uid = m.uid
),
bw AS (
    SELECT meta.*,
           CASE WHEN "In msg size (MB)" IS NOT NULL AND "Out msg size (MB)" IS NOT NULL AND coll_type IS NOT NULL
                THEN iif(coll_type = 'allgather', "Out msg size (MB)", "In msg size (MB)") END AS full_mb
    FROM meta
),
bw2 AS (
    SELECT bw.*, CASE WHEN comm_latency > 0 THEN (full_mb / 1024) / (comm_latency / 1e6) END AS algo
    FROM bw
)
SELECT collective_id,
       "Process Group Name", "Process Group Ranks", "Collective name", "Group size", dtype,
       "In msg nelems", "Out msg nelems", "In msg size (MB)", "Out msg size (MB)",
       full_mb AS "Full msg size (MB)",
       comm_latency,
       skew_start AS "skew in start time",
       earliest AS "earliest arrival rank",
       avg_wait AS avg_wait_time,
       skew_end AS "skew in end time",
       algo AS "algo bw (GB/s)",
       algo * CASE WHEN "Group size" IS NULL THEN NULL
                   WHEN coll_type = 'allreduce' THEN 2.0 * ("Group size" - 1) / "Group size"
                   WHEN coll_type IN ('reducescatter', 'allgather', 'alltoall')
                       THEN ("Group size" - 1) * 1.0 / "Group size" END AS "bus bw (GB/s)",
       span AS node_span, nranks, pg_name, match_key, first_ord
FROM bw2
ORDER BY first_ord;

-- nccl_summary_implicit_sync: TraceLens's nccl_summary_implicit_sync sheet (report
-- metrics mean, median, min, max): nccl_implicit_sync grouped by Collective name, dtype
-- and In msg nelems (a missing key reads 'Unknown'; process groups are not a key), with
-- first values of Process Group Name, Group size and Full msg size (MB), count and
-- Total comm latency (ms) = Σ comm_latency / 1000. Largest total first. TraceLens leaves
-- out the bandwidth columns when every bandwidth is NaN; here they are then all NULL.
CREATE TEMP VIEW IF NOT EXISTS nccl_summary_implicit_sync AS
WITH mat_nccl_implicit_sync AS MATERIALIZED (SELECT * FROM nccl_implicit_sync),
s AS (
    SELECT coalesce("Collective name", 'Unknown') AS cname, coalesce(dtype, 'Unknown') AS dt,
           coalesce("In msg nelems", 'Unknown') AS in_n,
           first_ord AS o, *
    FROM mat_nccl_implicit_sync
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

-- straggler_summary: TraceLens's straggler summary, one row per rank of the
-- implicit-sync collectives, lowest total wait (the straggler) first; ties as pandas'
-- (unstable) sort leaves them (np_argsort).
--   total_wait_time_us, mean_wait_time_us   Σ and mean of the rank's waits, rounded to 0.1 µs
--   times_arrived_last    instances where this rank waited least (ties: the lowest rank)
--   times_arrived_first   instances where it is the earliest arrival rank
--   pct_arrived_last      100 × times_arrived_last / num_collectives, rounded to 0.1
--   num_collectives       implicit-sync instances
--   total_nccl_dur_us     Σ dur of the rank's rows in nccl_long (every collective), rounded to 0.1 µs
-- node_id follows.
CREATE TEMP VIEW IF NOT EXISTS straggler_summary AS
WITH mat_nccl_long AS MATERIALIZED (SELECT * FROM nccl_long),
mat_nccl_implicit_sync_ranks AS MATERIALIZED (SELECT * FROM nccl_implicit_sync_ranks),
mat_nccl_implicit_sync AS MATERIALIZED (SELECT * FROM nccl_implicit_sync),
n AS (SELECT count(*) AS n FROM mat_nccl_implicit_sync),
last AS (
    SELECT pg_name, match_key, rank,
           row_number() OVER (PARTITION BY pg_name, match_key ORDER BY wait_time, rank) AS k
    FROM mat_nccl_implicit_sync_ranks
),
per AS (
    SELECT r.rank, np_sum(r.wait_time, r.first_ord) AS total_wait,
           np_sum(CAST(r.wait_time AS REAL), r.first_ord) / count(*) AS mean_wait,
           count(*) AS present, min(r.node_id) AS node_id
    FROM mat_nccl_implicit_sync_ranks r GROUP BY r.rank
),
dur AS (SELECT rank, pd_sum(dur, uid) AS total_dur FROM mat_nccl_long GROUP BY rank),
out_rows AS (
SELECT per.rank,
       CASE WHEN typeof(total_wait) = 'integer' AND present = n.n THEN total_wait
            ELSE np_round(CAST(total_wait AS REAL), 1) END AS total_wait_time_us,
       np_round(mean_wait, 1) AS mean_wait_time_us,
       (SELECT count(*) FROM last WHERE last.rank = per.rank AND last.k = 1) AS times_arrived_last,
       (SELECT count(*) FROM mat_nccl_implicit_sync i WHERE i."earliest arrival rank" = per.rank) AS times_arrived_first,
       np_round(100.0 * (SELECT count(*) FROM last WHERE last.rank = per.rank AND last.k = 1) / n.n, 1)
           AS pct_arrived_last,
       n.n AS num_collectives,
       CASE WHEN typeof(dur.total_dur) = 'integer' THEN dur.total_dur ELSE np_round(CAST(dur.total_dur AS REAL), 1) END
           AS total_nccl_dur_us,
       per.node_id
FROM per, n LEFT JOIN dur ON dur.rank = per.rank
),
-- ranks in order, then pandas' unstable sort by total_wait_time_us
pos AS MATERIALIZED (SELECT CAST(j.value AS INTEGER) AS rank, j.key AS k
                     FROM (SELECT np_argsort(total_wait_time_us, rank, 0) AS perm FROM out_rows) p,
                          json_each(p.perm) j)
SELECT out_rows.* FROM out_rows JOIN pos USING (rank) ORDER BY pos.k;
