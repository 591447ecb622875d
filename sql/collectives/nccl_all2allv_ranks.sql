-- module: collectives.nccl_all2allv_ranks
-- requires: collectives.nccl_long, collectives.nccl_match

-- all_to_allv: every rank sends a different amount, so no
-- latency/bandwidth pair but wall time, throughput and imbalance; TraceLens's
-- nccl_all2allv, nccl_summary_all2allv and the all2allv heatmap (docs/collectives.md;
-- docs/collectives.md, straggler_summary and nccl_all2allv).

-- nccl_all2allv_ranks: one row per rank of each matched all_to_allv instance (first
-- row's Collective name 'all_to_allv', match_status 'ok'): TraceLens's per-rank columns
-- rank_<r>_<col> in long form, with
--   skew_start   ts − earliest start of the instance (µs)
--   skew_end     latest end of the instance − this rank's end (µs)
CREATE TEMP VIEW IF NOT EXISTS nccl_all2allv_ranks AS
WITH mat_nccl_match AS MATERIALIZED (SELECT * FROM nccl_match),
mat_nccl_long AS MATERIALIZED (SELECT * FROM nccl_long),
inst AS (
    SELECT pg_name, match_key, min(ord) AS first_ord
    FROM mat_nccl_match WHERE match_status = 'ok' GROUP BY pg_name, match_key
),
sel AS (
    SELECT inst.*, m.collective_id
    FROM inst JOIN mat_nccl_match m ON m.ord = inst.first_ord
    WHERE m.collective_name = 'all_to_allv'
)
SELECT sel.collective_id, sel.pg_name, sel.match_key, sel.first_ord, l.rank,
       l.ts, l.dur, l."In msg nelems" AS in_nelems, l."Out msg nelems" AS out_nelems,
       l."In msg size (MB)" AS in_mb, l."Out msg size (MB)" AS out_mb,
       l."In split size" AS in_split, l."Out split size" AS out_split,
       l.ts - min(l.ts) OVER w AS skew_start,
       max(l.ts + l.dur) OVER w - (l.ts + l.dur) AS skew_end
FROM sel JOIN mat_nccl_match m USING (pg_name, match_key)
JOIN mat_nccl_long l ON l.rank = m.rank AND l.uid = m.uid
WINDOW w AS (PARTITION BY sel.pg_name, sel.match_key)
ORDER BY sel.first_ord, l.rank;
