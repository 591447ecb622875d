-- module: perf.roofline_reduce_fwd
-- requires: perf.perf_roofline

CREATE TEMP VIEW IF NOT EXISTS roofline_reduce_fwd AS SELECT * FROM perf_roofline WHERE sheet = 'Reduce_fwd';
