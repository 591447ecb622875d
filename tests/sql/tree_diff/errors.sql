-- a tree_diff without a variant says how to call it
SELECT * FROM tree_diff('tests/data/diff/base.json');
