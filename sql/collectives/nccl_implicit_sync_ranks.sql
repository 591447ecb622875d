-- module: collectives.nccl_implicit_sync_ranks
-- requires: collectives._nccl_implicit_sync_ranks

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
CREATE TEMP VIEW IF NOT EXISTS nccl_implicit_sync_ranks AS SELECT * FROM _nccl_implicit_sync_ranks;
