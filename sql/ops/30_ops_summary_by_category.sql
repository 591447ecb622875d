-- ops_summary_by_category: GPU kernel time per op category (TraceLens's sheet of the
-- same name, reference-semantics §5.4). Input: kernel_launchers (one row per op that
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
           sum(total_direct_kernel_time) / 1000.0 AS total_direct_kernel_time_ms
    FROM kernel_launchers
    GROUP BY trace_id, op_category
)
SELECT trace_id, op_category, count, total_direct_kernel_time_ms,
       total_direct_kernel_time_ms / sum(total_direct_kernel_time_ms) OVER w_all * 100.0 AS percentage,
       sum(total_direct_kernel_time_ms) OVER w_run
         / sum(total_direct_kernel_time_ms) OVER w_all * 100.0 AS cumulative_percentage
FROM g
WINDOW w_all AS (PARTITION BY trace_id),
       w_run AS (PARTITION BY trace_id ORDER BY total_direct_kernel_time_ms DESC, op_category
                 ROWS UNBOUNDED PRECEDING)
ORDER BY trace_id, total_direct_kernel_time_ms DESC, op_category;
