-- module: collectives.nccl_implicit_sync
-- requires: collectives.nccl_implicit_sync_ranks, collectives.nccl_long,
-- requires: collectives.nccl_match

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
