-- module: collectives._nccl_fmt
-- requires: collectives._nccl_fmt_rows

-- _nccl_fmt: the rows of _nccl_fmt_rows, computed once and kept while the connection's
-- data, schema and open traces stay the same (ext/views/view_cache.c), so the views
-- that read nccl_fmt several times per query compute it once.
CREATE VIRTUAL TABLE IF NOT EXISTS temp._nccl_fmt USING view_cache(_nccl_fmt_rows);
