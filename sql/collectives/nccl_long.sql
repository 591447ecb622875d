-- module: collectives.nccl_long
-- requires: collectives._nccl_long

-- nccl_long: TraceLens's nccl_long sheet, one row per collective kernel of every rank,
-- ranks in order, then file order. Values typed as pandas holds them (see nccl_fmt), so
-- printing REALs with py_float gives TraceLens's cell text. After TraceLens's columns:
-- node_id, node_span, and the native trace_id, uid, seq, match_key, match_status.
CREATE TEMP VIEW IF NOT EXISTS nccl_long AS SELECT * FROM _nccl_long;
