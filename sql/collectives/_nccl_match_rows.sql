-- module: collectives._nccl_match_rows
-- requires: collectives.nccl_fmt, collectives.nccl_rows

-- _nccl_match_rows: how nccl_match is computed; read only through _nccl_match (view_cache), which
-- keeps its rows while nothing they depend on changes.
CREATE TEMP VIEW IF NOT EXISTS _nccl_match_rows AS
WITH g AS (
    SELECT r.*, r.rank * 4294967296 + r.uid AS ord, f.simplified,
           CASE WHEN f.simplified THEN 'all' ELSE coalesce(r.pg, 'Unknown_Group') END AS pg_name
    FROM nccl_rows r, nccl_fmt f
),
i AS (
    SELECT g.*, row_number() OVER (PARTITION BY pg_name, rank ORDER BY ts, ord) - 1 AS index_in_group
    FROM g
),
per_rank AS (
    SELECT pg_name, rank, count(*) AS n, min(seq IS NOT NULL) AS all_seq FROM i GROUP BY pg_name, rank
),
grp AS (
    SELECT pg_name, min(all_seq) AS by_seq, NOT min(all_seq) AND max(n) <> min(n) AS count_mismatch
    FROM per_rank GROUP BY pg_name
),
k AS (
    SELECT i.*, CASE WHEN grp.by_seq THEN i.seq ELSE i.index_in_group END AS match_key, grp.count_mismatch
    FROM i JOIN grp USING (pg_name)
),
inst AS (
    SELECT pg_name, match_key, min(ord) AS first_ord, count(*) AS nrows, count(DISTINCT rank) AS nranks,
           count(DISTINCT quote(pg_ranks)) > 1 AS d_ranks,
           count(DISTINCT quote(collective_name)) > 1 AS d_name,
           count(DISTINCT quote(group_size)) > 1 AS d_gsize,
           count(DISTINCT quote(dtype)) > 1 AS d_dtype,
           count(DISTINCT quote(in_nelems)) > 1 AS d_in,
           count(DISTINCT quote(out_nelems)) > 1 AS d_out,
           count(DISTINCT quote(stream)) > 1 AS d_stream,
           max(count_mismatch) AS count_mismatch
    FROM k GROUP BY pg_name, match_key
),
first_row AS (
    SELECT inst.*, k.collective_name AS first_name, k.index_in_group AS first_index, k.simplified
    FROM inst JOIN k ON k.ord = inst.first_ord
),
status AS (
    SELECT pg_name, match_key,
           CASE WHEN simplified THEN CAST(first_index AS TEXT) ELSE pg_name || '_' || first_index END AS collective_id,
           CASE WHEN nrows > nranks THEN 'duplicate'
                WHEN count_mismatch THEN 'count_mismatch'
                WHEN first_name = 'all_to_allv' AND (d_ranks OR d_name OR d_gsize OR d_dtype OR d_stream)
                    THEN 'mismatch: ' || substr(
                        iif(d_ranks, ', Process Group Ranks', '') || iif(d_name, ', Collective name', '') ||
                        iif(d_gsize, ', Group size', '') || iif(d_dtype, ', dtype', '') ||
                        iif(d_stream, ', stream', ''), 3)
                WHEN coalesce(first_name, '') <> 'all_to_allv'
                     AND (d_ranks OR d_name OR d_gsize OR d_dtype OR d_in OR d_out)
                    THEN 'mismatch: ' || substr(
                        iif(d_ranks, ', Process Group Ranks', '') || iif(d_name, ', Collective name', '') ||
                        iif(d_gsize, ', Group size', '') || iif(d_dtype, ', dtype', '') ||
                        iif(d_in, ', In msg nelems', '') || iif(d_out, ', Out msg nelems', ''), 3)
                ELSE 'ok' END AS match_status
    FROM first_row
)
SELECT k.trace_id, k.rank, k.uid, k.ord, k.name, k.pg, k.pg_name, k.pg_ranks, k.collective_name,
       k.group_size, k.dtype, k.in_nelems, k.out_nelems, k.in_split, k.out_split, k.stream, k.seq,
       k.ts, k.dur, k.ts_ns, k.dur_ns, k.index_in_group, k.match_key, s.collective_id, s.match_status,
       -- TraceLens's NCCL dtype table: bytes per element (other dtypes have no size)
       CASE WHEN k.in_nelems IS NOT NULL THEN
           CASE k.dtype WHEN 'Float' THEN 4 WHEN 'Int' THEN 4 WHEN 'Long' THEN 8
                        WHEN 'BFloat16' THEN 2 WHEN 'Bool' THEN 1 WHEN 'Byte' THEN 1
                        WHEN 'Double' THEN 8 WHEN 'Half' THEN 2 WHEN 'Short' THEN 2 END
       END AS bpe,
       -- TraceLens's collective type of the name (docs/collectives.md, nccl_implicit_sync)
       CASE WHEN k.collective_name IN ('allreduce', 'allreduce_coalesced') THEN 'allreduce'
            WHEN k.collective_name IN ('reducescatter', '_reduce_scatter_base', 'reduce_scatter_tensor_coalesced')
                THEN 'reducescatter'
            WHEN k.collective_name IN ('allgather', 'all_gather', '_allgather_base',
                                       'all_gather_into_tensor_coalesced', 'allgather_into_tensor_coalesced')
                THEN 'allgather'
            WHEN k.collective_name = 'all_to_all' THEN 'alltoall'
            WHEN k.collective_name = 'all_to_allv' THEN 'alltoallv'
       END AS coll_type,
       -- node_span: are all the group's ranks on one node (rank / gpus_per_node)?
       CASE WHEN f.gpus_per_node > 0 THEN
           (SELECT CASE WHEN NOT json_valid(j) OR json_type(j) <> 'array' THEN 'unknown'
                        WHEN (SELECT count(DISTINCT CAST(value AS INTEGER) / f.gpus_per_node)
                              FROM json_each(j)) <= 1 THEN 'intra_node'
                        ELSE 'inter_node' END
            FROM (SELECT replace(replace(replace(k.pg_ranks, ',)', ')'), '(', '['), ')', ']') AS j))
       END AS node_span,
       k.rank / f.gpus_per_node AS node_id
FROM k JOIN status s USING (pg_name, match_key), nccl_fmt f;
