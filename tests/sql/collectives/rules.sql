-- collectives on a hand-made trace (tests/sql/collectives/coll.json): new-style args on
-- the kernel and the record_param_comms call (A, an allgather with the ranks as a JSON
-- array); an old-style call whose sizes are on the nccl: annotation only (B); a 'wait'
-- call (no row); a kernel whose launch is not in the trace (D); a custom all-reduce
-- kernel with no args (E, kind from its name); a memcpy with nccl in its name (no
-- row); gloo work on its own thread (G); a float8 reduce-scatter from a bare runtime
-- call (H).
SELECT trace_open('tests/sql/collectives/coll.json') AS id;
SELECT rank, uid, source, name, kind, collective_name, process_group, process_group_desc,
       group_ranks, group_size, seq_in_group, dtype, dtype_bytes, in_nelems, out_nelems,
       in_bytes, out_bytes, in_split_sizes, out_split_sizes, size_source, stream, device,
       ts, dur, ts_ns, dur_ns, call_uid, op_uid, op_name, annotation_uid, call_ts, call_dur
FROM collectives;
SELECT uid, kind, in_size_mb, out_size_mb, msg_size_mb, dur, algbw_gibs, busbw_factor, busbw_gibs
FROM coll_analysis;
SELECT kind, process_group, group_size, dtype, in_nelems, count, in_size_mb, dur_sum_us,
       dur_mean_us, dur_std_us, algbw_gibs_mean, busbw_gibs_mean
FROM coll_analysis_summary;
-- TraceLens's sheet: kernel args only; E has no keys and is dropped, but its missing
-- Group size / nelems / split sizes make those columns floats; H's float8 dtype has no
-- size in TraceLens's table; the array of ranks prints as a tuple
SELECT * FROM report_coll_analysis;
-- as a table-valued function, by label, id or path
SELECT (SELECT count(*) FROM collectives('coll')) AS by_label,
       (SELECT count(*) FROM collectives(1)) AS by_id,
       (SELECT count(*) FROM collectives WHERE trace_id = 1) AS by_trace_id,
       (SELECT count(*) FROM collectives WHERE trace_id = 2) AS other_id;
