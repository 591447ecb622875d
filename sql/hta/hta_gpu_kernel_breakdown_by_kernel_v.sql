-- module: hta.hta_gpu_kernel_breakdown_by_kernel_v
-- requires: hta.hta_device_events

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
