-- module: collectives._nccl_all2allv_rows
-- requires: collectives.nccl_all2allv_ranks, collectives.nccl_long,
-- requires: collectives.nccl_match

-- _nccl_all2allv_rows: how nccl_all2allv is computed; read only through _nccl_all2allv (view_cache).
CREATE TEMP VIEW IF NOT EXISTS _nccl_all2allv_rows AS
WITH a AS (
    SELECT collective_id, pg_name, match_key, first_ord,
           seq_sum(in_mb, rank) AS total_mb, seq_sum(in_nelems, rank) AS total_n,
           min(ts) AS t0, max(ts) AS t1, min(ts + dur) AS e0, max(ts + dur) AS e1,
           max(dur) AS dmax, min(dur) AS dmin, seq_sum(dur, rank) * 1.0 / count(*) AS davg,
           max(CASE WHEN in_mb > 0 AND dur > 0 THEN (in_mb / 1024) / (dur / 1e6) END) AS tmax,
           min(CASE WHEN in_mb > 0 AND dur > 0 THEN (in_mb / 1024) / (dur / 1e6) END) AS tmin,
           max(in_mb) AS mb_max, seq_sum(in_mb, rank) / count(*) AS mb_mean
    FROM nccl_all2allv_ranks GROUP BY pg_name, match_key
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
FROM a JOIN nccl_match m ON m.ord = a.first_ord
JOIN nccl_long l ON l.rank = m.rank AND l.uid = m.uid
),
-- instances in order of first appearance, then pandas' unstable sort by total data
pos AS MATERIALIZED (SELECT CAST(j.value AS INTEGER) AS first_ord, j.key AS k
                     FROM (SELECT np_argsort("total data communicated (MB)", first_ord, 1) AS perm FROM out_rows) p,
                          json_each(p.perm) j)
SELECT out_rows.* FROM out_rows JOIN pos USING (first_ord) ORDER BY pos.k;
