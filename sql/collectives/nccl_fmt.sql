-- module: collectives.nccl_fmt
-- requires: collectives.coll_ranks, collectives.nccl_rows, config.report_params

-- matching each collective across ranks, TraceLens's nccl_long and
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
