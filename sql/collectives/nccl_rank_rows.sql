-- module: collectives.nccl_rank_rows
-- requires: collectives.coll_trace_ranks

-- nccl_rank_rows: TraceLens's per-event row of each open trace (docs/collectives.md, nccl_rank_rows
-- and nccl_long): kernels of cat exactly 'kernel' whose name contains nccl, rccl or
-- cross_device_reduce (any case), with a correlation or External id, and the kernel's own args
-- (arrays as Python tuple text, as pandas holds them). seq is NCCL's sequence number ("Seq" on the
-- kernel, else on its record_param_comms call), NULL when the trace has none.
CREATE TEMP VIEW IF NOT EXISTS nccl_rank_rows AS
WITH k AS (
    SELECT k.trace_id, k.uid, k.name, k.ts, k.dur, k.ts_ns, k.dur_ns, e.args
    FROM kernels k JOIN events e ON e.trace_id = k.trace_id AND e.uid = k.uid
    WHERE k.is_comm AND k.kind = 'kernel' AND e.cat = 'kernel'
      AND (k.correlation IS NOT NULL OR k.external_id IS NOT NULL)
)
SELECT k.trace_id, r.rank, k.uid, k.name,
       CASE json_type(args, '$."Process Group Name"')
           WHEN 'array' THEN py_repr(json_extract(args, '$."Process Group Name"'), 1)
           ELSE json_extract(args, '$."Process Group Name"') END AS pg,
       CASE json_type(args, '$."Process Group Ranks"')
           WHEN 'array' THEN py_repr(json_extract(args, '$."Process Group Ranks"'), 1)
           ELSE json_extract(args, '$."Process Group Ranks"') END AS pg_ranks,
       coalesce(json_extract(args, '$."Collective name"'),
                CASE WHEN lower(k.name) LIKE '%cross_device_reduce%' THEN 'allreduce' END) AS collective_name,
       json_extract(args, '$."Group size"') AS group_size,
       json_extract(args, '$.dtype') AS dtype,
       json_extract(args, '$."In msg nelems"') AS in_nelems,
       json_extract(args, '$."Out msg nelems"') AS out_nelems,
       CASE json_type(args, '$."In split size"')
           WHEN 'array' THEN py_repr(json_extract(args, '$."In split size"'), 1)
           ELSE json_extract(args, '$."In split size"') END AS in_split,
       CASE json_type(args, '$."Out split size"')
           WHEN 'array' THEN py_repr(json_extract(args, '$."Out split size"'), 1)
           ELSE json_extract(args, '$."Out split size"') END AS out_split,
       json_extract(args, '$.stream') AS stream,
       coalesce(json_extract(args, '$.Seq'),
                (SELECT json_extract(ce.args, '$.Seq')
                 FROM collectives c JOIN events ce ON ce.trace_id = c.trace_id AND ce.uid = c.call_uid
                 WHERE c.trace_id = k.trace_id AND c.uid = k.uid)) AS seq,
       k.ts, k.dur, k.ts_ns, k.dur_ns
FROM k JOIN coll_trace_ranks r ON r.trace_id = k.trace_id;
