-- 55_nccl_all2allv.sql — all_to_allv: every rank sends a different amount, so no
-- latency/bandwidth pair but wall time, throughput and imbalance; TraceLens's
-- nccl_all2allv, nccl_summary_all2allv and the all2allv heatmap (docs/collectives.md;
-- docs/collectives.md, straggler_summary and nccl_all2allv).

-- nccl_all2allv_ranks: one row per rank of each matched all_to_allv instance (first
-- row's Collective name 'all_to_allv', match_status 'ok'): TraceLens's per-rank columns
-- rank_<r>_<col> in long form, with
--   skew_start   ts − earliest start of the instance (µs)
--   skew_end     latest end of the instance − this rank's end (µs)
CREATE TEMP VIEW IF NOT EXISTS nccl_all2allv_ranks AS
WITH mat_nccl_match AS MATERIALIZED (SELECT * FROM nccl_match),
mat_nccl_long AS MATERIALIZED (SELECT * FROM nccl_long),
inst AS (
    SELECT pg_name, match_key, min(ord) AS first_ord
    FROM mat_nccl_match WHERE match_status = 'ok' GROUP BY pg_name, match_key
),
sel AS (
    SELECT inst.*, m.collective_id
    FROM inst JOIN mat_nccl_match m ON m.ord = inst.first_ord
    WHERE m.collective_name = 'all_to_allv'
)
SELECT sel.collective_id, sel.pg_name, sel.match_key, sel.first_ord, l.rank,
       l.ts, l.dur, l."In msg nelems" AS in_nelems, l."Out msg nelems" AS out_nelems,
       l."In msg size (MB)" AS in_mb, l."Out msg size (MB)" AS out_mb,
       l."In split size" AS in_split, l."Out split size" AS out_split,
       l.ts - min(l.ts) OVER w AS skew_start,
       max(l.ts + l.dur) OVER w - (l.ts + l.dur) AS skew_end
FROM sel JOIN mat_nccl_match m USING (pg_name, match_key)
JOIN mat_nccl_long l ON l.rank = m.rank AND l.uid = m.uid
WINDOW w AS (PARTITION BY sel.pg_name, sel.match_key)
ORDER BY sel.first_ord, l.rank;

-- nccl_all2allv: TraceLens's nccl_all2allv sheet, one row per instance, most data first.
--   total data communicated (MB), total nelems communicated   Σ over ranks of In msg size / nelems
--   wall_time (us)                latest end − earliest start
--   max/min/avg_rank_dur (us)     over the ranks' durations
--   throughput (GB/s)             (total MB / 1024) / (wall_time / 1e6)
--   max/min_rank_throughput (GB/s)  (In MB / 1024) / (dur / 1e6) over ranks with both > 0
--   size_imbalance                max In MB / mean In MB
--   skew in start time, skew in end time   latest − earliest start; latest − earliest end
-- node_span, pg_name, match_key and first_ord follow.
CREATE TEMP VIEW IF NOT EXISTS nccl_all2allv AS
WITH mat_nccl_match AS MATERIALIZED (SELECT * FROM nccl_match),
mat_nccl_long AS MATERIALIZED (SELECT * FROM nccl_long),
mat_nccl_all2allv_ranks AS MATERIALIZED (SELECT * FROM nccl_all2allv_ranks),
a AS (
    SELECT collective_id, pg_name, match_key, first_ord,
           seq_sum(in_mb, rank) AS total_mb, seq_sum(in_nelems, rank) AS total_n,
           min(ts) AS t0, max(ts) AS t1, min(ts + dur) AS e0, max(ts + dur) AS e1,
           max(dur) AS dmax, min(dur) AS dmin, seq_sum(dur, rank) * 1.0 / count(*) AS davg,
           max(CASE WHEN in_mb > 0 AND dur > 0 THEN (in_mb / 1024) / (dur / 1e6) END) AS tmax,
           min(CASE WHEN in_mb > 0 AND dur > 0 THEN (in_mb / 1024) / (dur / 1e6) END) AS tmin,
           max(in_mb) AS mb_max, seq_sum(in_mb, rank) / count(*) AS mb_mean
    FROM mat_nccl_all2allv_ranks GROUP BY pg_name, match_key
),
out_rows AS (
SELECT a.collective_id, l."Process Group Name", l."Process Group Ranks", l."Collective name",
       l."Group size", l.dtype, l.stream,
       total_mb AS "total data communicated (MB)",
       total_n AS "total nelems communicated",
       e1 - t0 AS "wall_time (us)",
       dmax AS "max_rank_dur (us)", dmin AS "min_rank_dur (us)", davg AS "avg_rank_dur (us)",
       CASE WHEN e1 - t0 > 0 THEN (total_mb / 1024) / ((e1 - t0) / 1e6) END AS "throughput (GB/s)",
       tmax AS "max_rank_throughput (GB/s)", tmin AS "min_rank_throughput (GB/s)",
       CASE WHEN mb_mean > 0 THEN mb_max / mb_mean END AS size_imbalance,
       t1 - t0 AS "skew in start time", e1 - e0 AS "skew in end time",
       m.node_span, a.pg_name, a.match_key, a.first_ord
FROM a JOIN mat_nccl_match m ON m.ord = a.first_ord
JOIN mat_nccl_long l ON l.rank = m.rank AND l.uid = m.uid
),
-- instances in order of first appearance, then pandas' unstable sort by total data
pos AS MATERIALIZED (SELECT CAST(j.value AS INTEGER) AS first_ord, j.key AS k
                     FROM (SELECT np_argsort("total data communicated (MB)", first_ord, 1) AS perm FROM out_rows) p,
                          json_each(p.perm) j)
SELECT out_rows.* FROM out_rows JOIN pos USING (first_ord) ORDER BY pos.k;

-- nccl_summary_all2allv: TraceLens's nccl_summary_all2allv sheet: nccl_all2allv grouped
-- by Process Group Name and dtype; mean, std, min, max of total data, wall time (and its
-- sum) and throughput; mean and max of size_imbalance, max_rank_dur and the skews;
-- count; first Process Group Ranks, Collective name, Group size; Total wall_time (ms).
-- Largest Total wall_time (ms) first.
CREATE TEMP VIEW IF NOT EXISTS nccl_summary_all2allv AS
WITH mat_nccl_all2allv AS MATERIALIZED (SELECT * FROM nccl_all2allv),
s AS (SELECT *, row_number() OVER () AS o FROM mat_nccl_all2allv),
g AS (
SELECT "Process Group Name", dtype,
       pd_mean("total data communicated (MB)", o) AS "total data communicated (MB)_mean",
       pd_std("total data communicated (MB)", o) AS "total data communicated (MB)_std",
       min("total data communicated (MB)") AS "total data communicated (MB)_min",
       max("total data communicated (MB)") AS "total data communicated (MB)_max",
       CAST(pd_mean("wall_time (us)", o) AS REAL) AS "wall_time (us)_mean",
       pd_std("wall_time (us)", o) AS "wall_time (us)_std",
       min("wall_time (us)") AS "wall_time (us)_min",
       max("wall_time (us)") AS "wall_time (us)_max",
       pd_sum("wall_time (us)", o) AS "Total wall_time (us)",
       pd_mean("throughput (GB/s)", o) AS "throughput (GB/s)_mean",
       pd_std("throughput (GB/s)", o) AS "throughput (GB/s)_std",
       min("throughput (GB/s)") AS "throughput (GB/s)_min",
       max("throughput (GB/s)") AS "throughput (GB/s)_max",
       pd_mean(size_imbalance, o) AS size_imbalance_mean,
       max(size_imbalance) AS size_imbalance_max,
       CAST(pd_mean("max_rank_dur (us)", o) AS REAL) AS "max_rank_dur (us)_mean",
       max("max_rank_dur (us)") AS "max_rank_dur (us)_max",
       CAST(pd_mean("skew in start time", o) AS REAL) AS "skew in start time_mean",
       max("skew in start time") AS "skew in start time_max",
       CAST(pd_mean("skew in end time", o) AS REAL) AS "skew in end time_mean",
       max("skew in end time") AS "skew in end time_max",
       count(*) AS count,
       first("Process Group Ranks", o) AS "Process Group Ranks",
       first("Collective name", o) AS "Collective name",
       first("Group size", o) AS "Group size",
       pd_sum("wall_time (us)", o) / 1000.0 AS "Total wall_time (ms)"
FROM s
GROUP BY "Process Group Name", dtype
),
-- groups in key order, then pandas' unstable sort by the total
o AS (SELECT *, row_number() OVER (ORDER BY "Process Group Name", dtype) AS o FROM g),
pos AS MATERIALIZED (SELECT CAST(j.value AS INTEGER) AS o, j.key AS k
                     FROM (SELECT np_argsort("Total wall_time (ms)", o, 1) AS perm FROM o) p, json_each(p.perm) j)
SELECT "Process Group Name", dtype, "total data communicated (MB)_mean", "total data communicated (MB)_std",
       "total data communicated (MB)_min", "total data communicated (MB)_max", "wall_time (us)_mean",
       "wall_time (us)_std", "wall_time (us)_min", "wall_time (us)_max", "Total wall_time (us)",
       "throughput (GB/s)_mean", "throughput (GB/s)_std", "throughput (GB/s)_min", "throughput (GB/s)_max",
       size_imbalance_mean, size_imbalance_max, "max_rank_dur (us)_mean", "max_rank_dur (us)_max",
       "skew in start time_mean", "skew in start time_max", "skew in end time_mean", "skew in end time_max",
       count, "Process Group Ranks", "Collective name", "Group size", "Total wall_time (ms)"
FROM o JOIN pos USING (o)
ORDER BY pos.k;

-- nccl_all2allv_heatmap: bytes sent rank × rank by all_to_allv (every all_to_allv row of
-- nccl_long, matched or not): In split size[j] on rank i is the element count i sends
-- to j. Rows whose split list does not parse or whose length differs from Group size,
-- and rows of a dtype without a size, are skipped. Empty when world_size > 1024
-- (TraceLens's limit).
--   total_sent_MB   Σ elements × bytes per element / 2^20 (MiB)
--   avg_sent_MB     total_sent_MB / count
--   count           all_to_allv calls that sent from src_rank to dst_rank
CREATE TEMP VIEW IF NOT EXISTS nccl_all2allv_heatmap AS
WITH mat_nccl_match AS MATERIALIZED (SELECT * FROM nccl_match),
r AS (
    SELECT m.rank, m.bpe_any AS bpe, m.group_size,
           replace(replace(replace(m.in_split, ',)', ')'), '(', '['), ')', ']') AS j
    FROM (SELECT mat_nccl_match.*,
                 CASE dtype WHEN 'Float' THEN 4 WHEN 'Int' THEN 4 WHEN 'Long' THEN 8
                            WHEN 'BFloat16' THEN 2 WHEN 'Bool' THEN 1 WHEN 'Byte' THEN 1
                            WHEN 'Double' THEN 8 WHEN 'Half' THEN 2 WHEN 'Short' THEN 2 END AS bpe_any
          FROM mat_nccl_match WHERE collective_name = 'all_to_allv') m
    WHERE (SELECT coalesce(max(world_size), 0) FROM coll_ranks) <= 1024
),
ok AS (
    SELECT * FROM r
    WHERE bpe IS NOT NULL AND json_valid(j) AND json_type(j) = 'array'
      AND (group_size IS NULL OR json_array_length(j) = group_size)
)
SELECT ok.rank AS src_rank, CAST(e.key AS INTEGER) AS dst_rank,
       sum(CAST(e.value AS INTEGER) * ok.bpe) / 1048576.0 AS total_sent_MB,
       sum(CAST(e.value AS INTEGER) * ok.bpe) / 1048576.0 / count(*) AS avg_sent_MB,
       count(*) AS count
FROM ok, json_each(ok.j) e
GROUP BY src_rank, dst_rank
ORDER BY src_rank, dst_rank;
