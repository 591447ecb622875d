-- perf_model(name, args_json [, kernel_names_json [, bwd]]) on real Kineto args.
SELECT perf_model('aten::mm',
  '{"Input Dims": [[8944, 1024], [1024, 2816]], "Input type": ["c10::BFloat16", "c10::BFloat16"], "Input Strides": [[1024, 1], [1, 1024]], "Concrete Inputs": ["", ""]}',
  '["Memset (Device)", "Cijk_Alik_Bljk_B_BS_BH_Bias_HA_S_SAV_UserArgs_MT128x224x64"]') AS mm;
-- the pieces a view needs
SELECT json_extract(p, '$.gflops') AS gflops, json_extract(p, '$.data_moved_mb') AS mb,
       json_extract(p, '$.compute_spec') AS spec, json_extract(p, '$.params_text.dtype_in_out') AS dtypes,
       json_extract(p, '$.params_text.stride_output') AS stride_output,
       json_extract(p, '$.perf_params') AS perf_params
FROM (SELECT perf_model('aten::copy_',
  '{"Input Dims": [[16, 559, 1024], [16, 559, 1024], []], "Input type": ["float", "c10::BFloat16", "Scalar"], "Input Strides": [[572416, 1024, 1], [572416, 1024, 1], []], "Concrete Inputs": ["", "", "False"]}') AS p);
SELECT perf_model('aten::_scaled_dot_product_flash_attention',
  '{"Input Dims": [[16, 16, 559, 64], [16, 16, 559, 64], [16, 16, 559, 64], [], [], [], []], "Input type": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar", "Scalar", "Scalar"], "Concrete Inputs": ["", "", "", "0.", "True", "False", "0.125"]}',
  NULL, 1) AS sdpa_bwd;
SELECT json_extract(perf_model('aten::mean', '{"Input Dims": [[16, 559, 1024], [], [], []], "Input type": ["float", "ScalarList", "Scalar", ""], "Concrete Inputs": ["", "[-1]", "True", ""]}'), '$.data_moved_mb') AS mean_mb;
-- statuses: no model, model error (no Input Dims), not implemented direction, error
SELECT json_extract(perf_model('aten::linear', '{}'), '$.status') AS s1,
       json_extract(perf_model('aiter::rms_norm', '{}'), '$.status') AS s2,
       json_extract(perf_model('aten::mm', '{"Input Dims": [[2, 3], [3, 4]], "Input type": ["float", "float"]}', NULL, 1), '$.status') AS s3,
       json_extract(perf_model('aten::add', '{"Input Dims": [[3, 4], [5, 4]], "Input type": ["float", "float"], "Input Strides": [[4, 1], [4, 1]]}'), '$.error') AS e4;
SELECT perf_model('triton_red_fused_add_mean_mul_pow_rsqrt_0',
  '{"Input Dims": [[8, 4096, 2048], [2048], [8, 4096, 2048], [], []], "Input type": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar"], "Concrete Inputs": ["", "", "", "32768", "2048"]}') AS triton;
