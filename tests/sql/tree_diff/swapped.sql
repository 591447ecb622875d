-- same-named siblings whose kernels trade places (dup_base.json vs dup_swapped.json):
-- the edit distance pairs the two aten::op in order, the disambiguation by descendants
-- (docs/diff.md, How the trees are merged (edit distance)) pairs them crosswise, so each kernel
-- meets its namesake: baseline uid 3 (k1) with variant uid 6 (k1), no point of difference. The
-- runtime call matched by the edit distance comes first, then the new matches.
SELECT merged_id, parent_id, status, baseline_uid, variant_uid, name, variant_name,
       point_of_difference, is_lca
FROM tree_diff('tests/data/diff/dup_base.json', 'tests/data/diff/dup_swapped.json');
SELECT tree_diff_uid('tests/data/diff/dup_base.json', 'tests/data/diff/dup_swapped.json', 3, 1) AS op_k1_in_variant;
