-- module: perf.perf_roofline
-- requires: config.report_params

-- perf_roofline: every perf_ops instance against the roofline of its trace's GPU
-- (TraceLens's arch-spec columns, docs/perf-models.md). The GPU is the row of
-- gpu_specs named by the report option `gpu` (report_params) if set, else the one
-- detected from the trace's deviceProperties (traces.gpu_name, gpu_spec_for()).
-- Users can INSERT their own gpu_specs rows.
--   gpu                      gpu_specs.gpu used (NULL: unknown GPU, no roofline)
--   peak_tflops              peak of the instance's compute_spec (TFLOPS)
--   mem_bw_gbps              memory bandwidth (GB/s)
--   compute_time_us          FLOPs / peak, µs (NULL: no peak for the compute spec)
--   memory_time_us           bytes / bandwidth, µs (NULL: bytes or bandwidth unknown)
--   bounds_known             'compute and memory', 'memory only' (the GPU has no peak
--                            for this compute spec: the op is still bounded by memory)
--                            or 'none'
--   roofline_time_us         max of the known bounds, µs (with 'memory only' the memory
--                            roof: a lower bound of the roofline time)
--   roofline_bound           COMPUTE_BOUND or MEMORY_BOUND (both bounds known), else NULL
--   pct_roofline             roofline time / kernel time × 100 (%)
-- The report's TraceLens-conformant roofline columns (perf sheets, unified_perf_summary)
-- give an op without a compute peak no roofline at all, as TraceLens does; these views
-- are ours and keep its memory roof.
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
       json_extract(rl, '$.compute_us') AS compute_time_us, memory_us AS memory_time_us,
       CASE WHEN rl IS NOT NULL THEN 'compute and memory' WHEN memory_us IS NOT NULL THEN 'memory only'
            ELSE 'none' END AS bounds_known,
       coalesce(json_extract(rl, '$.roofline_time_us'), memory_us) AS roofline_time_us,
       json_extract(rl, '$.bound') AS roofline_bound,
       CASE WHEN rl IS NOT NULL THEN json_extract(rl, '$.pct_roofline')
            WHEN kernel_time_us > 0 THEN (memory_us / kernel_time_us) * 100 END AS pct_roofline
FROM (SELECT *, roofline(flops, bytes, kernel_time_us, peak_tflops, mem_bw_gbps) AS rl,
             -- the memory roof as roofline() computes it: (Bytes / (BW · 1e9)) · 1e6
             CASE WHEN bytes IS NOT NULL AND mem_bw_gbps > 0
                  THEN (bytes / (mem_bw_gbps * 1e9)) * 1e6 END AS memory_us
      FROM r);
