-- module: collectives.straggler_summary
-- requires: collectives.nccl_implicit_sync, collectives.nccl_implicit_sync_ranks,
-- requires: collectives.nccl_long

-- straggler_summary: TraceLens's straggler summary, one row per rank of the
-- implicit-sync collectives, lowest total wait (the straggler) first; ties as pandas'
-- (unstable) sort leaves them (np_argsort).
--   total_wait_time_us, mean_wait_time_us   Σ and mean of the rank's waits, rounded to 0.1 µs
--   times_arrived_last    instances where this rank waited least (ties: the lowest rank)
--   times_arrived_first   instances where it is the earliest arrival rank
--   pct_arrived_last      100 × times_arrived_last / num_collectives, rounded to 0.1
--   num_collectives       implicit-sync instances
--   total_nccl_dur_us     Σ dur of the rank's rows in nccl_long (every collective), rounded to 0.1 µs
-- node_id follows.
CREATE TEMP VIEW IF NOT EXISTS straggler_summary AS
WITH n AS (SELECT count(*) AS n FROM nccl_implicit_sync),
last AS (
    SELECT pg_name, match_key, rank,
           row_number() OVER (PARTITION BY pg_name, match_key ORDER BY wait_time, rank) AS k
    FROM nccl_implicit_sync_ranks
),
per AS (
    SELECT r.rank, np_sum(r.wait_time, r.first_ord) AS total_wait,
           np_sum(CAST(r.wait_time AS REAL), r.first_ord) / count(*) AS mean_wait,
           count(*) AS present, min(r.node_id) AS node_id
    FROM nccl_implicit_sync_ranks r GROUP BY r.rank
),
dur AS (SELECT rank, pd_sum(dur, uid) AS total_dur FROM nccl_long GROUP BY rank),
out_rows AS (
SELECT per.rank,
       CASE WHEN typeof(total_wait) = 'integer' AND present = n.n THEN total_wait
            ELSE np_round(CAST(total_wait AS REAL), 1) END AS total_wait_time_us,
       np_round(mean_wait, 1) AS mean_wait_time_us,
       (SELECT count(*) FROM last WHERE last.rank = per.rank AND last.k = 1) AS times_arrived_last,
       (SELECT count(*) FROM nccl_implicit_sync i WHERE i."earliest arrival rank" = per.rank) AS times_arrived_first,
       np_round(100.0 * (SELECT count(*) FROM last WHERE last.rank = per.rank AND last.k = 1) / n.n, 1)
           AS pct_arrived_last,
       n.n AS num_collectives,
       CASE WHEN typeof(dur.total_dur) = 'integer' THEN dur.total_dur ELSE np_round(CAST(dur.total_dur AS REAL), 1) END
           AS total_nccl_dur_us,
       per.node_id
FROM per, n LEFT JOIN dur ON dur.rank = per.rank
),
-- ranks in order, then pandas' unstable sort by total_wait_time_us
pos AS MATERIALIZED (SELECT CAST(j.value AS INTEGER) AS rank, j.key AS k
                     FROM (SELECT np_argsort(total_wait_time_us, rank, 0) AS perm FROM out_rows) p,
                          json_each(p.perm) j)
SELECT out_rows.* FROM out_rows JOIN pos USING (rank) ORDER BY pos.k;
