-- module: collectives._nccl_match
-- requires: collectives._nccl_match_rows

-- _nccl_match: the rows of _nccl_match_rows, computed once and kept while the connection's
-- data, schema and open traces stay the same (ext/views/view_cache.c), so the views
-- that read nccl_match several times per query compute it once.
CREATE VIRTUAL TABLE IF NOT EXISTS temp._nccl_match USING view_cache(_nccl_match_rows);
