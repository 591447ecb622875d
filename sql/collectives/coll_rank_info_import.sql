-- module: collectives.coll_rank_info_import

CREATE TEMP TABLE IF NOT EXISTS coll_rank_info_import(trace_id, rank, world_size, devices, source);
