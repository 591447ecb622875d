-- module: collectives.coll_rank_import

-- Rows of ranks whose traces are not open. Columns as nccl_rank_rows / coll_trace_ranks
-- (untyped, so every value keeps the type it had).
CREATE TEMP TABLE IF NOT EXISTS coll_rank_import(
    trace_id, rank, uid, name, pg, pg_ranks, collective_name, group_size, dtype, in_nelems,
    out_nelems, in_split, out_split, stream, seq, ts, dur, ts_ns, dur_ns
);
