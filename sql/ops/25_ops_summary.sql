-- ops_summary: TraceLens's ops_summary sheet (reference-semantics §6.4), one row per
-- launcher name: the direct and subtree GPU busy time summed over its launchers (in
-- kernel_launchers order, with pandas' compensated sum), how many launchers, their op
-- categories, and the share of all direct kernel time. Rows in the sheet's order:
-- direct time descending, ties by name (pandas sorts the groups by name first, then
-- stably by time). Per-instance rows are in kernel_launchers.
--   SELECT name, total_direct_kernel_time_ms, percentage FROM ops_summary WHERE trace_id = 1 LIMIT 10;
CREATE TEMP VIEW ops_summary AS
WITH grouped AS MATERIALIZED (
    SELECT trace_id, name,
           pd_sum(total_direct_kernel_time, seq) AS direct_sum,
           pd_sum(total_subtree_kernel_time, seq) AS subtree_sum,
           count(*) AS count,
           py_sorted_set(op_category) AS categories,
           min(seq) AS first_seq, uid AS ex_uid  -- uid of the first launcher (bare column of min)
    FROM kernel_launchers WHERE name IS NOT NULL
    GROUP BY trace_id, name),
ranked AS MATERIALIZED (
    SELECT *, row_number() OVER (PARTITION BY trace_id ORDER BY -direct_sum, name) AS rank
    FROM grouped),
total AS MATERIALIZED (
    -- as pandas: numpy's sum of the sorted column
    SELECT trace_id, np_sum(direct_sum / 1000.0, rank) AS direct_ms FROM ranked GROUP BY trace_id),
pct AS (
    SELECT r.*, CASE WHEN t.direct_ms > 0 THEN r.direct_sum / 1000.0 / t.direct_ms * 100.0 END AS percentage
    FROM ranked r JOIN total t USING (trace_id))
SELECT p.trace_id, p.rank, p.name,
       p.direct_sum AS total_direct_kernel_time_sum,
       p.subtree_sum AS total_subtree_kernel_time_sum,
       p.direct_sum / 1000.0 AS total_direct_kernel_time_ms,
       p.subtree_sum / 1000.0 AS total_subtree_kernel_time_ms,
       p.count, p.categories, p.percentage,
       -- numpy's cumsum: a running left-to-right sum
       cumsum(p.percentage) OVER (PARTITION BY p.trace_id ORDER BY p.rank ROWS UNBOUNDED PRECEDING)
         AS cumulative_percentage,
       p.ex_uid
FROM pct p ORDER BY p.trace_id, p.rank;
