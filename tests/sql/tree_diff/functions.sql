-- tree_diff_uid (TraceLens's get_corresponding_uid), tree_diff_text with a root and with
-- prune_non_gpu, on tests/data/diff/base.json (baseline) and inserted.json (variant).
SELECT tree_diff_uid('tests/data/diff/base.json', 'tests/data/diff/inserted.json', 4, 1) AS relu_in_variant,
       tree_diff_uid('tests/data/diff/base.json', 'tests/data/diff/inserted.json', 4, 2) AS relu_in_baseline,
       tree_diff_uid('tests/data/diff/base.json', 'tests/data/diff/inserted.json', 13, 1) AS gemm_k_in_variant,
       tree_diff_uid('tests/data/diff/base.json', 'tests/data/diff/inserted.json', 7, 2) AS dropout_alone,
       tree_diff_uid('tests/data/diff/base.json', 'tests/data/diff/inserted.json', 3, 1) AS flow_not_in_tree,
       tree_diff_uid('tests/data/diff/base.json', 'tests/data/diff/inserted.json', 12, 1) AS lonely_launch_not_in_tree;
-- the merged subtree of baseline uid 4 (aten::relu), then the whole tree without the
-- root that has no GPU work (aten::empty)
SELECT tree_diff_text('tests/data/diff/base.json', 'tests/data/diff/inserted.json', 4) AS subtree;
SELECT tree_diff_text('tests/data/diff/base.json', 'tests/data/diff/extra_root.json', NULL, 1) AS pruned;
-- computed once per pair: both reads see the same merge
SELECT count(*) AS nodes, sum(status = 'variant') AS variant_only
FROM tree_diff('tests/data/diff/base.json', 'tests/data/diff/inserted.json');
-- every open trace as the baseline when none is given
SELECT trace_id, variant_id, count(*) AS nodes FROM tree_diff WHERE variant = 'tests/data/diff/inserted.json'
GROUP BY trace_id, variant_id ORDER BY trace_id;
SELECT tree_diff_uid('tests/data/diff/base.json', 'tests/data/diff/inserted.json', 4, 3);
