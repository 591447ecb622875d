-- module: perf.roofline_reduce_bwd
-- requires: perf.perf_roofline

CREATE TEMP VIEW IF NOT EXISTS roofline_reduce_bwd AS SELECT * FROM perf_roofline WHERE sheet = 'Reduce_bwd';
