-- The inference formulas as SQL functions (docs/perf-models.md), on the worked numbers
-- of the vLLM / sglang decode steps, and their argument errors.
SELECT iteration_stats('execute_32_context_0(sq0sk0sqsq0sqsk0)_generation_32(sq32sk55086sqsq32sqsk55086)') AS vllm;
SELECT iteration_stats('step[DECODE bs=8 toks=8]') AS sglang_native,
       iteration_stats('ProfilerStep#1') AS not_a_step;
-- vLLM decode attention: 64 query heads of 64, 8 KV heads, bf16
SELECT flops_inference_attention(64, 64, 64,
         'execute_32_context_0(sq0sk0sqsq0sqsk0)_generation_32(sq32sk55086sqsq32sqsk55086)') AS f,
       bytes_inference_attention(64, 8, 64, 64,
         'execute_32_context_0(sq0sk0sqsq0sqsk0)_generation_32(sq32sk55086sqsq32sqsk55086)', 'c10::BFloat16') AS b,
       -- a sliding window of 128 caps the keys at 32 x 128
       flops_inference_attention(64, 64, 64,
         'execute_32_context_0(sq0sk0sqsq0sqsk0)_generation_32(sq32sk55086sqsq32sqsk55086)', 128) AS f_window,
       -- FP8 KV cache
       bytes_inference_attention(64, 8, 64, 64,
         'execute_32_context_0(sq0sk0sqsq0sqsk0)_generation_32(sq32sk55086sqsq32sqsk55086)', 'c10::BFloat16',
         'c10::Float8_e4m3fnuz') AS b_fp8_kv,
       -- no detailed statistics: NULL
       flops_inference_attention(64, 64, 64, 'ProfilerStep#1') AS f_none;
-- GPT-OSS MoE up projection (gated, FP4 weights) and down projection
SELECT flops_moe('up', 32, 3072, 3072, 32, 4, 1) AS f_up,
       py_float(bytes_moe('up', 32, 3072, 3072, 32, 4, 1, 2, 0.5)) AS b_up,
       flops_moe('down', 32, 3072, 3072, 32, 4) AS f_down,
       py_float(bytes_moe('down', 32, 3072, 3072, 32, 4, 0, 2, 0.5, 2)) AS b_down,
       flops_moe('fused', 64, 7168, 2048, 256, 8, 1) AS f_fused;
SELECT flops_rmsnorm(131072, 4096) AS f, bytes_rmsnorm(131072, 4096, 'c10::BFloat16') AS b,
       bytes_rmsnorm(131072, 4096, 'bool') AS b_unknown;
-- the vLLM attention model through perf_model, with its annotation
SELECT json_extract(perf_model('vllm::unified_attention_with_output',
         '{"Input Dims": [[32, 64, 64], [32, 8, 64]], "Input type": ["c10::BFloat16", "c10::BFloat16"]}', NULL, 0,
         'execute_32_context_0(sq0sk0sqsq0sqsk0)_generation_32(sq32sk55086sqsq32sqsk55086)'), '$.gflops') AS gflops,
       json_extract(perf_model('vllm::unified_attention_with_output',
         '{"Input Dims": [[32, 64, 64], [32, 8, 64]], "Input type": ["c10::BFloat16", "c10::BFloat16"]}'),
         '$.status') AS without_annotation;
SELECT flops_moe('sideways', 1, 1, 1, 1, 1);
