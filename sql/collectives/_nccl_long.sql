-- module: collectives._nccl_long
-- requires: collectives._nccl_long_rows

-- _nccl_long: the rows of _nccl_long_rows, computed once and kept while the connection's
-- data, schema and open traces stay the same (ext/views/view_cache.c), so the views
-- that read nccl_long several times per query compute it once. The arguments: the
-- view, then its columns (checked at the first read).
CREATE VIRTUAL TABLE IF NOT EXISTS temp._nccl_long USING view_cache(_nccl_long_rows,
    collective_id, index_in_group, rank, "Process Group Name", "Process Group Ranks",
    "Collective name", "Group size", dtype, "In msg nelems", "In msg size (MB)",
    "Out msg nelems", "Out msg size (MB)", "In split size", "Out split size", stream, ts,
    dur, node_id, node_span, trace_id, uid, seq, match_key, match_status);
