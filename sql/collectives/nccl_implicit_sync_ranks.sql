-- module: collectives.nccl_implicit_sync_ranks
-- requires: collectives.nccl_fmt, collectives.nccl_match

-- collectives that synchronise their ranks (all-reduce,
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
