-- module: collectives.nccl_summary_long
-- requires: collectives.nccl_fmt, collectives.nccl_long

-- nccl_summary_long: TraceLens's nccl_summary_long sheet (docs/collectives.md over every rank): rows of
-- nccl_long grouped by rank, Process Group Name, Process Group Ranks, Collective name,
-- Group size, dtype, In/Out msg nelems, In/Out split size and stream; a row with a
-- missing key is left out (pandas). Largest dur_sum first, ties as pandas' (unstable)
-- sort leaves them (np_argsort). node_id and node_span are appended, as TraceLens adds
-- them to every multi-rank sheet with a rank / Process Group Ranks column (node_span
-- depends on Process Group Ranks alone, a key of the group).
CREATE TEMP VIEW IF NOT EXISTS nccl_summary_long AS
WITH g AS (
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
    FROM nccl_long
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
FROM o JOIN pos USING (o), nccl_fmt f
ORDER BY pos.k;
