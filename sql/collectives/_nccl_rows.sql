-- module: collectives._nccl_rows
-- requires: collectives._nccl_rows_rows

-- _nccl_rows: the rows of _nccl_rows_rows, computed once and kept while the connection's
-- data, schema and open traces stay the same (ext/views/view_cache.c), so the views
-- that read nccl_rows several times per query compute it once. The arguments: the
-- view, then its columns (checked at the first read).
CREATE VIRTUAL TABLE IF NOT EXISTS temp._nccl_rows USING view_cache(_nccl_rows_rows,
    trace_id, rank, uid, name, pg, pg_ranks, collective_name, group_size, dtype, in_nelems,
    out_nelems, in_split, out_split, stream, seq, ts, dur, ts_ns, dur_ns);
