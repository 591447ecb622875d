-- module: ops.ops_summary_by_category

-- ops_summary_by_category: GPU kernel time per op category (TraceLens's sheet of the
-- same name, docs/schema.md, ops_summary_by_category). Input: kernel_launchers (one row per op that
-- GPU time is charged to). Rows ordered by time, largest first.
--   trace_id                      the trace
--   op_category                   category of the launcher op (op_category())
--   count                         launcher instances in the category
--   total_direct_kernel_time_ms   Σ direct GPU busy time of those instances, ms
--   percentage                    share of all direct GPU time of the trace, %
--   cumulative_percentage         running sum of percentage in row order, %
CREATE TEMP VIEW IF NOT EXISTS ops_summary_by_category AS
WITH g AS (
    SELECT trace_id, op_category, count(*) AS count,
           pd_sum(total_direct_kernel_time, seq) / 1000.0 AS total_direct_kernel_time_ms
    FROM kernel_launchers
    GROUP BY trace_id, op_category
),
-- as pandas: each row's share of numpy's sum of the sorted column, and numpy's cumsum
-- of the shares (both in the sheet's row order)
p AS (
    SELECT *, total_direct_kernel_time_ms / np_sum(total_direct_kernel_time_ms) OVER (w ROWS BETWEEN UNBOUNDED PRECEDING
                                      AND UNBOUNDED FOLLOWING) * 100.0 AS percentage
    FROM g WINDOW w AS (PARTITION BY trace_id ORDER BY total_direct_kernel_time_ms DESC, op_category)
)
SELECT trace_id, op_category, count, total_direct_kernel_time_ms,
       percentage, cumsum(percentage) OVER w AS cumulative_percentage
FROM p WINDOW w AS (PARTITION BY trace_id ORDER BY total_direct_kernel_time_ms DESC, op_category ROWS UNBOUNDED PRECEDING)
ORDER BY trace_id, total_direct_kernel_time_ms DESC, op_category;
