-- module: collectives._nccl_rows_rows
-- requires: collectives.coll_rank_import, collectives.nccl_rank_rows

-- _nccl_rows_rows: how nccl_rows is computed; read only through _nccl_rows (view_cache).
CREATE TEMP VIEW IF NOT EXISTS _nccl_rows_rows AS
SELECT * FROM nccl_rank_rows
UNION ALL
SELECT * FROM coll_rank_import;
