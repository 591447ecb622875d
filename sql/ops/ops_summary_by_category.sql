-- module: ops.ops_summary_by_category
-- requires: ops.ops_launchers

-- ops_summary_by_category_keyed: GPU kernel time per op category (TraceLens's sheet of
-- the same name, docs/schema.md, ops_summary_by_category) of each report
-- (ops_launchers.report), per op category and, in the inference report, parent module.
-- Input: ops_launchers (one row per op that GPU time is charged to). Rows in the sheet's
-- order (rank): time, largest first (the perf report sorts by the ms column, the
-- inference report by the µs sum before it drops that column), ties by category, then
-- parent module.
--   trace_id, report, rank        the trace, the report, row order
--   op_category                   category of the launcher op (op_category())
--   parent_module                 the inference report's second key (NULL in 'perf')
--   count                         launcher instances in the group
--   call_stack_first              the first launcher's call stack (NULL in 'perf')
--   total_direct_kernel_time_ms   Σ direct GPU busy time of those instances, ms
--   percentage                    share of all direct GPU time of the trace, %
--   cumulative_percentage         running sum of percentage in row order, %
-- ops_summary_by_category: the perf report's rows; inference_ops_summary_by_category
-- (sql/inference/) the others.
CREATE TEMP VIEW IF NOT EXISTS ops_summary_by_category_keyed AS
WITH g AS (
    SELECT trace_id, report, op_category, parent_module, count(*) AS count,
           first(uid, seq) AS first_uid,
           pd_sum(total_direct_kernel_time, seq) AS direct_sum
    FROM ops_launchers
    GROUP BY trace_id, op_category, parent_module, report
), r AS (
    SELECT *, direct_sum / 1000.0 AS direct_ms,
           row_number() OVER (PARTITION BY trace_id, report
                              ORDER BY CASE WHEN report = 'perf' THEN -direct_sum / 1000.0 ELSE -direct_sum END,
                                       op_category, parent_module) AS rank
    FROM g
),
-- as pandas: each row's share of numpy's sum of the sorted column, and numpy's cumsum
-- of the shares (both in the sheet's row order)
p AS (
    SELECT *, direct_ms / np_sum(direct_ms) OVER (PARTITION BY trace_id, report ORDER BY rank ROWS BETWEEN
                                                  UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) * 100.0 AS percentage
    FROM r
)
SELECT trace_id, report, rank, op_category, parent_module, count,
       -- (once per group, from its first launcher: not the stack of every row)
       CASE WHEN report = 'inference' THEN inference_module_stack(trace_id, first_uid) END AS call_stack_first,
       direct_ms AS total_direct_kernel_time_ms, percentage,
       cumsum(percentage) OVER (PARTITION BY trace_id, report ORDER BY rank ROWS UNBOUNDED PRECEDING) AS cumulative_percentage
FROM p ORDER BY trace_id, report, rank;

CREATE TEMP VIEW IF NOT EXISTS ops_summary_by_category AS
SELECT trace_id, op_category, count, total_direct_kernel_time_ms, percentage, cumulative_percentage
FROM ops_summary_by_category_keyed WHERE report = 'perf' ORDER BY trace_id, rank;
