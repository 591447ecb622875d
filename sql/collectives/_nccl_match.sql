-- module: collectives._nccl_match
-- requires: collectives._nccl_match_rows

-- _nccl_match: the rows of _nccl_match_rows, computed once and kept while the connection's
-- data, schema and open traces stay the same (ext/views/view_cache.c), so the views
-- that read nccl_match several times per query compute it once. The arguments: the
-- view, then its columns (checked at the first read).
CREATE VIRTUAL TABLE IF NOT EXISTS temp._nccl_match USING view_cache(_nccl_match_rows,
    trace_id, rank, uid, ord, name, pg, pg_name, pg_ranks, collective_name, group_size,
    dtype, in_nelems, out_nelems, in_split, out_split, stream, seq, ts, dur, ts_ns, dur_ns,
    index_in_group, match_key, collective_id, match_status, bpe, coll_type, node_span,
    node_id);
