-- module: collectives._nccl_fmt
-- requires: collectives._nccl_fmt_rows

-- _nccl_fmt: the rows of _nccl_fmt_rows, computed once and kept while the connection's
-- data, schema and open traces stay the same (ext/views/view_cache.c), so the views
-- that read nccl_fmt several times per query compute it once. The arguments: the
-- view, then its columns (checked at the first read).
CREATE VIRTUAL TABLE IF NOT EXISTS temp._nccl_fmt USING view_cache(_nccl_fmt_rows,
    simplified, int_ts, int_dur, real_gsize, real_in_n, real_out_n, real_stream,
    gpus_per_node);
