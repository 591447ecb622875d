-- module: perf.roofline_conv_fwd
-- requires: perf.perf_roofline

CREATE TEMP VIEW IF NOT EXISTS roofline_conv_fwd AS SELECT * FROM perf_roofline WHERE sheet = 'CONV_fwd';
