-- module: collectives.coll_analysis

-- single-rank collective analysis over the `collectives` table
-- (docs/analyses.md; TraceLens's NCCL analyser, docs/collectives.md, nccl_rank_rows and nccl_long;
-- nccl_implicit_sync).
--
-- Sizes are MiB (2^20 bytes; TraceLens calls them MB) and bandwidths GiB/s (TraceLens's
-- "GB/s": (MB / 1024) / seconds). On one rank the duration of a collective includes
-- the time it waited for the other ranks, so these bandwidths are lower bounds;
-- TraceLens's multi-rank report divides by the fastest rank's duration instead.

-- coll_analysis: one row per collective (a row of `collectives`) with its sizes and
-- bandwidths.
--   in_size_mb, out_size_mb   in_bytes / 2^20, out_bytes / 2^20
--   msg_size_mb               the message: out_size_mb for allgather, else in_size_mb
--                             (TraceLens's "Full msg size (MB)")
--   algbw_gibs                (msg_size_mb / 1024) / (dur / 1e6); NULL if dur <= 0
--   busbw_factor              allreduce 2(n-1)/n; allgather, reduce_scatter, all_to_all
--                             (n-1)/n (n = group_size, as TraceLens); broadcast, reduce,
--                             send, recv, sendrecv 1 (as nccl-tests); NULL otherwise
--   busbw_gibs                algbw_gibs × busbw_factor
CREATE TEMP VIEW IF NOT EXISTS coll_analysis AS
WITH c AS (
    SELECT *,
           in_bytes / 1048576.0 AS in_size_mb,
           out_bytes / 1048576.0 AS out_size_mb,
           CASE WHEN kind = 'allgather' THEN out_bytes ELSE in_bytes END / 1048576.0 AS msg_size_mb,
           CASE WHEN kind = 'allreduce' AND group_size > 0 THEN 2.0 * (group_size - 1) / group_size
                WHEN kind IN ('allgather', 'reduce_scatter', 'all_to_all') AND group_size > 0
                    THEN (group_size - 1) * 1.0 / group_size
                WHEN kind IN ('broadcast', 'reduce', 'send', 'recv', 'sendrecv') THEN 1.0
           END AS busbw_factor
    FROM collectives
)
SELECT trace_id, rank, uid, source, kind, collective_name, process_group, group_ranks,
       group_size, seq_in_group, dtype, in_nelems, out_nelems, in_size_mb, out_size_mb,
       msg_size_mb, in_split_sizes, out_split_sizes, stream, ts, dur,
       CASE WHEN dur > 0 THEN (msg_size_mb / 1024) / (dur / 1e6) END AS algbw_gibs,
       busbw_factor,
       CASE WHEN dur > 0 THEN (msg_size_mb / 1024) / (dur / 1e6) * busbw_factor END AS busbw_gibs
FROM c
ORDER BY trace_id, ts, uid;
