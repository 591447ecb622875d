-- module: collectives._nccl_all2allv_ranks
-- requires: collectives._nccl_all2allv_ranks_rows

-- _nccl_all2allv_ranks: the rows of _nccl_all2allv_ranks_rows, computed once and kept while the connection's
-- data, schema and open traces stay the same (ext/views/view_cache.c), so the views
-- that read nccl_all2allv_ranks several times per query compute it once. The arguments: the
-- view, then its columns (checked at the first read).
CREATE VIRTUAL TABLE IF NOT EXISTS temp._nccl_all2allv_ranks USING view_cache(_nccl_all2allv_ranks_rows,
    collective_id, pg_name, match_key, first_ord, rank, ts, dur, in_nelems, out_nelems,
    in_mb, out_mb, in_split, out_split, skew_start, skew_end);
