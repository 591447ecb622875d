-- module: inference.inference_ops_summary
-- requires: ops.ops_summary

-- inference_ops_summary: TraceLens's ops_summary of the inference report (its module
-- variant, docs/inference.md): the 'inference' rows of ops_summary_keyed
-- (sql/ops/ops_summary.sql), grouped by name and parent_module; call_stack_first is the
-- first launcher's call stack (launcher order). TraceLens's order of exact ties is
-- numpy's unstable sort: docs/differences.md.
CREATE TEMP VIEW IF NOT EXISTS inference_ops_summary AS
SELECT trace_id, rank, name, parent_module, total_direct_kernel_time_sum, total_subtree_kernel_time_sum,
       count AS total_subtree_kernel_time_count, total_direct_kernel_time_ms, count, categories,
       call_stack_first, percentage, cumulative_percentage
FROM ops_summary_keyed WHERE report = 'inference' ORDER BY trace_id, rank;
