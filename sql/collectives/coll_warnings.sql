-- module: collectives.coll_warnings
-- requires: collectives.coll_ranks, collectives.nccl_match

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
WITH RECURSIVE ws AS (SELECT max(world_size) AS n,
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
FROM nccl_match WHERE match_status = 'count_mismatch' GROUP BY pg_name, rank
UNION ALL
SELECT CASE WHEN match_status = 'duplicate' THEN 'duplicate' ELSE 'mismatch' END, NULL, pg_name, collective_id,
       CASE WHEN match_status = 'duplicate' THEN 'a rank has two collectives with Seq ' || match_key
            ELSE 'ranks ' || group_concat(rank, ',') || ' disagree on ' || substr(match_status, 11) END
FROM nccl_match WHERE match_status IN ('duplicate') OR match_status LIKE 'mismatch:%'
GROUP BY pg_name, match_key
UNION ALL
SELECT 'incomplete', NULL, pg_name, collective_id,
       'only rank(s) ' || group_concat(rank, ',') || ' of a group of ' || max(group_size) || ' have this collective'
FROM nccl_match WHERE match_status = 'ok'
GROUP BY pg_name, match_key HAVING count(DISTINCT rank) < max(group_size)
ORDER BY 1, 2, 3, 4;
