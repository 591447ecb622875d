-- 53_nccl_long.sql — matching each collective across ranks, TraceLens's nccl_long and
-- nccl_summary_long, and the warnings of the multi-rank views (docs/collectives.md;
-- docs/collectives.md, nccl_rank_rows and nccl_long; nccl_summary_long, docs/collectives.md,
-- straggler_summary and nccl_all2allv).

-- nccl_fmt: one row of job-wide facts: the matching mode and how pandas types each
-- column of TraceLens's nccl_long (an integer column with a missing value anywhere
-- becomes float; times are integers only when every one is), and gpus_per_node.
CREATE TEMP VIEW IF NOT EXISTS nccl_fmt AS
WITH mat_nccl_rows AS MATERIALIZED (SELECT * FROM nccl_rows)
SELECT NOT EXISTS (SELECT 1 FROM mat_nccl_rows WHERE pg IS NOT NULL AND pg <> 'Unknown_Group')
       AND NOT EXISTS (SELECT 1 FROM mat_nccl_rows GROUP BY rank HAVING count(DISTINCT stream) > 1) AS simplified,
       coalesce(min(ts_ns % 1000 = 0), 0) AS int_ts,
       coalesce(min(dur_ns % 1000 = 0), 0) AS int_dur,
       coalesce(max(group_size IS NULL) AND max(group_size IS NOT NULL), 0) AS real_gsize,
       coalesce(max(in_nelems IS NULL) AND max(in_nelems IS NOT NULL), 0) AS real_in_n,
       coalesce(max(out_nelems IS NULL) AND max(out_nelems IS NOT NULL), 0) AS real_out_n,
       coalesce(max(stream IS NULL) AND max(stream IS NOT NULL), 0) AS real_stream,
       coalesce((SELECT CAST(value AS INTEGER) FROM report_params WHERE name = 'gpus_per_node'),
                (SELECT devices FROM coll_ranks ORDER BY rank LIMIT 1)) AS gpus_per_node
FROM mat_nccl_rows;

