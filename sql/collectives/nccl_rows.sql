-- module: collectives.nccl_rows
-- requires: collectives._nccl_rows

-- the per-rank collective rows every multi-rank view reads
-- (docs/collectives.md; TraceLens's NCCL analyser, docs/collectives.md, nccl_rank_rows and
-- nccl_long).
--
-- A rank's rows come from an open trace (nccl_rank_rows) or from a per-rank table
-- written elsewhere and copied into coll_rank_import (trace_open_dir(..., 'collectives'),
-- or examples/collective_report.sh's cross-rank step over --export-rank databases).
-- nccl_rows and coll_ranks are the union of both; the multi-rank views read only them, so
-- one process and many give the same rows.

-- nccl_rows: every rank's rows, open or imported.
CREATE TEMP VIEW IF NOT EXISTS nccl_rows AS SELECT * FROM _nccl_rows;
