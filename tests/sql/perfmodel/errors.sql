-- Wrong argument types give clear errors (.bail off so every statement runs).
.bail off
SELECT flops_gemm('abc', 2, 3);
SELECT flops_gemm(1.5, 2, 3);
SELECT bytes_gemm(1, 2, 3, x'00');
SELECT flops_conv('[1, 3, 8]', 'not json');
SELECT flops_conv('[1, 3, 8, 8]', '[4, 3, 3]');
SELECT flops_sdpa(1, 16, 2, 32, 2, 8, 8, 1);
SELECT flops_sdpa(1, 16, 2, 16, 2, 8, 8, 'maybe');
SELECT broadcast_shape('[3, 4]', '[5, 4]');
SELECT perf_model('aten::mm', '{}', '{"not": "an array"}');
SELECT roofline(1e9, 1e6, 10, 'MI300X', 'matrix_bf16');
SELECT py_repr('[1, 2');
SELECT py_to_json('(1, 2');
SELECT gpu_peak_tflops('no-such-gpu', 'matrix_bf16');
INSERT INTO gpu_specs(gpu) VALUES ('MI300X');
INSERT INTO gpu_specs(gpu, matrix_bf16) VALUES ('X', 'fast');
INSERT INTO gpu_specs(vendor) VALUES ('nobody');
SELECT 'still running' AS ok;
