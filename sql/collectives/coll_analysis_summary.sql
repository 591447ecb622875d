-- module: collectives.coll_analysis_summary
-- requires: collectives.coll_analysis

-- coll_analysis_summary: coll_analysis grouped like TraceLens's coll_analysis sheet
-- (rank, process group and its ranks, collective, group size, dtype, element counts,
-- split sizes, stream), with the kind added and NULL keys kept as a group of their
-- own (TraceLens drops rows with a missing key). Largest total duration first.
--   count                      collectives in the group
--   in_size_mb, out_size_mb    of the group's first collective (they agree)
--   dur_sum_us, dur_mean_us, dur_std_us (sample), dur_min_us, dur_max_us   µs
--   algbw_gibs_mean, busbw_gibs_mean, busbw_gibs_max   GiB/s
CREATE TEMP VIEW IF NOT EXISTS coll_analysis_summary AS
SELECT trace_id, rank, process_group, group_ranks, kind, collective_name, group_size, dtype,
       in_nelems, out_nelems, in_split_sizes, out_split_sizes, stream,
       count(*) AS count,
       first(in_size_mb, uid) AS in_size_mb,
       first(out_size_mb, uid) AS out_size_mb,
       pd_sum(dur, uid) AS dur_sum_us,
       pd_mean(dur, uid) AS dur_mean_us,
       pd_std(dur, uid) AS dur_std_us,
       min(dur) AS dur_min_us,
       max(dur) AS dur_max_us,
       pd_mean(algbw_gibs, uid) AS algbw_gibs_mean,
       pd_mean(busbw_gibs, uid) AS busbw_gibs_mean,
       max(busbw_gibs) AS busbw_gibs_max
FROM coll_analysis
GROUP BY trace_id, rank, process_group, group_ranks, kind, collective_name, group_size, dtype,
         in_nelems, out_nelems, in_split_sizes, out_split_sizes, stream
ORDER BY trace_id, dur_sum_us DESC, rank, process_group, group_ranks, kind, collective_name,
         group_size, dtype, in_nelems, out_nelems, in_split_sizes, out_split_sizes, stream;
