-- module: inference.inference_ops_summary_by_category
-- requires: ops.ops_summary_by_category

-- inference_ops_summary_by_category: the launchers grouped by op category and
-- parent_module (TraceLens's module variant of ops_summary_by_category): the 'inference'
-- rows of ops_summary_by_category_keyed (sql/ops/ops_summary_by_category.sql).
CREATE TEMP VIEW IF NOT EXISTS inference_ops_summary_by_category AS
SELECT trace_id, rank, op_category, parent_module, count, call_stack_first, total_direct_kernel_time_ms,
       percentage, cumulative_percentage
FROM ops_summary_by_category_keyed WHERE report = 'inference' ORDER BY trace_id, rank;
