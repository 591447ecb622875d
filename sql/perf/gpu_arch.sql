-- module: perf.gpu_arch
-- requires: config.report_params

-- the GPU architecture the perf report's roofline columns use
-- (TraceLens's --gpu_arch_json_path; docs/report.md, Roofline columns), from the report
-- options gpu_arch_json (an arch JSON text) or gpu (a gpu_specs row). Without either
-- the report has no roofline columns.

-- gpu_arch: one row per peak of the chosen arch
--   compute_spec   a Compute Spec key ("matrix_bf16"), matched exactly
--   peak_tflops    its peak, TFLOPS
--   mem_bw_gbps    the arch's memory bandwidth, GB/s (NULL: no roofline)
--   source         'gpu_arch_json' or 'gpu_specs:<gpu>'
CREATE TEMP VIEW IF NOT EXISTS gpu_arch AS
WITH j AS (
    SELECT value AS arch FROM report_params
    WHERE name = 'gpu_arch_json' AND value IS NOT NULL AND json_valid(value)
), g AS (
    SELECT s.gpu, s.mem_bw_gbps FROM report_params r JOIN gpu_specs s ON s.gpu = r.value
    WHERE r.name = 'gpu' AND NOT EXISTS (SELECT 1 FROM j)
)
SELECT e.key AS compute_spec, e.value + 0.0 AS peak_tflops,
       json_extract(j.arch, '$.mem_bw_gbps') + 0.0 AS mem_bw_gbps, 'gpu_arch_json' AS source
FROM j, json_each(j.arch, '$.max_achievable_tflops') e
WHERE e.type IN ('integer', 'real')
UNION ALL
SELECT c.name, gpu_peak_tflops(g.gpu, c.name), g.mem_bw_gbps, 'gpu_specs:' || g.gpu
FROM g, pragma_table_info('gpu_specs') c
WHERE (c.name LIKE 'matrix\_%' ESCAPE '\' OR c.name LIKE 'vector\_%' ESCAPE '\')
  AND gpu_peak_tflops(g.gpu, c.name) IS NOT NULL;
