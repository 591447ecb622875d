-- tree_diff of tests/data/diff/base.json (baseline) with deleted.json (variant): the merged
-- tree, its text, and the diff_stats rows (values worked out by hand, docs/diff.md).
SELECT merged_id, parent_id, depth, status, baseline_uid, variant_uid, name,
       point_of_difference, is_lca, lca_id, baseline_gpu_us, variant_gpu_us, gpu_us_diff
FROM tree_diff('tests/data/diff/base.json', 'tests/data/diff/deleted.json');
SELECT tree_diff_text('tests/data/diff/base.json', 'tests/data/diff/deleted.json') AS text;
SELECT seq, source, name, cpu_op_name, cpu_op_uid, kernel_time, busy_time, lca_name, lca_id,
       gpu_op_uid, cpu_op_map_name, identical
FROM tree_diff_stats('tests/data/diff/base.json', 'tests/data/diff/deleted.json');
