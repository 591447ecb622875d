-- module: collectives._nccl_long
-- requires: collectives._nccl_long_rows

-- _nccl_long: the rows of _nccl_long_rows, computed once and kept while the connection's
-- data, schema and open traces stay the same (ext/views/view_cache.c), so the views
-- that read nccl_long several times per query compute it once.
CREATE VIRTUAL TABLE IF NOT EXISTS temp._nccl_long USING view_cache(_nccl_long_rows);
