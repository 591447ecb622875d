-- module: ops.ops_summary
-- requires: ops.ops_launchers

-- ops_summary_keyed: TraceLens's ops_summary sheet (docs/schema.md, ops_summary) of each
-- report (ops_launchers.report), one row per launcher name and, in the inference report,
-- parent module: the direct and subtree GPU busy time summed over its launchers (in
-- kernel_launchers order, with pandas' compensated sum), how many launchers, their op
-- categories, the first launcher's call stack (inference), and the share of all direct
-- kernel time. Rows in the sheet's order (rank): direct time descending, ties by name,
-- then parent module (pandas sorts the groups by their keys first, then stably by time;
-- TraceLens's inference report sorts unstably: docs/differences.md).
-- ops_summary: the perf report's rows; inference_ops_summary (sql/inference/) the others.
-- Per-instance rows are in kernel_launchers.
--   SELECT name, total_direct_kernel_time_ms, percentage FROM ops_summary WHERE trace_id = 1 LIMIT 10;
CREATE TEMP VIEW IF NOT EXISTS ops_summary_keyed AS
WITH grouped AS (
    SELECT trace_id, report, name, parent_module,
           pd_sum(total_direct_kernel_time, seq) AS direct_sum,
           pd_sum(total_subtree_kernel_time, seq) AS subtree_sum,
           count(*) AS count,
           py_sorted_set(op_category) AS categories,
           min(seq) AS first_seq, uid AS ex_uid  -- uid of the first launcher (bare column of min)
    FROM ops_launchers WHERE name IS NOT NULL
    GROUP BY trace_id, name, parent_module, report),
ranked AS (
    SELECT *, direct_sum / 1000.0 AS direct_ms,
           row_number() OVER (PARTITION BY trace_id, report ORDER BY -direct_sum, name, parent_module) AS rank
    FROM grouped),
-- as pandas: each row's share of numpy's sum of the sorted column, and numpy's cumsum
-- of the shares (both in rank order)
pct AS (
    SELECT *, direct_ms / np_sum(direct_ms) OVER (PARTITION BY trace_id, report ORDER BY rank ROWS BETWEEN
                                                  UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) * 100.0
              AS percentage
    FROM ranked)
SELECT trace_id, report, rank, name, parent_module,
       direct_sum AS total_direct_kernel_time_sum, subtree_sum AS total_subtree_kernel_time_sum,
       direct_ms AS total_direct_kernel_time_ms, subtree_sum / 1000.0 AS total_subtree_kernel_time_ms,
       count, categories,
       -- (once per group, from its first launcher: not the stack of every row)
       CASE WHEN report = 'inference' THEN inference_module_stack(trace_id, ex_uid) END AS call_stack_first,
       percentage,
       cumsum(percentage) OVER (PARTITION BY trace_id, report ORDER BY rank ROWS UNBOUNDED PRECEDING)
         AS cumulative_percentage,
       ex_uid
FROM pct ORDER BY trace_id, report, rank;

CREATE TEMP VIEW IF NOT EXISTS ops_summary AS
SELECT trace_id, rank, name, total_direct_kernel_time_sum, total_subtree_kernel_time_sum,
       total_direct_kernel_time_ms, total_subtree_kernel_time_ms, count, categories, percentage,
       cumulative_percentage, ex_uid
FROM ops_summary_keyed WHERE report = 'perf' ORDER BY trace_id, rank;
