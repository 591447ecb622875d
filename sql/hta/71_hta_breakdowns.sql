-- 71_hta_breakdowns.sql — HTA's temporal breakdown, comm/comp overlap and GPU kernel
-- breakdowns (docs/hta.md), over hta_unions. Every rank of the call; times in µs.

-- hta_temporal_breakdown: kernel_time = last end - first start of the device rows;
-- idle = kernel_time - their union; compute = the union of COMPUTATION rows; the rest
-- is non-compute. Percentages of kernel_time, numpy-rounded to 2 decimals.
CREATE TEMP VIEW IF NOT EXISTS hta_temporal_breakdown_v AS
WITH a AS (
    SELECT rank,
           max(e) FILTER (WHERE class = 'ALL') - min(s) FILTER (WHERE class = 'ALL') AS kernel_time,
           total(e - s) FILTER (WHERE class = 'ALL') AS busy,
           total(e - s) FILTER (WHERE class = 'COMPUTATION') AS compute
    FROM hta_unions GROUP BY rank
),
t AS (SELECT rank, kernel_time - busy AS idle, compute, busy - compute AS non_compute, kernel_time FROM a)
SELECT rank, CAST(idle AS REAL) AS "idle_time(us)", CAST(compute AS REAL) AS "compute_time(us)",
       CAST(non_compute AS REAL) AS "non_compute_time(us)", CAST(kernel_time AS REAL) AS "kernel_time(us)",
       np_round(100.0 * idle / kernel_time, 2) AS idle_time_pctg,
       np_round(100.0 * compute / kernel_time, 2) AS compute_time_pctg,
       np_round(100.0 * non_compute / kernel_time, 2) AS non_compute_time_pctg
FROM t ORDER BY rank;

-- hta_type_sweep: the unions of COMPUTATION (bit 1), COMMUNICATION (2) and MEMORY (4)
-- as one sweep per rank: each segment between consecutive endpoints carries the bits
-- of the unions covering it.
CREATE TEMP VIEW IF NOT EXISTS hta_type_sweep AS
WITH p AS (
    SELECT rank, s AS t, bit FROM (
        SELECT rank, s, CASE class WHEN 'COMPUTATION' THEN 1 WHEN 'COMMUNICATION' THEN 2 ELSE 4 END AS bit
        FROM hta_unions WHERE class IN ('COMPUTATION', 'COMMUNICATION', 'MEMORY'))
    UNION ALL
    SELECT rank, e, -bit FROM (
        SELECT rank, e, CASE class WHEN 'COMPUTATION' THEN 1 WHEN 'COMMUNICATION' THEN 2 ELSE 4 END AS bit
        FROM hta_unions WHERE class IN ('COMPUTATION', 'COMMUNICATION', 'MEMORY'))
),
r AS (
    SELECT rank, t, sum(bit) OVER w AS bits, lead(t) OVER w - t AS len
    FROM p WINDOW w AS (PARTITION BY rank ORDER BY t, bit ROWS UNBOUNDED PRECEDING)
)
SELECT rank, bits, len FROM r WHERE len <> 0;

