-- module: collectives.nccl_long
-- requires: collectives.nccl_fmt, collectives.nccl_match

-- nccl_long: TraceLens's nccl_long sheet, one row per collective kernel of every rank,
-- ranks in order, then file order. Values typed as pandas holds them (see nccl_fmt), so
-- printing REALs with py_float gives TraceLens's cell text. After TraceLens's columns:
-- node_id, node_span, and the native trace_id, uid, seq, match_key, match_status.
CREATE TEMP VIEW IF NOT EXISTS nccl_long AS
WITH mat_nccl_fmt AS MATERIALIZED (SELECT * FROM nccl_fmt),
mat_nccl_match AS MATERIALIZED (SELECT * FROM nccl_match)
SELECT m.collective_id,
       m.index_in_group,
       m.rank,
       m.pg_name AS "Process Group Name",
       m.pg_ranks AS "Process Group Ranks",
       m.collective_name AS "Collective name",
       iif(f.real_gsize, CAST(m.group_size AS REAL), m.group_size) AS "Group size",
       m.dtype,
       iif(f.real_in_n, CAST(m.in_nelems AS REAL), m.in_nelems) AS "In msg nelems",
       m.in_nelems * m.bpe / 1048576.0 AS "In msg size (MB)",
       iif(f.real_out_n, CAST(m.out_nelems AS REAL), m.out_nelems) AS "Out msg nelems",
       m.out_nelems * m.bpe / 1048576.0 AS "Out msg size (MB)",
       m.in_split AS "In split size",
       m.out_split AS "Out split size",
       iif(f.real_stream, CAST(m.stream AS REAL), m.stream) AS stream,
       iif(f.int_ts, CAST(m.ts AS INTEGER), m.ts) AS ts,
       iif(f.int_dur, CAST(m.dur AS INTEGER), m.dur) AS dur,
       m.node_id, m.node_span,
       m.trace_id, m.uid, m.seq, m.match_key, m.match_status
FROM mat_nccl_match m, mat_nccl_fmt f
ORDER BY m.ord;
