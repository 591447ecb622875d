-- module: collectives._nccl_implicit_sync_ranks_rows
-- requires: collectives.nccl_fmt, collectives.nccl_match

-- _nccl_implicit_sync_ranks_rows: how nccl_implicit_sync_ranks is computed; read only through _nccl_implicit_sync_ranks (view_cache).
CREATE TEMP VIEW IF NOT EXISTS _nccl_implicit_sync_ranks_rows AS
WITH inst AS (
    SELECT pg_name, match_key, min(ord) AS first_ord
    FROM nccl_match WHERE match_status = 'ok' GROUP BY pg_name, match_key
),
sel AS (
    SELECT inst.*, m.collective_id, m.coll_type, m.collective_name
    FROM inst JOIN nccl_match m ON m.ord = inst.first_ord, nccl_fmt f
    WHERE m.coll_type IN ('allreduce', 'reducescatter', 'allgather', 'alltoall')
       OR (f.simplified AND (m.collective_name IS NULL OR m.coll_type IS NULL))
)
SELECT sel.collective_id, sel.pg_name, sel.match_key, sel.first_ord, m.rank, m.ord,
       iif(f.int_ts, CAST(m.ts AS INTEGER), m.ts) AS ts,
       iif(f.int_dur, CAST(m.dur AS INTEGER), m.dur) AS dur,
       iif(f.int_ts, CAST(max(m.ts) OVER w - m.ts AS INTEGER), max(m.ts) OVER w - m.ts) AS wait_time,
       m.node_id
FROM sel JOIN nccl_match m USING (pg_name, match_key), nccl_fmt f
WINDOW w AS (PARTITION BY sel.pg_name, sel.match_key)
ORDER BY sel.first_ord, m.rank;
