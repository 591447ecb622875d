-- module: collectives._nccl_implicit_sync
-- requires: collectives._nccl_implicit_sync_rows

-- _nccl_implicit_sync: the rows of _nccl_implicit_sync_rows, computed once and kept while the connection's
-- data, schema and open traces stay the same (ext/views/view_cache.c), so the views
-- that read nccl_implicit_sync several times per query compute it once.
CREATE VIRTUAL TABLE IF NOT EXISTS temp._nccl_implicit_sync USING view_cache(_nccl_implicit_sync_rows);
