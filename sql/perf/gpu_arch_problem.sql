-- module: perf.gpu_arch_problem
-- requires: config.report_params

-- gpu_arch_problem: why the gpu_arch_json / gpu option cannot be used (no row: fine);
-- perf_report.sh stops with the message
CREATE TEMP VIEW IF NOT EXISTS gpu_arch_problem AS
SELECT 'gpu_arch_json is not valid JSON' AS problem
FROM report_params WHERE name = 'gpu_arch_json' AND value IS NOT NULL AND NOT json_valid(value)
UNION ALL
SELECT 'gpu_arch_json has no numeric mem_bw_gbps'
FROM report_params WHERE name = 'gpu_arch_json' AND json_valid(value)
  AND json_type(value, '$.mem_bw_gbps') NOT IN ('integer', 'real')
UNION ALL
SELECT 'gpu_arch_json has no max_achievable_tflops object'
FROM report_params WHERE name = 'gpu_arch_json' AND json_valid(value)
  AND coalesce(json_type(value, '$.max_achievable_tflops'), '') <> 'object'
UNION ALL
SELECT printf('gpu %Q is not a gpu_specs row (SELECT gpu FROM gpu_specs lists them)', value)
FROM report_params WHERE name = 'gpu' AND value IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM gpu_specs s WHERE s.gpu = value);
