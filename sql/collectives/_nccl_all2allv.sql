-- module: collectives._nccl_all2allv
-- requires: collectives._nccl_all2allv_rows

-- _nccl_all2allv: the rows of _nccl_all2allv_rows, computed once and kept while the connection's
-- data, schema and open traces stay the same (ext/views/view_cache.c), so the views
-- that read nccl_all2allv several times per query compute it once. The arguments: the
-- view, then its columns (checked at the first read).
CREATE VIRTUAL TABLE IF NOT EXISTS temp._nccl_all2allv USING view_cache(_nccl_all2allv_rows,
    collective_id, "Process Group Name", "Process Group Ranks", "Collective name",
    "Group size", dtype, stream, "total data communicated (MB)",
    "total nelems communicated", "wall_time (us)", "max_rank_dur (us)", "min_rank_dur (us)",
    "avg_rank_dur (us)", "throughput (GB/s)", "max_rank_throughput (GB/s)",
    "min_rank_throughput (GB/s)", size_imbalance, "skew in start time", "skew in end time",
    node_span, pg_name, match_key, first_ord);
