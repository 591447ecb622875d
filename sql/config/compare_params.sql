-- module: config.compare_params

-- compare_params: the thresholds of the comparison functions
-- (docs/compare.md), one row per option, read at query time, so
--   UPDATE compare_params SET value = 1.0 WHERE name = 'op_gap_ms';
-- changes every later compare_ops() call on this connection. Defaults are the
-- reference tool's.
CREATE TEMP TABLE IF NOT EXISTS compare_params(
    name TEXT PRIMARY KEY,
    value,
    doc TEXT
);
INSERT OR IGNORE INTO compare_params(name, value, doc) VALUES
    ('op_gap_ms', 5.0,
     'compare_ops status: slower if gap_ms > this, faster if gap_ms < -this (ms of total time)'),
    ('layer_gap_ms', 0.1,
     'compare_layers status: |gap_ms| must exceed this (ms) ...'),
    ('layer_ratio', 1.2,
     '... and ratio must exceed this (slower) or be below its inverse (faster)'),
    ('max_stacks', 3,
     'compare_stacks default for n: Python stacks returned per operation (0: all)');
