-- 39_gpu_arch.sql — the GPU architecture the perf report's roofline columns use
-- (TraceLens's --gpu_arch_json_path; docs/report.md, Roofline columns), from the report
-- options gpu_arch_json (an arch JSON text) or gpu (a gpu_specs row). Without either
-- the report has no roofline columns.
--
-- gpu_arch: one row per peak of the chosen arch
--   compute_spec   a Compute Spec key ("matrix_bf16"), matched exactly
--   peak_tflops    its peak, TFLOPS
--   mem_bw_gbps    the arch's memory bandwidth, GB/s (NULL: no roofline)
--   source         'gpu_arch_json' or 'gpu_specs:<gpu>'
CREATE TEMP TABLE IF NOT EXISTS report_params(
    name TEXT PRIMARY KEY,
    value,
    doc TEXT
);
INSERT OR IGNORE INTO report_params(name, value, doc) VALUES
    ('gpu_arch_json', NULL,
     'NULL: no arch (the report has no roofline columns); a GPU arch JSON text in '
     || 'TraceLens''s format ({"name", "mem_bw_gbps", "memory_gb", "max_achievable_tflops": '
     || '{"matrix_bf16": 989.5, ...}}): the perf sheets and unified_perf_summary get '
     || 'TraceLens''s roofline columns against it (perf_report.sh -p gpu_arch_json=FILE '
     || 'reads FILE into it)'),
    ('gpu', NULL, 'NULL: roofline views against the GPU detected from deviceProperties, and '
                  || 'no roofline columns in the report; a gpu_specs.gpu name (e.g. ''H100'', '
                  || '''MI300X''): that GPU everywhere, and the report''s roofline columns against '
                  || 'its gpu_specs row (unless gpu_arch_json is set)');

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
