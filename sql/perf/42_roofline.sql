-- perf_roofline: every perf_ops instance against the roofline of its trace's GPU
-- (TraceLens's arch-spec columns, reference-semantics §7.1). The GPU is the row of
-- gpu_specs named by the report option `gpu` (report_params) if set, else the one
-- detected from the trace's deviceProperties (traces.gpu_name, gpu_spec_for()).
-- Users can INSERT their own gpu_specs rows.
--   gpu                      gpu_specs.gpu used (NULL: unknown GPU, no roofline)
--   peak_tflops              peak of the instance's compute_spec (TFLOPS)
--   mem_bw_gbps              memory bandwidth (GB/s)
--   roofline_time_us         max(FLOPs / peak, bytes / bandwidth), µs
--   roofline_bound           COMPUTE_BOUND or MEMORY_BOUND
--   pct_roofline             roofline time / kernel time × 100 (%)
CREATE TEMP VIEW IF NOT EXISTS perf_roofline AS
WITH g AS (
    SELECT t.trace_id,
           coalesce((SELECT value FROM report_params WHERE name = 'gpu'), gpu_spec_for(t.gpu_name)) AS gpu
    FROM traces t
), r AS (
    -- the peak of the instance's compute spec and the bandwidth: the gpu_specs lookups
    SELECT p.trace_id, p.uid, p.sheet, p.direction, p.name, p.params, p.compute_spec, p.gflops,
           p.kernel_time_us, p.tflops_s, p.tb_s, p.data_moved_mb, p.flops_per_byte, p.flops, p.bytes,
           s.gpu, gpu_peak_tflops(s.gpu, p.compute_spec) AS peak_tflops, s.mem_bw_gbps
    FROM perf_ops p JOIN g ON g.trace_id = p.trace_id LEFT JOIN gpu_specs s ON s.gpu = g.gpu
)
SELECT trace_id, uid, sheet, direction, name, params, compute_spec, gflops, kernel_time_us,
       tflops_s, tb_s, data_moved_mb, flops_per_byte, gpu, peak_tflops, mem_bw_gbps,
       roofline_time_us(flops, bytes, kernel_time_us, peak_tflops, mem_bw_gbps) AS roofline_time_us,
       roofline_bound(flops, bytes, kernel_time_us, peak_tflops, mem_bw_gbps) AS roofline_bound,
       roofline_pct(flops, bytes, kernel_time_us, peak_tflops, mem_bw_gbps) AS pct_roofline
FROM r;

-- One roofline view per sheet TraceLens emits: the instances of that sheet.
CREATE TEMP VIEW IF NOT EXISTS roofline_gemm AS SELECT * FROM perf_roofline WHERE sheet = 'GEMM';
CREATE TEMP VIEW IF NOT EXISTS roofline_conv_fwd AS SELECT * FROM perf_roofline WHERE sheet = 'CONV_fwd';
CREATE TEMP VIEW IF NOT EXISTS roofline_conv_bwd AS SELECT * FROM perf_roofline WHERE sheet = 'CONV_bwd';
CREATE TEMP VIEW IF NOT EXISTS roofline_sdpa_fwd AS SELECT * FROM perf_roofline WHERE sheet = 'SDPA_fwd';
CREATE TEMP VIEW IF NOT EXISTS roofline_sdpa_bwd AS SELECT * FROM perf_roofline WHERE sheet = 'SDPA_bwd';
CREATE TEMP VIEW IF NOT EXISTS roofline_unary_elementwise AS
    SELECT * FROM perf_roofline WHERE sheet = 'UnaryElementwise';
CREATE TEMP VIEW IF NOT EXISTS roofline_binary_elementwise AS
    SELECT * FROM perf_roofline WHERE sheet = 'BinaryElementwise';
CREATE TEMP VIEW IF NOT EXISTS roofline_reduce_fwd AS SELECT * FROM perf_roofline WHERE sheet = 'Reduce_fwd';
CREATE TEMP VIEW IF NOT EXISTS roofline_reduce_bwd AS SELECT * FROM perf_roofline WHERE sheet = 'Reduce_bwd';
CREATE TEMP VIEW IF NOT EXISTS roofline_normalization AS
    SELECT * FROM perf_roofline WHERE sheet = 'Normalization';
