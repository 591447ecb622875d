-- module: collectives._nccl_implicit_sync_ranks
-- requires: collectives._nccl_implicit_sync_ranks_rows

-- _nccl_implicit_sync_ranks: the rows of _nccl_implicit_sync_ranks_rows, computed once and kept while the connection's
-- data, schema and open traces stay the same (ext/views/view_cache.c), so the views
-- that read nccl_implicit_sync_ranks several times per query compute it once. The arguments: the
-- view, then its columns (checked at the first read).
CREATE VIRTUAL TABLE IF NOT EXISTS temp._nccl_implicit_sync_ranks USING view_cache(_nccl_implicit_sync_ranks_rows,
    collective_id, pg_name, match_key, first_ord, rank, ord, ts, dur, wait_time, node_id);
