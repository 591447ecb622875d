-- module: collectives._nccl_all2allv_ranks_rows
-- requires: collectives.nccl_long, collectives.nccl_match

-- _nccl_all2allv_ranks_rows: how nccl_all2allv_ranks is computed; read only through _nccl_all2allv_ranks (view_cache).
CREATE TEMP VIEW IF NOT EXISTS _nccl_all2allv_ranks_rows AS
WITH inst AS (
    SELECT pg_name, match_key, min(ord) AS first_ord
    FROM nccl_match WHERE match_status = 'ok' GROUP BY pg_name, match_key
),
sel AS (
    SELECT inst.*, m.collective_id
    FROM inst JOIN nccl_match m ON m.ord = inst.first_ord
    WHERE m.collective_name = 'all_to_allv'
)
SELECT sel.collective_id, sel.pg_name, sel.match_key, sel.first_ord, l.rank,
       l.ts, l.dur, l."In msg nelems" AS in_nelems, l."Out msg nelems" AS out_nelems,
       l."In msg size (MB)" AS in_mb, l."Out msg size (MB)" AS out_mb,
       l."In split size" AS in_split, l."Out split size" AS out_split,
       l.ts - min(l.ts) OVER w AS skew_start,
       max(l.ts + l.dur) OVER w - (l.ts + l.dur) AS skew_end
FROM sel JOIN nccl_match m USING (pg_name, match_key)
JOIN nccl_long l ON l.rank = m.rank AND l.uid = m.uid
WINDOW w AS (PARTITION BY sel.pg_name, sel.match_key)
ORDER BY sel.first_ord, l.rank;
