-- module: collectives.nccl_implicit_sync
-- requires: collectives._nccl_implicit_sync

-- nccl_implicit_sync: TraceLens's nccl_implicit_sync sheet, one row per instance in
-- order of first appearance; metadata from its first row. Times in µs, sizes MiB,
-- bandwidths GiB/s (TraceLens's "GB/s"); NULL where TraceLens has NaN.
--   comm_latency            the fastest rank's duration: pure communication
--   skew in start time      latest start − earliest start (the largest wait)
--   earliest arrival rank   the rank that waited longest (ties: the higher rank)
--   avg_wait_time           mean wait over the ranks
--   skew in end time        latest end − earliest end
--   Full msg size (MB)      Out msg size for allgather, else In msg size
--   algo bw (GB/s)          (Full msg size / 1024) / (comm_latency / 1e6)
--   bus bw (GB/s)           algo bw × 2(n−1)/n (allreduce) or (n−1)/n (others), n = Group size
-- node_span, the number of ranks (nranks), pg_name, match_key and first_ord (the
-- instance's first row in nccl_match) follow.
CREATE TEMP VIEW IF NOT EXISTS nccl_implicit_sync AS SELECT * FROM _nccl_implicit_sync;
