-- module: ops.ops_summary

-- ops_summary: TraceLens's ops_summary sheet (docs/schema.md, ops_summary), one row per
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
    SELECT *, direct_sum / 1000.0 AS direct_ms,
           row_number() OVER (PARTITION BY trace_id ORDER BY -direct_sum, name) AS rank
    FROM grouped),
-- as pandas: each row's share of numpy's sum of the sorted column, and numpy's cumsum
-- of the shares (both in rank order)
pct AS (
    SELECT *, direct_ms / np_sum(direct_ms) OVER (PARTITION BY trace_id ORDER BY rank ROWS BETWEEN
                                                  UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) * 100.0
              AS percentage
    FROM ranked)
SELECT trace_id, rank, name,
       direct_sum AS total_direct_kernel_time_sum, subtree_sum AS total_subtree_kernel_time_sum,
       direct_ms AS total_direct_kernel_time_ms, subtree_sum / 1000.0 AS total_subtree_kernel_time_ms,
       count, categories, percentage,
       cumsum(percentage) OVER (PARTITION BY trace_id ORDER BY rank ROWS UNBOUNDED PRECEDING)
         AS cumulative_percentage,
       ex_uid
FROM pct ORDER BY trace_id, rank;
