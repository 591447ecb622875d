-- module: inference.inference_ops_summary_by_category
-- requires: inference.inference_launchers

-- inference_ops_summary_by_category: the same launchers grouped by op category and
-- parent_module (TraceLens's module variant of ops_summary_by_category).
CREATE TEMP VIEW IF NOT EXISTS inference_ops_summary_by_category AS
WITH g AS MATERIALIZED (
    SELECT trace_id, op_category, parent_module, count(*) AS count,
           first(call_stack, seq) AS call_stack_first,
           pd_sum(total_direct_kernel_time, seq) AS direct_sum
    FROM inference_launchers
    GROUP BY trace_id, op_category, parent_module
), r AS MATERIALIZED (
    SELECT *, direct_sum / 1000.0 AS direct_ms,
           row_number() OVER (PARTITION BY trace_id ORDER BY -direct_sum, op_category, parent_module) AS rank
    FROM g
), p AS (
    SELECT *, direct_ms / np_sum(direct_ms) OVER (PARTITION BY trace_id ORDER BY rank ROWS BETWEEN
                                                  UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) * 100.0 AS percentage
    FROM r
)
SELECT trace_id, rank, op_category, parent_module, count, call_stack_first,
       direct_ms AS total_direct_kernel_time_ms, percentage,
       cumsum(percentage) OVER (PARTITION BY trace_id ORDER BY rank ROWS UNBOUNDED PRECEDING) AS cumulative_percentage
FROM p ORDER BY trace_id, rank;
