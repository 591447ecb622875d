-- module: kernels.short_kernels_summary
-- requires: config.report_params, kernels.short_kernels, timeline.gpu_timeline_rows

-- short_kernels_summary: short kernels grouped by (parent_op, input_dims,
-- input_strides, concrete_inputs, kernel_name); kernels with NULL in any of these
-- are left out (pandas drops null keys). When no kernel of the trace has a parent op
-- (a GPU-only trace) the grouping is by kernel_name alone and the other keys are NULL;
-- otherwise a trace whose short kernels all lack a parent op has no rows.
-- Order: dur_sum_us descending, then count, dur_mean_us, pct_of_total_time ascending,
-- then first appearance in the trace.
--   dur_sum_us, dur_mean_us   µs
--   pct_of_total_time         dur_sum_us / gpu_timeline total_time × 100
--   ex_uid                    uid of the group's first kernel
CREATE TEMP VIEW IF NOT EXISTS short_kernels_summary AS
WITH sk AS MATERIALIZED (
    SELECT * FROM short_kernels
),
per_trace AS MATERIALIZED (
    SELECT t.trace_id, t.any_op,
           (SELECT time_us FROM gpu_timeline_rows r
            WHERE r.trace_id = t.trace_id AND r.type = 'total_time') AS total_us
    FROM (SELECT d.trace_id,
                 -- does any kernel of the trace (short or not) have a parent op?
                 EXISTS (SELECT 1 FROM kernels k
                         WHERE k.trace_id = d.trace_id AND k.kind = 'kernel'
                           AND k.tl_runtime_uid IS NOT NULL AND k.op_uid IS NOT NULL) AS any_op
          FROM (SELECT DISTINCT trace_id FROM sk) d) t
),
g AS (
    SELECT sk.trace_id,
           CASE WHEN p.any_op THEN parent_op END AS op,
           CASE WHEN p.any_op THEN input_dims END AS dims,
           CASE WHEN p.any_op THEN input_strides END AS strides,
           CASE WHEN p.any_op THEN concrete_inputs END AS concrete,
           name,
           pd_sum(dur, uid) AS s, count(*) AS n, min(uid) AS first_uid,
           p.total_us
    FROM sk JOIN per_trace p USING (trace_id)
    WHERE name IS NOT NULL
      AND (NOT p.any_op OR (parent_op IS NOT NULL AND input_dims IS NOT NULL
                            AND input_strides IS NOT NULL AND concrete_inputs IS NOT NULL))
    GROUP BY sk.trace_id, op, dims, strides, concrete, name
),
ranked AS (
    SELECT trace_id, op, dims, strides, concrete, name, s, n, s / n AS mean,
           CASE WHEN total_us <> 0 THEN s / (total_us / 1e3 * 1e3) * 100 END AS pct,
           first_uid
    FROM g
),
ordered AS (
    SELECT *, row_number() OVER (PARTITION BY trace_id
                                 ORDER BY s DESC, n, mean, pct, first_uid) AS rank
    FROM ranked
)
SELECT trace_id,
       op AS parent_op,
       dims AS input_dims,
       strides AS input_strides,
       concrete AS concrete_inputs,
       name AS kernel_name,
       s AS dur_sum_us,
       n AS count,
       mean AS dur_mean_us,
       pct AS pct_of_total_time,
       first_uid AS ex_uid
FROM ordered
WHERE rank <= coalesce((SELECT CAST(value AS INTEGER) FROM report_params
                       WHERE name = 'topk_short_kernels'), rank)
ORDER BY trace_id, rank;
