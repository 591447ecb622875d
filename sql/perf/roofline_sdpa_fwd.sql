-- module: perf.roofline_sdpa_fwd
-- requires: perf.perf_roofline

CREATE TEMP VIEW IF NOT EXISTS roofline_sdpa_fwd AS SELECT * FROM perf_roofline WHERE sheet = 'SDPA_fwd';
