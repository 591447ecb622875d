-- module: collectives.coll_ranks
-- requires: collectives.coll_rank_info_import, collectives.coll_trace_ranks

-- coll_ranks: every rank, open or imported.
CREATE TEMP VIEW IF NOT EXISTS coll_ranks AS
SELECT * FROM coll_trace_ranks
UNION ALL
SELECT * FROM coll_rank_info_import;
