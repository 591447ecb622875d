-- module: inference.inference_ops_summary
-- requires: inference.inference_launchers

-- inference_ops_summary: TraceLens's ops_summary of the inference report (its module
-- variant, docs/inference.md): inference_launchers grouped by name and parent_module;
-- call_stack_first is the first launcher's call stack (launcher order). Rows: direct
-- time descending, ties by name, parent_module (TraceLens's order of exact ties is
-- numpy's unstable sort: docs/differences.md).
CREATE TEMP VIEW IF NOT EXISTS inference_ops_summary AS
WITH g AS MATERIALIZED (
    SELECT trace_id, name, parent_module,
           pd_sum(total_direct_kernel_time, seq) AS direct_sum,
           pd_sum(total_subtree_kernel_time, seq) AS subtree_sum,
           count(*) AS count, py_sorted_set(op_category) AS categories,
           first(call_stack, seq) AS call_stack_first
    FROM inference_launchers WHERE name IS NOT NULL
    GROUP BY trace_id, name, parent_module
), r AS MATERIALIZED (
    SELECT *, direct_sum / 1000.0 AS direct_ms,
           row_number() OVER (PARTITION BY trace_id ORDER BY -direct_sum, name, parent_module) AS rank
    FROM g
), p AS (
    SELECT *, direct_ms / np_sum(direct_ms) OVER (PARTITION BY trace_id ORDER BY rank ROWS BETWEEN
                                                  UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) * 100.0 AS percentage
    FROM r
)
SELECT trace_id, rank, name, parent_module, direct_sum AS total_direct_kernel_time_sum,
       subtree_sum AS total_subtree_kernel_time_sum, count AS total_subtree_kernel_time_count,
       direct_ms AS total_direct_kernel_time_ms, count, categories, call_stack_first, percentage,
       cumsum(percentage) OVER (PARTITION BY trace_id ORDER BY rank ROWS UNBOUNDED PRECEDING) AS cumulative_percentage
FROM p ORDER BY trace_id, rank;
