-- 52_nccl_rows.sql — the per-rank collective rows every multi-rank view reads
-- (docs/collectives.md; TraceLens's NCCL analyser, docs/collectives.md, nccl_rank_rows and
-- nccl_long).
--
-- A rank's rows come from an open trace (nccl_rank_rows) or from a per-rank table
-- written elsewhere and copied into coll_rank_import (trace_open_dir(..., 'collectives'),
-- or examples/collective_report.sh's cross-rank step over --export-rank databases).
-- nccl_rows and coll_ranks are the union of both; the views of 53-55 read only them, so
-- one process and many give the same rows.

-- gpus_per_node: node_id and node_span of the multi-rank views (TraceLens's
-- --gpus_per_node); NULL = the device count (deviceProperties) of the lowest rank.
CREATE TEMP TABLE IF NOT EXISTS report_params(
    name TEXT PRIMARY KEY,
    value,
    doc TEXT
);
INSERT OR IGNORE INTO report_params(name, value, doc) VALUES
    ('gpus_per_node', NULL,
     'GPUs per node for node_id = rank / gpus_per_node and node_span of the multi-rank collective views; NULL: the device count of the lowest rank''s trace');

-- Rows of ranks whose traces are not open. Columns as nccl_rank_rows / coll_trace_ranks
-- (untyped, so every value keeps the type it had).
CREATE TEMP TABLE IF NOT EXISTS coll_rank_import(
    trace_id, rank, uid, name, pg, pg_ranks, collective_name, group_size, dtype, in_nelems,
    out_nelems, in_split, out_split, stream, seq, ts, dur, ts_ns, dur_ns
);
CREATE TEMP TABLE IF NOT EXISTS coll_rank_info_import(trace_id, rank, world_size, devices, source);

-- coll_trace_ranks: one row per open trace: its rank (distributedInfo, the file name
-- read by trace_open_dir, else its position among the open traces, as TraceLens numbers
-- its list of files), world size, device count and path.
CREATE TEMP VIEW IF NOT EXISTS coll_trace_ranks AS
SELECT trace_id,
       coalesce(rank, (SELECT count(*) FROM traces p WHERE p.trace_id < t.trace_id)) AS rank,
       world_size, devices, path AS source
FROM traces t;

-- coll_ranks: every rank, open or imported.
CREATE TEMP VIEW IF NOT EXISTS coll_ranks AS
SELECT * FROM coll_trace_ranks
UNION ALL
SELECT * FROM coll_rank_info_import;

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

-- nccl_rows: every rank's rows, open or imported.
CREATE TEMP VIEW IF NOT EXISTS nccl_rows AS
SELECT * FROM nccl_rank_rows
UNION ALL
SELECT * FROM coll_rank_import;
