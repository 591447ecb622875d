-- module: collectives._nccl_implicit_sync
-- requires: collectives._nccl_implicit_sync_rows

-- _nccl_implicit_sync: the rows of _nccl_implicit_sync_rows, computed once and kept while the connection's
-- data, schema and open traces stay the same (ext/views/view_cache.c), so the views
-- that read nccl_implicit_sync several times per query compute it once. The arguments: the
-- view, then its columns (checked at the first read).
CREATE VIRTUAL TABLE IF NOT EXISTS temp._nccl_implicit_sync USING view_cache(_nccl_implicit_sync_rows,
    collective_id, "Process Group Name", "Process Group Ranks", "Collective name",
    "Group size", dtype, "In msg nelems", "Out msg nelems", "In msg size (MB)",
    "Out msg size (MB)", "Full msg size (MB)", comm_latency, "skew in start time",
    "earliest arrival rank", avg_wait_time, "skew in end time", "algo bw (GB/s)",
    "bus bw (GB/s)", node_span, nranks, pg_name, match_key, first_ord);
