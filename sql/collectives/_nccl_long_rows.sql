-- module: collectives._nccl_long_rows
-- requires: collectives.nccl_fmt, collectives.nccl_match

-- _nccl_long_rows: how nccl_long is computed; read only through _nccl_long (view_cache), which
-- keeps its rows while nothing they depend on changes.
CREATE TEMP VIEW IF NOT EXISTS _nccl_long_rows AS

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
FROM nccl_match m, nccl_fmt f
ORDER BY m.ord;