-- nccl_match: every row of nccl_rows with the collective instance it belongs to.
--   pg_name          TraceLens's Process Group Name: 'all' in simplified mode (no process
--                    group anywhere and one stream per rank), else the name or 'Unknown_Group'
--   index_in_group   0-based position by start time among the rank's rows of pg_name
--   match_key        the instance within pg_name: NCCL's Seq when every row of the group
--                    has one, else index_in_group (TraceLens's only key)
--   collective_id    TraceLens's id: index_in_group of the instance's first row, prefixed
--                    by pg_name and '_' outside simplified mode
--   match_status     'ok'; 'count_mismatch' (matched by position but the ranks have
--                    different numbers of collectives in the group, so positions cannot
--                    be trusted); 'duplicate' (a rank has two rows with one key); or
--                    'mismatch: <fields>' (the ranks disagree on those fields). Only 'ok'
--                    instances enter nccl_implicit_sync and nccl_all2allv.
--   ord              rank * 2^32 + uid: TraceLens's row order (ranks in order, file order)
CREATE TEMP VIEW IF NOT EXISTS nccl_match AS
WITH mat_nccl_rows AS MATERIALIZED (SELECT * FROM nccl_rows),
mat_nccl_fmt AS MATERIALIZED (SELECT * FROM nccl_fmt),
g AS (
    SELECT r.*, r.rank * 4294967296 + r.uid AS ord, f.simplified,
           CASE WHEN f.simplified THEN 'all' ELSE coalesce(r.pg, 'Unknown_Group') END AS pg_name
    FROM mat_nccl_rows r, mat_nccl_fmt f
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
FROM k JOIN status s USING (pg_name, match_key), mat_nccl_fmt f;

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

-- nccl_summary_long: TraceLens's nccl_summary_long sheet (docs/collectives.md over every rank): rows of
-- nccl_long grouped by rank, Process Group Name, Process Group Ranks, Collective name,
-- Group size, dtype, In/Out msg nelems, In/Out split size and stream; a row with a
-- missing key is left out (pandas). Largest dur_sum first, ties as pandas' (unstable)
-- sort leaves them (np_argsort). node_id and node_span are appended, as TraceLens adds
-- them to every multi-rank sheet with a rank / Process Group Ranks column (node_span
-- depends on Process Group Ranks alone, a key of the group).
CREATE TEMP VIEW IF NOT EXISTS nccl_summary_long AS
WITH mat_nccl_fmt AS MATERIALIZED (SELECT * FROM nccl_fmt),
mat_nccl_long AS MATERIALIZED (SELECT * FROM nccl_long),
g AS (
    SELECT rank, "Process Group Name" AS pg, "Process Group Ranks" AS ranks, "Collective name" AS cname,
           "Group size" AS gsize, dtype, "In msg nelems" AS in_n, "Out msg nelems" AS out_n,
           "In split size" AS in_split, "Out split size" AS out_split, stream,
           first("In msg size (MB)", rank * 4294967296 + uid) AS in_mb,
           first("Out msg size (MB)", rank * 4294967296 + uid) AS out_mb,
           pd_sum(dur, rank * 4294967296 + uid) AS dur_sum,
           pd_mean(dur, rank * 4294967296 + uid) AS dur_mean,
           pd_std(dur, rank * 4294967296 + uid) AS dur_std,
           min(dur) AS dur_min, max(dur) AS dur_max, count(*) AS n, min(node_id) AS node_id,
           min(node_span) AS node_span
    FROM mat_nccl_long
    WHERE "Process Group Name" IS NOT NULL AND "Process Group Ranks" IS NOT NULL
      AND "Collective name" IS NOT NULL AND "Group size" IS NOT NULL AND dtype IS NOT NULL
      AND "In msg nelems" IS NOT NULL AND "Out msg nelems" IS NOT NULL AND "In split size" IS NOT NULL
      AND "Out split size" IS NOT NULL AND stream IS NOT NULL
    GROUP BY rank, pg, ranks, cname, gsize, dtype, in_n, out_n, in_split, out_split, stream
),
-- groups in key order (pandas' groupby), then pandas' unstable sort by dur_sum
o AS (SELECT *, row_number() OVER (ORDER BY rank, pg, ranks, cname, gsize, dtype, in_n, out_n, in_split,
                                            out_split, stream) AS o FROM g),
pos AS MATERIALIZED (SELECT CAST(j.value AS INTEGER) AS o, j.key AS k
                     FROM (SELECT np_argsort(dur_sum, o, 1) AS perm FROM o) p, json_each(p.perm) j)
SELECT rank, pg AS "Process Group Name", ranks AS "Process Group Ranks", cname AS "Collective name",
       gsize AS "Group size", dtype, in_n AS "In msg nelems", out_n AS "Out msg nelems",
       in_split AS "In split size", out_split AS "Out split size", stream,
       in_mb AS "In msg size (MB)_first", out_mb AS "Out msg size (MB)_first",
       iif(f.int_dur, CAST(dur_sum AS INTEGER), CAST(dur_sum AS REAL)) AS dur_sum,
       CAST(dur_mean AS REAL) AS dur_mean, CAST(dur_std AS REAL) AS dur_std,
       dur_min, dur_max, n AS operation_count, node_id, node_span
FROM o JOIN pos USING (o), mat_nccl_fmt f
ORDER BY pos.k;

-- coll_warnings: what the multi-rank views could not match or trust, one row each.
--   kind            missing_rank (world_size says the rank exists, no trace has it; one
--                   row per rank while at most 1024 are missing, else one row that
--                   counts them: a corrupt world_size such as 1e12 must not make 1e12
--                   rows),
--                   world_size (ranks disagree on it), duplicate_rank (two traces claim
--                   one rank), count_mismatch (a process group matched by position has
--                   a different number of collectives on this rank), duplicate /
--                   mismatch (an instance whose ranks disagree; left out of the
--                   implicit-sync and all-to-allv views), incomplete (fewer ranks
--                   have the instance than its Group size: a rank's trace is missing or
--                   lost the call; kept, over the ranks present)
--   rank, process_group, collective_id   where (NULL when not about one)
--   detail          the facts, in words
CREATE TEMP VIEW IF NOT EXISTS coll_warnings AS
WITH RECURSIVE mat_nccl_match AS MATERIALIZED (SELECT * FROM nccl_match),
ws AS (SELECT max(world_size) AS n,
              (SELECT count(DISTINCT rank) FROM coll_ranks c
               WHERE c.rank >= 0 AND c.rank < max(coll_ranks.world_size)) AS present
       FROM coll_ranks),
nums(r) AS (SELECT 0 FROM ws WHERE ws.n > 0 AND ws.n - ws.present <= 1024
            UNION ALL SELECT r + 1 FROM nums, ws WHERE r + 1 < ws.n),
missing AS (SELECT r FROM nums WHERE r NOT IN (SELECT rank FROM coll_ranks WHERE rank IS NOT NULL)
            LIMIT 1024)
SELECT 'missing_rank' AS kind, r AS rank, NULL AS process_group, NULL AS collective_id,
       'world_size is ' || (SELECT n FROM ws) || ' but no trace of rank ' || r || ' is open or imported' AS detail
FROM missing
UNION ALL
SELECT 'missing_rank', NULL, NULL, NULL,
       'world_size is ' || n || ' but only ' || present || ' of its ranks are open or imported; the ' ||
       (n - present) || ' missing ranks are not listed one by one'
FROM ws WHERE n - present > 1024
UNION ALL
SELECT 'world_size', rank, NULL, NULL,
       'rank ' || rank || ' has world_size ' || world_size || ', another rank ' || (SELECT n FROM ws)
FROM coll_ranks WHERE world_size <> (SELECT n FROM ws)
UNION ALL
SELECT 'duplicate_rank', rank, NULL, NULL, count(*) || ' traces are rank ' || rank || ': ' || group_concat(source, ', ')
FROM coll_ranks GROUP BY rank HAVING count(*) > 1
UNION ALL
SELECT 'count_mismatch', rank, pg_name, NULL,
       'rank ' || rank || ' has ' || count(*) || ' collectives in process group ' || pg_name ||
       ', matched by position (no Seq); the group''s collectives are not matched'
FROM mat_nccl_match WHERE match_status = 'count_mismatch' GROUP BY pg_name, rank
UNION ALL
SELECT CASE WHEN match_status = 'duplicate' THEN 'duplicate' ELSE 'mismatch' END, NULL, pg_name, collective_id,
       CASE WHEN match_status = 'duplicate' THEN 'a rank has two collectives with Seq ' || match_key
            ELSE 'ranks ' || group_concat(rank, ',') || ' disagree on ' || substr(match_status, 11) END
FROM mat_nccl_match WHERE match_status IN ('duplicate') OR match_status LIKE 'mismatch:%'
GROUP BY pg_name, match_key
UNION ALL
SELECT 'incomplete', NULL, pg_name, collective_id,
       'only rank(s) ' || group_concat(rank, ',') || ' of a group of ' || max(group_size) || ' have this collective'
FROM mat_nccl_match WHERE match_status = 'ok'
GROUP BY pg_name, match_key HAVING count(DISTINCT rank) < max(group_size)
ORDER BY 1, 2, 3, 4;
