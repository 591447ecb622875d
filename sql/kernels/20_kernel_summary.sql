-- 20_kernel_summary.sql — kernel_context (one row per kernel with the op around its
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

-- kernel_summary: kernels grouped by (parent_op_category, parent_op, kernel_name,
-- stream), largest total first. TraceLens's fallbacks apply: a kernel with no parent op
-- gets its launcher's name as parent_op and the category 'graph' (launcher name
-- contains cudagraph / graphlaunch, any case) or 'runtime'; an unlinked kernel has
-- both NULL. When no kernel of a trace has a parent op (a GPU-only trace) parent_op is
-- NULL throughout and is not a grouping key.
--   dur_sum_us, dur_mean_us, dur_min_us, dur_max_us   µs
--   pct_of_kernels_time   dur_sum_us / Σ dur of all the trace's kernels × 100
--   pct_of_total_time     dur_sum_us / gpu_timeline total_time × 100
CREATE TEMP VIEW IF NOT EXISTS kernel_summary AS
WITH per_trace AS MATERIALIZED (
    -- per trace: does any kernel have a parent op, Σ dur of all kernels (numpy's sum,
    -- file order), and the timeline's total_time
    SELECT t.trace_id, t.any_op, t.total_kernels_us,
           (SELECT time_us FROM gpu_timeline_rows r
            WHERE r.trace_id = t.trace_id AND r.type = 'total_time') AS total_us
    FROM (SELECT trace_id,
                 max(tl_runtime_uid IS NOT NULL AND op_uid IS NOT NULL) AS any_op,
                 np_sum(dur, uid) AS total_kernels_us
          FROM kernels WHERE kind = 'kernel' GROUP BY trace_id) t
),
rows AS (
    -- one row per kernel with its grouping keys; LIMIT keeps this a co-routine, so
    -- each kernel's lookups run once
    SELECT kc.trace_id, kc.uid, kc.name, kc.stream, kc.dur,
           coalesce(kc.parent_op_category,
                    CASE WHEN kc.launcher IS NULL OR kc.launcher = ''
                              OR lower(kc.launcher) = 'nan' THEN NULL
                         WHEN kc.launcher LIKE '%cudagraph%'
                              OR kc.launcher LIKE '%graphlaunch%' THEN 'graph'
                         ELSE 'runtime' END) AS category,
           CASE WHEN (SELECT any_op FROM per_trace p WHERE p.trace_id = kc.trace_id)
                THEN coalesce(kc.parent_op, kc.launcher) END AS op
    FROM kernel_context kc
    LIMIT -1
),
g AS (
    SELECT trace_id, category, op, name, stream,
           pd_sum(dur, uid) AS s, count(*) AS n, min(dur) AS mn, max(dur) AS mx
    FROM rows
    -- (the name's length first: long kernel names then rarely need comparing)
    GROUP BY trace_id, stream, length(name), name, category, op
)
SELECT trace_id,
       category AS parent_op_category,
       op AS parent_op,
       name AS kernel_name,
       stream,
       s AS dur_sum_us,
       n AS count,
       s / n AS dur_mean_us,
       mn AS dur_min_us,
       mx AS dur_max_us,
       CASE WHEN total_kernels_us > 0 THEN s / total_kernels_us * 100 END AS pct_of_kernels_time,
       CASE WHEN total_us <> 0 THEN s / (total_us / 1e3 * 1e3) * 100 END AS pct_of_total_time
FROM g JOIN per_trace USING (trace_id)
ORDER BY trace_id, s DESC, category NULLS LAST, op NULLS LAST, name NULLS LAST, stream NULLS LAST;

-- kernel_int_durations: per trace, whether every kernel's duration is a whole number of
-- µs. pandas then reads TraceLens's duration column as integers, so the report prints
-- its sums, minima and maxima without ".0" (report_kernel_summary,
-- report_short_kernels_summary).
CREATE TEMP VIEW IF NOT EXISTS kernel_int_durations AS
SELECT trace_id,
       NOT EXISTS (SELECT 1 FROM kernels k
                   WHERE k.trace_id = t.trace_id AND k.kind = 'kernel'
                     AND k.dur_ns % 1000 <> 0) AS int_dur
FROM traces t;
