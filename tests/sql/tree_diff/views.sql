-- the diff views over diff_params: base.json (baseline) with extra_root.json (variant),
-- whose extra root has no lowest common ancestor, so the id column turns REAL as in
-- pandas; then HTA's ops diff.
INSERT INTO diff_params VALUES ('tests/data/diff/base.json', 'tests/data/diff/extra_root.json');
SELECT name, cpu_op_name, cpu_op_uid, source, "Input Dims", "Input Strides", "Input type",
       "Concrete Inputs", kernel_time, busy_time, lowest_common_ancestor_name,
       typeof(lowest_common_ancestor_id) AS t, lowest_common_ancestor_id, gpu_op_uid,
       nn_module_stack, nn_module_parent
FROM diff_stats;
SELECT name, operation_count, cpu_op_name, cpu_op_uid, source, busy_time,
       lowest_common_ancestor_name, kernel_time_mean, kernel_time_sum
FROM diff_stats_unique_args_summary;
SELECT name, kind, baseline_count, variant_count, count_diff, baseline_dur_us, variant_dur_us,
       dur_diff_us, change
FROM diff_ops;
-- an identical pair: only trace1 rows
DELETE FROM diff_params;
INSERT INTO diff_params VALUES ('tests/data/diff/base.json', 'tests/data/diff/base.json');
SELECT source, name, identical FROM diff_stats;
SELECT source, name, operation_count, kernel_time_sum FROM diff_stats_unique_args_summary;
-- a trace written in integer µs: kernel_time stays an int column (and its sums), as in pandas
DELETE FROM diff_params;
INSERT INTO diff_params VALUES ('tests/data/tree_rules.json', 'tests/data/tree_rules.json');
SELECT name, typeof(kernel_time) AS t, kernel_time, busy_time FROM diff_stats ORDER BY seq LIMIT 2;
SELECT name, kernel_time_mean, typeof(kernel_time_sum) AS t, kernel_time_sum
FROM diff_stats_unique_args_summary LIMIT 2;
