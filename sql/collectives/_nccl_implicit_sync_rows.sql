-- module: collectives._nccl_implicit_sync_rows
-- requires: collectives.nccl_implicit_sync_ranks, collectives.nccl_long,
-- requires: collectives.nccl_match

-- _nccl_implicit_sync_rows: how nccl_implicit_sync is computed; read only through _nccl_implicit_sync (view_cache).
CREATE TEMP VIEW IF NOT EXISTS _nccl_implicit_sync_rows AS
WITH agg AS (
    SELECT collective_id, pg_name, match_key, first_ord,
           min(dur) AS comm_latency,
           max(ts) - min(ts) AS skew_start,
           seq_sum(wait_time, rank) * 1.0 / count(*) AS avg_wait,
           max(ts + dur) - min(ts + dur) AS skew_end,
           count(*) AS nranks
    FROM nccl_implicit_sync_ranks GROUP BY pg_name, match_key
),
early AS (
    SELECT pg_name, match_key, rank AS earliest,
           row_number() OVER (PARTITION BY pg_name, match_key ORDER BY wait_time DESC, rank DESC) AS k
    FROM nccl_implicit_sync_ranks
),
meta AS (
    SELECT agg.*, early.earliest, l.*, m.coll_type, m.node_span AS span
    FROM agg JOIN early ON early.pg_name = agg.pg_name AND early.match_key = agg.match_key AND early.k = 1
    JOIN nccl_match m ON m.ord = agg.first_ord
    JOIN nccl_long l ON l.rank = m.rank AND l.uid = m.uid
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
