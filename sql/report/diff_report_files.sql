-- module: report.diff_report_files
-- requires: config.diff_params

-- diff_report_files: the files tools/tracesql-diff-report writes for the pair of
-- diff_params (trace ids), one row each: the file, the query giving it, csv_write's
-- options. What TraceLens's TraceDiff writes: diff_stats.csv,
-- diff_stats_unique_args_summary.csv, merged_tree_output.txt, cpu_op_map.json,
-- cpu_op_map_trace1.json, cpu_op_map_trace2.json; and diff_stats_names_summary.csv.
-- TraceLens's column order; the source column left out when the pair is identical
-- (TraceLens drops it then); no CSV, and then no cpu-op map either, when diff_stats has
-- no row. The tree text and the maps are written as the functions return them.
CREATE TEMP VIEW IF NOT EXISTS diff_report_files AS
WITH p AS (
    SELECT dp.baseline AS b, dp.variant AS v,
           (SELECT coalesce(max(s.identical), 0) FROM tree_diff_stats(dp.baseline, dp.variant) s) AS identical
    FROM diff_params dp
), csv(pos, file, cols) AS (
    VALUES (1, 'diff_stats', 'name, cpu_op_name, cpu_op_uid, source, "Input Dims", "Input Strides", '
               || '"Input type", "Concrete Inputs", kernel_time, busy_time, lowest_common_ancestor_name, '
               || 'lowest_common_ancestor_id, gpu_op_uid, nn_module_stack, nn_module_parent'),
           (2, 'diff_stats_unique_args_summary', 'name, operation_count, cpu_op_name, cpu_op_uid, source, '
               || '"Input Dims", "Input Strides", "Input type", "Concrete Inputs", busy_time, '
               || 'lowest_common_ancestor_name, nn_module_stack, nn_module_parent, kernel_time_mean, kernel_time_sum'),
           (3, 'diff_stats_names_summary', 'name, row_count, kernel_time_trace1_sum_ms, kernel_time_trace2_sum_ms, '
               || 'diff_sum_ms, abs_diff_sum_ms')
), doc(pos, file, fn) AS (
    VALUES (4, 'merged_tree_output.txt', 'tree_diff_text(%s, %s)'),
           (5, 'cpu_op_map.json', 'tree_diff_cpu_op_map(%s, %s, 0)'),
           (6, 'cpu_op_map_trace1.json', 'tree_diff_cpu_op_map(%s, %s, 1)'),
           (7, 'cpu_op_map_trace2.json', 'tree_diff_cpu_op_map(%s, %s, 2)')
)
SELECT p.b AS baseline, p.v AS variant, csv.pos, csv.file || '.csv' AS file,
       'SELECT ' || csv.cols || ' FROM ' || csv.file
       || printf(' WHERE baseline_id = %s AND variant_id = %s', quote(p.b), quote(p.v)) AS query,
       json_object('omit', CASE WHEN p.identical THEN json_array('source') ELSE json_array() END,
                   'if_empty', 'omit') AS options
FROM p, csv
UNION ALL
SELECT p.b, p.v, doc.pos, doc.file,
       'SELECT ' || printf(doc.fn, quote(p.b), quote(p.v))
       || CASE WHEN doc.pos > 4 THEN printf(' WHERE EXISTS (SELECT 1 FROM diff_stats WHERE baseline_id = %s AND '
                                            || 'variant_id = %s)', quote(p.b), quote(p.v)) ELSE '' END,
       json_object('dialect', 'text', 'if_empty', CASE WHEN doc.pos > 4 THEN 'omit' ELSE 'empty' END)
FROM p, doc;
