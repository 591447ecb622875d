-- module: perf.roofline_conv_bwd
-- requires: perf.perf_roofline

CREATE TEMP VIEW IF NOT EXISTS roofline_conv_bwd AS SELECT * FROM perf_roofline WHERE sheet = 'CONV_bwd';
