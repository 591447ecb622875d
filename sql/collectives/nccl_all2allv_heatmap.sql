-- module: collectives.nccl_all2allv_heatmap
-- requires: collectives.coll_ranks, collectives.nccl_match

-- nccl_all2allv_heatmap: bytes sent rank × rank by all_to_allv (every all_to_allv row of
-- nccl_long, matched or not): In split size[j] on rank i is the element count i sends
-- to j. Rows whose split list does not parse or whose length differs from Group size,
-- and rows of a dtype without a size, are skipped. Empty when world_size > 1024
-- (TraceLens's limit).
--   total_sent_MB   Σ elements × bytes per element / 2^20 (MiB)
--   avg_sent_MB     total_sent_MB / count
--   count           all_to_allv calls that sent from src_rank to dst_rank
CREATE TEMP VIEW IF NOT EXISTS nccl_all2allv_heatmap AS
WITH r AS (
    SELECT m.rank, m.bpe_any AS bpe, m.group_size,
           replace(replace(replace(m.in_split, ',)', ')'), '(', '['), ')', ']') AS j
    FROM (SELECT nccl_match.*,
                 CASE dtype WHEN 'Float' THEN 4 WHEN 'Int' THEN 4 WHEN 'Long' THEN 8
                            WHEN 'BFloat16' THEN 2 WHEN 'Bool' THEN 1 WHEN 'Byte' THEN 1
                            WHEN 'Double' THEN 8 WHEN 'Half' THEN 2 WHEN 'Short' THEN 2 END AS bpe_any
          FROM nccl_match WHERE collective_name = 'all_to_allv') m
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
