-- Cross-rank matching and the all-to-all views on hand-made per-rank rows (imported as
-- a --export-rank database would be). World size 4, rank 3 missing.
INSERT INTO coll_rank_info_import VALUES (NULL,0,4,2,'r0'),(NULL,1,4,2,'r1'),(NULL,2,4,2,'r2');
-- trace_id, rank, uid, name, pg, pg_ranks, coll, gsize, dtype, in_n, out_n, in_split, out_split, stream, seq, ts, dur, ts_ns, dur_ns
INSERT INTO coll_rank_import VALUES
 -- group A is matched by Seq: rank 1 lacks Seq 1, so Seq 2 still pairs with Seq 2
 (NULL,0,10,'k','A','[0, 1]','allreduce',2,'Float',262144,262144,'[]','[]',7,1,100.5,10.0,100500,10000),
 (NULL,0,11,'k','A','[0, 1]','allreduce',2,'Float',262144,262144,'[]','[]',7,2,200.5,10.0,200500,10000),
 (NULL,0,12,'k','A','[0, 1]','allreduce',2,'Float',524288,524288,'[]','[]',7,3,300.5,20.0,300500,20000),
 (NULL,1,10,'k','A','[0, 1]','allreduce',2,'Float',262144,262144,'[]','[]',7,1,104.5,6.0,104500,6000),
 (NULL,1,12,'k','A','[0, 1]','allreduce',2,'Float',524288,524288,'[]','[]',7,3,301.5,19.0,301500,19000),
 -- group B has no Seq; rank 2 has one call fewer: not matched, a warning
 (NULL,0,20,'k','B','[0, 2]','allgather',2,'BFloat16',1024,2048,'[]','[]',8,NULL,400.0,5.0,400000,5000),
 (NULL,0,21,'k','B','[0, 2]','allgather',2,'BFloat16',1024,2048,'[]','[]',8,NULL,500.0,5.0,500000,5000),
 (NULL,2,20,'k','B','[0, 2]','allgather',2,'BFloat16',1024,2048,'[]','[]',8,NULL,402.0,3.0,402000,3000),
 -- group C: all_to_allv across nodes (2 GPUs per node)
 (NULL,0,30,'k','C','[0, 2]','all_to_allv',2,'Float',300,500,'[100, 200]','[100, 400]',9,NULL,600.0,10.0,600000,10000),
 (NULL,2,30,'k','C','[0, 2]','all_to_allv',2,'Float',500,300,'[100, 400]','[200, 100]',9,NULL,602.0,20.0,602000,20000),
 -- group D: the ranks disagree on the size: a mismatch, left out
 (NULL,1,40,'k','D','[1, 2]','allreduce',2,'Float',10,10,'[]','[]',7,NULL,700.0,1.0,700000,1000),
 (NULL,2,40,'k','D','[1, 2]','allreduce',2,'Float',12,12,'[]','[]',7,NULL,700.0,1.0,700000,1000);
SELECT collective_id, rank, "Process Group Name", index_in_group, seq, match_key, match_status, node_id, node_span
FROM nccl_long;
SELECT * FROM coll_warnings;
-- Seq 3: comm_latency 19 (rank 1), waits 1 and 0, 2 MiB / 19 µs; bus bw = algo bw × 2·1/2
SELECT collective_id, comm_latency, "skew in start time", "earliest arrival rank", avg_wait_time,
       "skew in end time", "Full msg size (MB)", "algo bw (GB/s)", "bus bw (GB/s)", nranks, node_span
FROM nccl_implicit_sync;
SELECT * FROM nccl_implicit_sync_ranks;
SELECT "Collective name", dtype, "In msg nelems", count, comm_latency_mean, comm_latency_median,
       "Total comm latency (ms)" FROM nccl_summary_implicit_sync;
SELECT * FROM straggler_summary;
-- all_to_allv: 800 elements × 4 B = 0.0030517578125 MiB in 22 µs wall time
SELECT collective_id, "total data communicated (MB)", "total nelems communicated", "wall_time (us)",
       "avg_rank_dur (us)", "throughput (GB/s)", size_imbalance, "skew in start time", "skew in end time", node_span
FROM nccl_all2allv;
SELECT rank, skew_start, skew_end FROM nccl_all2allv_ranks;
SELECT "Process Group Name", dtype, count, "Total wall_time (us)", "Total wall_time (ms)" FROM nccl_summary_all2allv;
SELECT * FROM nccl_all2allv_heatmap;
SELECT rank, "Collective name", dtype, dur_sum, operation_count, node_id FROM nccl_summary_long;
SELECT np_round(0.25, 1), np_round(0.35, 1), np_round(2.5, 0), np_round(NULL, 1);
