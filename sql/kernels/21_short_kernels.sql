-- 21_short_kernels.sql — short_kernels (the kernels below the threshold, with their
-- parent op's arguments), short_kernels_summary and short_kernel_histogram
-- (TraceLens's short-kernel study; docs/report.md). Threshold, bin count and top-k come
-- from report_params (10 µs, 100 bins, all rows by default).

-- short_kernels: kernel_context rows with dur < short_kernel_threshold_us, plus the
-- parent op's argument columns as JSON text (events.input_dims, input_strides,
-- concrete_inputs; NULL when the op has none).
CREATE TEMP VIEW IF NOT EXISTS short_kernels AS
SELECT c.trace_id, c.uid, c.name, c.stream, c.ts, c.dur, c.dur_ns,
       c.launcher_uid, c.launcher, c.parent_op_uid, c.parent_op,
       e.input_dims, e.input_strides, e.concrete_inputs
FROM kernel_context c
LEFT JOIN events e ON e.trace_id = c.trace_id AND e.uid = c.parent_op_uid
WHERE c.dur < (SELECT CAST(value AS REAL) FROM report_params WHERE name = 'short_kernel_threshold_us');

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

-- short_kernel_histogram: equal-width histogram of the short kernels' durations per
-- trace, numpy.histogram's way: `bins` bins over [min, max] (±0.5 µs when min = max),
-- edges start + i × (max − min) / bins with the last edge = max, bin i holding
-- edge_i <= dur < edge_i+1 (the last bin closed). bin_start, bin_end in µs.
CREATE TEMP VIEW IF NOT EXISTS short_kernel_histogram AS
WITH RECURSIVE
nb(b) AS (SELECT CAST(value AS INTEGER) FROM report_params WHERE name = 'short_kernel_histogram_bins'),
sk AS MATERIALIZED (
    SELECT trace_id, dur FROM kernel_context
    WHERE dur < (SELECT CAST(value AS REAL) FROM report_params WHERE name = 'short_kernel_threshold_us')
),
range AS (
    SELECT trace_id,
           CASE WHEN lo = hi THEN lo - 0.5 ELSE lo END AS lo,
           CASE WHEN lo = hi THEN hi + 0.5 ELSE hi END AS hi
    FROM (SELECT trace_id, min(dur) AS lo, max(dur) AS hi FROM sk GROUP BY trace_id)
),
bins(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM bins, nb WHERE i + 1 < nb.b),
edges AS (
    SELECT r.trace_id, bins.i,
           r.lo + bins.i * ((r.hi - r.lo) / nb.b) AS e0,
           CASE WHEN bins.i + 1 = nb.b THEN r.hi
                ELSE r.lo + (bins.i + 1) * ((r.hi - r.lo) / nb.b) END AS e1
    FROM range r, bins, nb
    WHERE nb.b >= 1
),
guess AS (
    -- numpy's index estimate, then its ±1 corrections against the edges
    SELECT s.trace_id, s.dur,
           min(CAST((s.dur - r.lo) / (r.hi - r.lo) * nb.b AS INTEGER), nb.b - 1) AS i,
           r.lo, r.hi, nb.b
    FROM sk s JOIN range r USING (trace_id), nb
),
placed AS (
    SELECT trace_id,
           CASE WHEN dur < lo + i * ((hi - lo) / b) AND i > 0 THEN i - 1
                WHEN i + 1 < b AND dur >= lo + (i + 1) * ((hi - lo) / b) THEN i + 1
                ELSE i END AS i
    FROM guess
),
counts AS (SELECT trace_id, i, count(*) AS n FROM placed GROUP BY trace_id, i)
SELECT e.trace_id, e.i AS bin, e.e0 AS bin_start, e.e1 AS bin_end, coalesce(c.n, 0) AS count
FROM edges e LEFT JOIN counts c ON c.trace_id = e.trace_id AND c.i = e.i
ORDER BY e.trace_id, e.i;
