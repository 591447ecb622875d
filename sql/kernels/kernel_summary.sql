-- module: kernels.kernel_summary
-- requires: kernels.kernel_context, timeline.gpu_timeline_rows

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
