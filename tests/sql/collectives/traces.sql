-- collectives on real traces: HTA's nccl_data (rank 0 of 2, new-style args on the
-- kernels), one DLRM rank (old-style: sizes on the nccl: annotations, no process
-- group), a CPU-only gloo rank and the demo trace.
SELECT trace_open('../shared/conformance/hta/nccl_data.json.gz', 'nccl') AS id;
SELECT trace_open('../shared/conformance/param/dlrm_8ranks/worker3_step_12.json.gz', 'dlrm') AS id;
SELECT trace_open('../shared/conformance/hta/cpu_only_gloo_rank34.json.gz', 'gloo') AS id;
SELECT trace_open('examples/demo_trace.json.gz', 'demo') AS id;
SELECT trace_id, rank, source, kind, size_source, count(*) AS n, sum(in_bytes) AS in_bytes,
       round(sum(dur), 3) AS dur_us, sum(call_uid IS NOT NULL) AS with_call,
       sum(op_uid IS NOT NULL) AS with_op, sum(annotation_uid IS NOT NULL) AS with_annotation
FROM collectives GROUP BY trace_id, rank, source, kind, size_source ORDER BY trace_id, kind;
-- the first collectives of nccl_data, and every one of the DLRM rank
SELECT trace_id, uid, kind, collective_name, process_group, process_group_desc, group_ranks,
       group_size, seq_in_group, dtype, in_nelems, out_nelems, in_bytes, stream, ts, dur,
       call_uid, op_name, annotation_uid, round(call_dur, 3) AS call_dur
FROM collectives WHERE (trace_id = 1 AND seq_in_group < 4) OR trace_id = 2 ORDER BY trace_id, ts;
SELECT trace_id, kind, process_group, group_size, dtype, in_nelems, count,
       round(in_size_mb, 6) AS in_mb, round(dur_sum_us, 3) AS dur_sum, round(dur_mean_us, 3) AS dur_mean,
       round(dur_std_us, 3) AS dur_std, dur_min_us, dur_max_us,
       round(algbw_gibs_mean, 4) AS algbw, round(busbw_gibs_mean, 4) AS busbw
FROM coll_analysis_summary;
-- TraceLens's sheet: nccl_data and the demo; the DLRM kernels carry no collective args
SELECT * FROM report_coll_analysis;
