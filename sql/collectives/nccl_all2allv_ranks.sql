-- module: collectives.nccl_all2allv_ranks
-- requires: collectives._nccl_all2allv_ranks

-- all_to_allv: every rank sends a different amount, so no
-- latency/bandwidth pair but wall time, throughput and imbalance; TraceLens's
-- nccl_all2allv, nccl_summary_all2allv and the all2allv heatmap (docs/collectives.md;
-- docs/collectives.md, straggler_summary and nccl_all2allv).

-- nccl_all2allv_ranks: one row per rank of each matched all_to_allv instance (first
-- row's Collective name 'all_to_allv', match_status 'ok'): TraceLens's per-rank columns
-- rank_<r>_<col> in long form, with
--   skew_start   ts − earliest start of the instance (µs)
--   skew_end     latest end of the instance − this rank's end (µs)
CREATE TEMP VIEW IF NOT EXISTS nccl_all2allv_ranks AS SELECT * FROM _nccl_all2allv_ranks;
