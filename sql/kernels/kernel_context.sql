-- module: kernels.kernel_context

-- kernel_context (one row per kernel with the op around its
-- launch) and kernel_summary (TraceLens's kernel_summary sheet; docs/report.md).

-- kernel_context: every GPU event of kind 'kernel' (memcpy and memset excluded,
-- kernels whose launch is not linked included), in file order, with TraceLens's view
-- of where it came from:
--   launcher_uid, launcher   the runtime call TraceLens links it to (NULL if unlinked)
--   parent_op_uid, parent_op the nearest cpu_op above that call (no `execute`
--                            skipping); NULL if none, or if TraceLens left the call out
--                            of its tree
--   parent_op_category       that op's category: its kernel_launchers.op_category
--                            when it launches kernels itself, else op_category(name)
-- ts, dur in µs.
CREATE TEMP VIEW IF NOT EXISTS kernel_context AS
WITH base AS (
    SELECT k.trace_id, k.uid, k.name, k.stream, k.ts, k.dur, k.dur_ns,
           k.tl_runtime_uid AS launcher_uid,
           CASE WHEN k.tl_runtime_uid IS NOT NULL THEN k.launcher_name END AS launcher,
           -- the nearest cpu_op is TraceLens's too unless the runtime call itself is
           -- out of TraceLens's tree (only possible when no launcher op was found)
           CASE WHEN k.tl_runtime_uid IS NULL OR k.op_uid IS NULL THEN 0
                WHEN k.tl_launcher_uid IS NOT NULL AND k.tl_launcher_uid <> k.tl_runtime_uid THEN 1
                ELSE NOT coalesce((SELECT e.tl_dropped FROM events e
                                   WHERE e.trace_id = k.trace_id AND e.uid = k.tl_runtime_uid), 0)
           END AS has_op,
           k.op_uid, k.op_name
    FROM kernels k
    WHERE k.kind = 'kernel'
)
SELECT trace_id, uid, name, stream, ts, dur, dur_ns, launcher_uid, launcher,
       CASE WHEN has_op THEN op_uid END AS parent_op_uid,
       CASE WHEN has_op THEN op_name END AS parent_op,
       -- a category that the op's name decides is the launcher's too; only 'other'
       -- may be refined by the launcher's first kernel (docs/perf-models.md, Op categories)
       CASE WHEN NOT has_op THEN NULL
            WHEN op_category(op_name) <> 'other' THEN op_category(op_name)
            ELSE coalesce((SELECT l.op_category FROM kernel_launchers l
                           WHERE l.trace_id = base.trace_id AND l.uid = base.op_uid), 'other')
       END AS parent_op_category
FROM base;
