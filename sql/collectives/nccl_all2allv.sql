-- module: collectives.nccl_all2allv
-- requires: collectives._nccl_all2allv

-- nccl_all2allv: TraceLens's nccl_all2allv sheet, one row per instance, most data first.
--   total data communicated (MB), total nelems communicated   Σ over ranks of In msg size / nelems
--   wall_time (us)                latest end − earliest start
--   max/min/avg_rank_dur (us)     over the ranks' durations
--   throughput (GB/s)             (total MB / 1024) / (wall_time / 1e6)
--   max/min_rank_throughput (GB/s)  (In MB / 1024) / (dur / 1e6) over ranks with both > 0
--   size_imbalance                max In MB / mean In MB
--   skew in start time, skew in end time   latest − earliest start; latest − earliest end
-- node_span, pg_name, match_key and first_ord follow.
CREATE TEMP VIEW IF NOT EXISTS nccl_all2allv AS SELECT * FROM _nccl_all2allv;
