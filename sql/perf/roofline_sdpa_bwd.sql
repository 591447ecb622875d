-- module: perf.roofline_sdpa_bwd
-- requires: perf.perf_roofline

CREATE TEMP VIEW IF NOT EXISTS roofline_sdpa_bwd AS SELECT * FROM perf_roofline WHERE sheet = 'SDPA_bwd';