-- hta_comm_comp_overlap: the share of the communication union that overlaps the
-- computation union, in % (2 decimals); NULL (HTA's NaN) without communication.
CREATE TEMP VIEW IF NOT EXISTS hta_comm_comp_overlap_v AS
WITH p AS (
    SELECT rank, s AS t, CASE class WHEN 'COMMUNICATION' THEN 1 ELSE 2 END AS bit
    FROM hta_unions WHERE class IN ('COMPUTATION', 'COMMUNICATION')
    UNION ALL
    SELECT rank, e, CASE class WHEN 'COMMUNICATION' THEN -1 ELSE -2 END
    FROM hta_unions WHERE class IN ('COMPUTATION', 'COMMUNICATION')
),
w AS (  -- running == 3 exactly: both unions (a negative-length group can make other sums)
    SELECT rank, sum(bit) OVER w AS running, lead(t) OVER w - t AS len
    FROM p WINDOW w AS (PARTITION BY rank ORDER BY t, bit ROWS UNBOUNDED PRECEDING)
),
o AS (SELECT rank, total(len) FILTER (WHERE running = 3) AS overlap FROM w GROUP BY rank),
m AS (SELECT rank, total(e - s) AS comm FROM hta_unions WHERE class = 'COMMUNICATION' GROUP BY rank)
SELECT i.rank, np_round(100.0 * coalesce(o.overlap, 0) / nullif(m.comm, 0), 2) AS comp_comm_overlap_pctg
FROM hta_info i LEFT JOIN o ON o.rank = i.rank LEFT JOIN m ON m.rank = i.rank ORDER BY i.rank;

-- hta_gpu_kernel_breakdown_by_type: time per combination of kernel types running
-- (COMPUTATION overlapping COMMUNICATION, ...), truncated to whole µs per rank, summed
-- over the ranks; percentage of the total (1 decimal).
CREATE TEMP VIEW IF NOT EXISTS hta_gpu_kernel_breakdown_by_type_v AS
WITH l AS (
    SELECT rank,
           substr(CASE WHEN bits & 1 THEN ' overlapping COMPUTATION' ELSE '' END
                  || CASE WHEN bits & 2 THEN ' overlapping COMMUNICATION' ELSE '' END
                  || CASE WHEN bits & 4 AND hta_arg('include_memory_kernels') THEN ' overlapping MEMORY' ELSE '' END,
                  14) AS kernel_type,
           len
    FROM hta_type_sweep WHERE bits > 0
),
r AS (SELECT kernel_type, rank, CAST(total(len) AS INTEGER) AS s FROM l WHERE kernel_type <> '' GROUP BY 1, 2),
k AS (SELECT kernel_type, sum(s) AS sum FROM r GROUP BY 1)
SELECT kernel_type, sum, np_round(100.0 * sum / (SELECT sum(sum) FROM k), 1) AS percentage
FROM k ORDER BY sum DESC, kernel_type;

-- hta_gpu_kernel_breakdown_by_kernel: per rank and kernel type, each kernel name's
-- duration stats; past num_kernels names, those beyond the first num_kernels or past
-- the duration_ratio quantile of the running total (in HTA's sort order) fold into
-- 'others', whose stats are then over the folded names' sums.
CREATE TEMP VIEW IF NOT EXISTS hta_gpu_kernel_breakdown_by_kernel_v AS
WITH d AS (
    SELECT rank, kernel_type, name, dur, uid FROM hta_device_events
    WHERE kernel_type IN ('COMPUTATION', 'COMMUNICATION')
       OR (kernel_type = 'MEMORY' AND hta_arg('include_memory_kernels'))
),
g AS (
    SELECT rank, kernel_type, name, total(dur) AS sum, max(dur) AS mx, min(dur) AS mn,
           pd_mean(dur, uid) AS mean, coalesce(pd_std(dur, uid), 0.0) AS std,
           row_number() OVER (PARTITION BY rank, kernel_type ORDER BY name) AS ord
    FROM d GROUP BY rank, kernel_type, name
),
n AS (SELECT rank, kernel_type, count(*) AS n, np_argsort(sum, ord, 1) AS order_json FROM g GROUP BY 1, 2),
p AS (  -- each name's position in HTA's order (sum descending)
    SELECT n.rank, n.kernel_type, n.n, CAST(j.key AS INTEGER) AS pos, CAST(j.value AS INTEGER) AS ord
    FROM n, json_each(n.order_json) j
),
c AS (
    SELECT g.*, p.n, p.pos, cumsum(g.sum) OVER (PARTITION BY g.rank, g.kernel_type ORDER BY p.pos
                                               ROWS UNBOUNDED PRECEDING) AS cum
    FROM g JOIN p ON p.rank = g.rank AND p.kernel_type = g.kernel_type AND p.ord = g.ord
),
q AS (
    SELECT rank, kernel_type, np_quantile(cum, hta_arg('duration_ratio')) AS q FROM c GROUP BY 1, 2
),
f AS (
    SELECT c.*, c.n > hta_arg('num_kernels') AND c.sum >= 0
                AND (c.cum > q.q OR c.pos >= hta_arg('num_kernels')) AS folded
    FROM c JOIN q ON q.rank = c.rank AND q.kernel_type = c.kernel_type
)
SELECT name, sum AS "sum (us)", mx AS "max (us)", mn AS "min (us)", std AS stddev, mean AS "mean (us)",
       kernel_type, rank
FROM f WHERE n <= hta_arg('num_kernels')
UNION ALL
SELECT name, sum, sum, sum, 0.0, sum, kernel_type, rank
FROM f WHERE n > hta_arg('num_kernels') AND NOT folded
UNION ALL
SELECT 'others', total(sum), max(sum), min(sum), coalesce(pd_std(sum, pos), 0.0), pd_mean(sum, pos), kernel_type, rank
FROM f WHERE folded GROUP BY rank, kernel_type
ORDER BY kernel_type, name, rank;
