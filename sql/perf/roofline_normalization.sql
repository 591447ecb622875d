-- module: perf.roofline_normalization
-- requires: perf.perf_roofline

CREATE TEMP VIEW IF NOT EXISTS roofline_normalization AS
    SELECT * FROM perf_roofline WHERE sheet = 'Normalization';
