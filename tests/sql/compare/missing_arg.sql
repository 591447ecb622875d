-- a comparison without its variant fails and says what it needs
SELECT trace_open('tests/sql/compare/sglang_like.json', 'sglang') AS b;
SELECT * FROM compare_ops('sglang', NULL);
