-- The report's GPU arch (gpu_arch): from the gpu_arch_json option (TraceLens's arch JSON
-- text), else from the gpu_specs row named by the gpu option; why an option cannot be
-- used (gpu_arch_problem); and the roofline columns it gives a perf sheet.
SELECT count(*) AS no_arch_rows FROM gpu_arch;
UPDATE report_params SET value = 'H100' WHERE name = 'gpu';
SELECT compute_spec, peak_tflops, mem_bw_gbps, source FROM gpu_arch ORDER BY compute_spec;
UPDATE report_params SET value = '{"name": "X", "mem_bw_gbps": 1000, "memory_gb": 8,
  "max_achievable_tflops": {"matrix_bf16": 100, "vector_bfloat16": 5, "bad": "x"}}'
WHERE name = 'gpu_arch_json';
-- the JSON wins over gpu; non-numeric peaks are ignored; keys are kept as written
SELECT compute_spec, peak_tflops, mem_bw_gbps, source FROM gpu_arch ORDER BY compute_spec;
SELECT count(*) AS problems FROM gpu_arch_problem;
UPDATE report_params SET value = '{"mem_bw_gbps": "fast"}' WHERE name = 'gpu_arch_json';
SELECT problem FROM gpu_arch_problem ORDER BY problem;
UPDATE report_params SET value = 'not json' WHERE name = 'gpu_arch_json';
UPDATE report_params SET value = 'H999' WHERE name = 'gpu';
SELECT problem FROM gpu_arch_problem ORDER BY problem;
