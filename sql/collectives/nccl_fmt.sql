-- module: collectives.nccl_fmt
-- requires: collectives._nccl_fmt

-- matching each collective across ranks, TraceLens's nccl_long and
-- nccl_summary_long, and the warnings of the multi-rank views (docs/collectives.md;
-- docs/collectives.md, nccl_rank_rows and nccl_long; nccl_summary_long, docs/collectives.md,
-- straggler_summary and nccl_all2allv).

-- nccl_fmt: one row of job-wide facts: the matching mode and how pandas types each
-- column of TraceLens's nccl_long (an integer column with a missing value anywhere
-- becomes float; times are integers only when every one is), and gpus_per_node.
CREATE TEMP VIEW IF NOT EXISTS nccl_fmt AS SELECT * FROM _nccl_fmt;
