-- module: kernels.short_kernel_histogram
-- requires: config.report_params, kernels.kernel_context

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
