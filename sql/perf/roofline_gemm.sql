-- module: perf.roofline_gemm
-- requires: perf.perf_roofline

-- One roofline view per sheet TraceLens emits: the instances of that sheet.
CREATE TEMP VIEW IF NOT EXISTS roofline_gemm AS SELECT * FROM perf_roofline WHERE sheet = 'GEMM';
