-- The gpu_specs table, detection by device name, peak lookup and gpu_roofline.
SELECT gpu, vendor, mem_bw_gbps, memory_gb, matrix_fp64, matrix_fp32, matrix_tf32, matrix_fp16, matrix_bf16,
       matrix_fp8, matrix_fp4, matrix_int8, vector_fp64, vector_fp32, vector_fp16, vector_bf16, name_pattern
FROM gpu_specs;
SELECT count(*) AS rows_with_source FROM gpu_specs WHERE length(source) > 20;
SELECT gpu_spec_for('AMD Instinct MI300X') AS a, gpu_spec_for('NVIDIA H100 80GB HBM3') AS b,
       gpu_spec_for('NVIDIA H100 PCIe') AS c, gpu_spec_for('NVIDIA A100-SXM4-80GB') AS d, gpu_spec_for(NULL) AS e;
SELECT gpu_peak_tflops('MI300X', 'matrix_bf16') AS bf16, gpu_peak_tflops('mi325x', 'vector_fp32') AS v32,
       gpu_peak_tflops('MI300X', 'matrix_fp4') AS no_fp4, gpu_peak_tflops('MI300X', 'vector_bfloat16') AS unknown_spec,
       gpu_mem_bw_gbps('H200') AS h200_bw;
SELECT gpu_roofline(51581550592, 74457088, 84.48, 'MI300X', 'matrix_bf16') AS r,
       gpu_roofline(51581550592, 74457088, 84.48, 'MI300X', 'matrix_fp4') AS no_peak;
-- user rows: inserted rows win detection, can be updated and deleted
INSERT INTO gpu_specs(gpu, vendor, mem_bw_gbps, matrix_bf16, name_pattern, source)
  VALUES ('H100-PCIe', 'NVIDIA', 2000, 756, 'H100 PCIe', 'my own numbers');
SELECT gpu_spec_for('NVIDIA H100 PCIe') AS detected, gpu_peak_tflops('h100-pcie', 'matrix_bf16') AS peak;
UPDATE gpu_specs SET matrix_bf16 = 700 WHERE gpu = 'H100-PCIe';
UPDATE gpu_specs SET mem_bw_gbps = 5000 WHERE gpu = 'MI300X';
SELECT gpu, matrix_bf16, mem_bw_gbps FROM gpu_specs WHERE gpu IN ('H100-PCIe', 'MI300X') ORDER BY gpu;
DELETE FROM gpu_specs WHERE gpu = 'H100-PCIe';
SELECT count(*) AS n, gpu_spec_for('NVIDIA H100 PCIe') AS after_delete FROM gpu_specs;
-- a copy in a real table
CREATE TEMP TABLE my_specs AS SELECT * FROM gpu_specs;
SELECT count(*) AS copied FROM my_specs;
-- every built-in GPU has a vector bf16 peak (elementwise, norm and reduce ops under mixed
-- precision have no roofline without one) and, for NVIDIA, a matrix fp32 peak
SELECT gpu AS lacks_vector_bf16 FROM gpu_specs WHERE vector_bf16 IS NULL OR vector_fp16 IS NULL;
SELECT gpu AS lacks_matrix_fp32 FROM gpu_specs WHERE matrix_fp32 IS NULL;
