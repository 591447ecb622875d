-- TraceLens's attribution rules on a hand-made trace (tests/data/tree_rules.json):
-- "execute" is skipped when looking for the launcher (aten::foo), a graph launch with
-- no cpu_op above is its own launcher, communication kernels are no launcher's
-- direct work, GPU work linked by correlation only (corr_only) or not at all (the
-- memset) is left out, and the events TraceLens drops still launch (H_bleeds).
SELECT trace_open('tests/data/tree_rules.json') AS id;
SELECT seq, uid, name, kind, op_category, total_direct_kernel_time, total_subtree_kernel_time,
       direct_kernel_count, kernel_details, first_kernel_name, input_dims, concrete_inputs,
       process_name, thread_name
FROM kernel_launchers ORDER BY seq;
SELECT rank, name, total_direct_kernel_time_sum, total_subtree_kernel_time_sum, count, categories,
       round(percentage, 6) AS pct, round(cumulative_percentage, 6) AS cum, ex_uid
FROM ops_summary;
SELECT * FROM ops_summary_by_category;
-- unified_perf_summary: leaf launchers, and synthetic rows for the graph launch and for
-- the kernel launched through cuLaunchKernelEx (a driver call makes no leaf)
SELECT row, uid, node_uid, synthetic, name, op_category, has_perf_model, kernel_time_us,
       duration_us, kernel_details
FROM unified_ops ORDER BY row;
SELECT name, ex_uid, operation_count, kernel_time_us_sum, round(percentage, 6) AS pct
FROM unified_perf_summary;
-- lookups by uid are index lookups
SELECT name FROM kernel_launchers WHERE trace_id = 1 AND uid = 10;
EXPLAIN QUERY PLAN SELECT name FROM kernel_launchers WHERE trace_id = 1 AND uid = 10;
