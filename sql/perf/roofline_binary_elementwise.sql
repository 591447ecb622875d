-- module: perf.roofline_binary_elementwise
-- requires: perf.perf_roofline

CREATE TEMP VIEW IF NOT EXISTS roofline_binary_elementwise AS
    SELECT * FROM perf_roofline WHERE sheet = 'BinaryElementwise';
