-- TraceLens nesting rules on a hand-made trace (see tests/data/tree_rules.json):
-- B nests in A; D starts exactly when B ends, so it is B's sibling (">=" closes);
-- E overruns A by >= 1 µs: TraceLens drops it (tl_dropped), natively it stays a leaf of A;
-- H overruns G by 0.5 µs with two open frames: G is closed and H becomes A's child.
SELECT uid, name, kind, parent_uid, depth, tl_dropped, tl_root
FROM events('tests/data/tree_rules.json')
WHERE kind IN ('cpu_op', 'cuda_runtime', 'cuda_driver', 'python_function')
ORDER BY uid;
-- children through the parent_uid index
SELECT uid, name FROM events WHERE trace_id = 1 AND parent_uid = 0 ORDER BY uid;
-- edges and whether TraceLens has them
SELECT parent_uid, child_uid, kind, tl FROM tree_edges(1) ORDER BY child_uid;
