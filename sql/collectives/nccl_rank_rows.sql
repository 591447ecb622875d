-- module: collectives.nccl_rank_rows
-- requires: collectives.coll_trace_ranks

-- nccl_rank_rows: TraceLens's per-event row of each open trace (docs/collectives.md, nccl_rank_rows
-- and nccl_long): kernels of cat exactly 'kernel' whose name contains nccl, rccl or
-- cross_device_reduce (any case), with a correlation or External id, and the kernel's own args
-- as TraceLens holds them (the tl_* columns of collectives, decoded there: arrays as Python
-- tuple text, booleans as True / False). seq is NCCL's sequence number ("Seq" on the kernel,
-- else on its record_param_comms call), NULL when the trace has none.
CREATE TEMP VIEW IF NOT EXISTS nccl_rank_rows AS
WITH k AS (
    SELECT k.trace_id, k.uid, k.name, k.ts, k.dur, k.ts_ns, k.dur_ns
    FROM kernels k JOIN events e ON e.trace_id = k.trace_id AND e.uid = k.uid
    WHERE k.is_comm AND k.kind = 'kernel' AND e.cat = 'kernel'
      AND (k.correlation IS NOT NULL OR k.external_id IS NOT NULL)
)
SELECT k.trace_id, r.rank, k.uid, k.name,
       c.tl_process_group AS pg,
       c.tl_group_ranks AS pg_ranks,
       c.tl_collective_name AS collective_name,
       c.tl_group_size AS group_size,
       c.tl_dtype AS dtype,
       c.tl_in_nelems AS in_nelems,
       c.tl_out_nelems AS out_nelems,
       c.tl_in_split_sizes AS in_split,
       c.tl_out_split_sizes AS out_split,
       c.tl_stream AS stream,
       c.tl_seq AS seq,
       k.ts, k.dur, k.ts_ns, k.dur_ns
FROM k JOIN coll_trace_ranks r ON r.trace_id = k.trace_id
JOIN collectives c ON c.trace_id = k.trace_id AND c.uid = k.uid;
