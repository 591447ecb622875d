-- module: collectives.nccl_rows
-- requires: collectives.coll_rank_import, collectives.nccl_rank_rows

-- nccl_rows: every rank's rows, open or imported.
CREATE TEMP VIEW IF NOT EXISTS nccl_rows AS
SELECT * FROM nccl_rank_rows
UNION ALL
SELECT * FROM coll_rank_import;
