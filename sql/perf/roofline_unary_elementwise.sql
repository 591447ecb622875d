-- module: perf.roofline_unary_elementwise
-- requires: perf.perf_roofline

CREATE TEMP VIEW IF NOT EXISTS roofline_unary_elementwise AS
    SELECT * FROM perf_roofline WHERE sheet = 'UnaryElementwise';
