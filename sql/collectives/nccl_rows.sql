-- module: collectives.nccl_rows
-- requires: collectives._nccl_rows

-- nccl_rows: every rank's rows, open or imported.
CREATE TEMP VIEW IF NOT EXISTS nccl_rows AS SELECT * FROM _nccl_rows;
