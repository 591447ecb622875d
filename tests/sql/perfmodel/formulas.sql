-- Closed-form perf-model functions, checked against the reference semantics' worked
-- examples (section 7) and TraceLens's reference CSVs.
-- Qwen aten::mm [[8944, 1024], [1024, 2816]] bf16: 51.581550592 GFLOPS, 71.0078125 MB
SELECT flops_gemm(8944, 2816, 1024) AS f, flops_gemm(8944, 2816, 1024) / 1e9 AS gflops,
       bytes_gemm(8944, 2816, 1024, 'c10::BFloat16') / 1048576.0 AS mb;
-- addmm: bias adds M*N FLOPs and an N-vector of bytes; bmm multiplies by B
SELECT flops_gemm(8944, 1024, 1024, 1, 1) AS addmm_f,
       bytes_gemm(8944, 1024, 1024, 'c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 1, 1) / 1048576.0 AS addmm_mb,
       flops_gemm(3137, 3137, 64, 96) AS bmm_f;
-- unknown dtype: bytes are NULL; NULL in, NULL out
SELECT bytes_gemm(8, 8, 8, 'bool') AS unknown_dtype, flops_gemm(NULL, 2, 3) AS null_arg;
-- Falconsai patch embedding: 0.924844032 GFLOPS, 3.421875 MB; backward doubles the GEMM work
SELECT flops_conv('[4, 3, 224, 224]', '[768, 3, 16, 16]', 16) AS f,
       bytes_conv('[4, 3, 224, 224]', '[768, 3, 16, 16]', 'c10::BFloat16', '[16, 16]') / 1048576.0 AS mb,
       flops_conv('[4, 3, 224, 224]', '[768, 3, 16, 16]', 16, 0, 1, 0, 1) AS f_bwd;
-- Qwen causal SDPA: 10.239377408 GFLOPS, 69.875 MB; backward; GQA
SELECT flops_sdpa(16, 559, 16, 559, 16, 64, 64, 1) / 1e9 AS gflops,
       bytes_sdpa(16, 559, 16, 559, 16, 64, 64) / 1048576.0 AS mb,
       flops_sdpa(16, 559, 16, 559, 16, 64, 64, 'true', 1) AS f_bwd,
       flops_sdpa(2, 128, 8, 128, 2, 64, 64, 0, 1, 0) AS f_bwd_gqa_no_recompute;
SELECT broadcast_shape('[16, 559, 1024]', '[16, 559, 1]') AS b1, broadcast_shape('[8, 1, 4]', '[3, 1]') AS b2;
SELECT dtype_bytes('c10::BFloat16') AS bf16, dtype_bytes('long int') AS i64, dtype_bytes('Scalar') AS scalar,
       dtype_bytes('bool') AS bool_, dtype_precision('c10::Float8_e4m3fnuz') AS p8,
       dtype_precision('float') AS p32, dtype_precision('c10::Float8_e5m2') AS e5m2;
SELECT op_category('aten::mm') AS mm, op_category('aten::cudnn_convolution') AS cudnn,
       op_category('aten::all', 'void at::native::reduce_kernel<512, 1>') AS fallback,
       op_category('triton_poi_fused_add_0') AS tri, op_category('aten::linear') AS linear,
       op_sheet('aten::add') AS sheet_add, op_sheet('aten::native_layer_norm') AS sheet_ln,
       op_bwd_category('aten::_scaled_dot_product_flash_attention') AS sdpa_bwd,
       op_has_model('aten::mm') AS m1, op_has_model('aten::linear') AS m0,
       op_has_model('triton_red_fused_sum_0') AS m_triton;
SELECT perf_metrics(51581550592, 74457088, 84.4844258626302) AS metrics;
SELECT perf_metrics(51581550592, NULL, 0) AS no_bytes_no_time;
SELECT roofline(51581550592, 74457088, 84.48, 708, 5300) AS mi300x_bf16,
       roofline(1000000, 1000000000, 10, 708, 5300) AS memory_bound,
       roofline(0, 1000, 10, 708, 5300) AS no_flops;
