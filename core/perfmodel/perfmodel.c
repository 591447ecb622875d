/*
 * perfmodel.c — the op registry (Appendix A of the reference semantics), categories,
 * data-type tables, evaluation dispatch, argument accessors, parameter builders,
 * derived metrics and the roofline. The formulas live in perfmodel_<family>.c.
 */
#include "perfmodel/perfmodel.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "text/jsonlex.h"
#include "perfmodel/extension.h"
#include "perfmodel/internal.h"

const char *const tsql_pm_status_names[] = {"OK", "NO_MODEL", "NOT_IMPLEMENTED", "ERROR",
                                            "UNSUPPORTED", "NOMEM"};

/* ---- data types (7.2) -------------------------------------------------------------- */

/* ASCII case-insensitive equality */
static int ieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
    return *a == *b;
}

int tsql_dtype_bytes(const char *type)
{
    static const struct { const char *name; int bpe; } tab[] = {
        {"double", 8}, {"long int", 8},
        {"float", 4}, {"scalar", 4}, {"int", 4},
        {"c10::half", 2}, {"c10::bfloat16", 2},
        {"c10::float8_e4m3fnuz", 1}, {"c10::float8_e4m3fn", 1}, {"c10::float8_e5m2", 1},
        {"c10::float8_e8m0fnu", 1}, {"unsigned char", 1}, {"signed char", 1}, {"fp8", 1},
        {"c10::float4_e2m1fn_x2", 1}, {"fp4", 1},
    };
    if (!type) return 0;
    for (size_t i = 0; i < sizeof tab / sizeof *tab; i++)
        if (ieq(type, tab[i].name)) return tab[i].bpe;
    return 0;
}

const char *tsql_dtype_precision(const char *type)
{
    static const struct { const char *name, *prec; } tab[] = {
        {"float", "fp32"}, {"double", "fp64"}, {"c10::half", "fp16"}, {"c10::bfloat16", "bf16"},
        {"c10::float8_e4m3fnuz", "fp8"}, {"c10::float8_e4m3fn", "fp8"}, {"unsigned char", "fp8"},
        {"fp8", "fp8"}, {"fp4", "fp4"}, {"mxfp4", "fp4"}, {"c10::float4_e2m1fn_x2", "fp4"},
    };
    if (!type) return NULL;
    for (size_t i = 0; i < sizeof tab / sizeof *tab; i++)
        if (ieq(type, tab[i].name)) return tab[i].prec;
    return NULL;
}

int pm_bpe(const char *type) { return tsql_dtype_bytes(type); }

/* ---- the registry ----------------------------------------------------------------- */

/* Flag shorthands for the table below. */
#define MODEL TSQL_OPF_MODEL
#define FWD TSQL_OPF_FWD
#define BWD TSQL_OPF_BWD
#define EXT TSQL_OPF_EXT
#define BWD_ONLY TSQL_OPF_BWD_ONLY
#define FWD_PARAMS TSQL_OPF_FWD_PARAMS

/* One row per name: perf-model names first (in Appendix A order), then category-only
 * names (category alone). A name in both lists keeps its model and takes the
 * category-only category (the category-only map is applied last). .model is the family
 * function that computes the metrics; without it tracesql reports UNSUPPORTED. */
static const tsql_op_info registry[] = {
    {.name = "aten::mm", .category = "GEMM", .sheet = "GEMM", .model_class = "aten_mm",
     .flags = MODEL | FWD, .model = pm_gemm},
    {.name = "aten::addmm", .category = "GEMM", .sheet = "GEMM", .model_class = "aten_addmm",
     .flags = MODEL | FWD, .model = pm_gemm},
    {.name = "aten::_scaled_mm", .category = "GEMM", .sheet = "GEMM",
     .model_class = "aten_scaled_mm", .flags = MODEL | FWD, .model = pm_gemm},
    {.name = "trtllm::cublas_scaled_mm", .category = "GEMM", .sheet = "GEMM",
     .model_class = "aten_scaled_mm", .flags = MODEL | FWD, .model = pm_gemm},
    {.name = "bitsandbytes::int8_linear_matmul", .category = "GEMM", .sheet = "GEMM",
     .model_class = "aten_scaled_mm", .flags = MODEL | FWD, .model = pm_gemm},
    {.name = "aten::bmm", .category = "GEMM", .sheet = "GEMM", .model_class = "aten_bmm",
     .flags = MODEL | FWD, .model = pm_gemm},
    {.name = "tex_ts::te_gemm_ts", .category = "GEMM", .sheet = "GEMM",
     .model_class = "tex_ts_te_gemm_ts", .flags = MODEL | FWD, .model = pm_gemm},
    {.name = "aten::baddbmm", .category = "GEMM", .sheet = "GEMM", .model_class = "aten_baddbmm",
     .flags = MODEL | FWD, .model = pm_gemm},
    {.name = "vllm::gemm_with_dynamic_quant", .category = "GEMM", .sheet = "GEMM",
     .model_class = "vllm_gemm_with_dynamic_quant", .flags = MODEL | FWD, .model = pm_gemm},
    {.name = "_Linear_yfwd_mm", .category = "GEMM", .sheet = "GEMM",
     .model_class = "tev2_pseudo_gemm", .flags = MODEL | FWD, .model = pm_gemm},
    {.name = "_LinearBackward_xgrad_mm", .category = "GEMM", .sheet = "GEMM",
     .model_class = "tev2_pseudo_gemm", .flags = MODEL | FWD, .model = pm_gemm},
    {.name = "_LinearBackward_wgrad_mm", .category = "GEMM", .sheet = "GEMM",
     .model_class = "tev2_pseudo_gemm", .flags = MODEL | FWD, .model = pm_gemm},
    {.name = "_LayerNormLinear_yfwd_mm", .category = "GEMM", .sheet = "GEMM",
     .model_class = "tev2_pseudo_gemm", .flags = MODEL | FWD, .model = pm_gemm},
    {.name = "_LayerNormLinearBackward_xgrad_mm", .category = "GEMM", .sheet = "GEMM",
     .model_class = "tev2_pseudo_gemm", .flags = MODEL | FWD, .model = pm_gemm},
    {.name = "_LayerNormLinearBackward_wgrad_mm", .category = "GEMM", .sheet = "GEMM",
     .model_class = "tev2_pseudo_gemm", .flags = MODEL | FWD, .model = pm_gemm},
    {.name = "primus_turbo_cpp_extension::hipblaslt_gemm_fp8", .category = "GEMM", .sheet = "GEMM",
     .model_class = "hipblaslt_gemm_fp8", .flags = MODEL | FWD, .model = pm_gemm},
    {.name = "primus_turbo::hipblaslt_gemm_fp8", .category = "GEMM", .sheet = "GEMM",
     .model_class = "hipblaslt_gemm_fp8", .flags = MODEL | FWD, .model = pm_gemm},
    {.name = "primus_turbo_cpp_extension::hipblaslt_gemm_fp4", .category = "GEMM", .sheet = "GEMM",
     .model_class = "hipblaslt_gemm_fp4", .flags = MODEL | FWD, .model = pm_gemm},
    {.name = "primus_turbo::hipblaslt_gemm_fp4", .category = "GEMM", .sheet = "GEMM",
     .model_class = "hipblaslt_gemm_fp4", .flags = MODEL | FWD, .model = pm_gemm},
    {.name = "aiter::gemm_a4w4", .category = "GEMM", .sheet = "GEMM",
     .model_class = "aiter_gemm_a4w4", .flags = MODEL | FWD, .model = pm_gemm},
    {.name = "aiter::_gemm_a4w4_asm", .category = "GEMM", .sheet = "GEMM",
     .model_class = "aiter_gemm_a4w4", .flags = MODEL | FWD, .model = pm_gemm},
    {.name = "aiter::batched_gemm_a16wfp4_", .category = "GEMM", .sheet = "GEMM",
     .model_class = "batched_gemm_a16wfp4", .flags = MODEL | EXT | FWD, .model = pm_gemm_ext},
    {.name = "sglang_profiler::fp8_utils_gemm_a8w8_blockscale", .category = "GEMM", .sheet = "GEMM",
     .model_class = "gemm_a8w8_blockscale", .flags = MODEL | EXT | FWD, .model = pm_gemm_ext},
    {.name = "sglang_profiler::gemm_a8w8_blockscale_gemm_a8w8_blockscale", .category = "GEMM",
     .sheet = "GEMM", .model_class = "gemm_a8w8_blockscale", .flags = MODEL | EXT | FWD, .model = pm_gemm_ext},
    {.name = "vllm::rocm_aiter_triton_gemm_a8w8_blockscale", .category = "GEMM", .sheet = "GEMM",
     .model_class = "gemm_a8w8_blockscale", .flags = MODEL | EXT | FWD, .model = pm_gemm_ext},
    {.name = "aiter::gemm_a8w8_blockscale_ck", .category = "GEMM", .sheet = "GEMM",
     .model_class = "gemm_a8w8_blockscale", .flags = MODEL | EXT | FWD, .model = pm_gemm_ext},
    {.name = "aiter::gemm_a8w8_blockscale_cktile", .category = "GEMM", .sheet = "GEMM",
     .model_class = "gemm_a8w8_blockscale", .flags = MODEL | EXT | FWD, .model = pm_gemm_ext},
    {.name = "aiter::gemm_a8w8_blockscale_bpreshuffle_ck", .category = "GEMM", .sheet = "GEMM",
     .model_class = "gemm_a8w8_blockscale", .flags = MODEL | EXT | FWD, .model = pm_gemm_ext},
    {.name = "aiter::gemm_a8w8_blockscale_bpreshuffle_cktile", .category = "GEMM", .sheet = "GEMM",
     .model_class = "gemm_a8w8_blockscale", .flags = MODEL | EXT | FWD, .model = pm_gemm_ext},
    {.name = "aiter::flatmm_a8w8_blockscale_asm", .category = "GEMM", .sheet = "GEMM",
     .model_class = "gemm_a8w8_blockscale", .flags = MODEL | EXT | FWD, .model = pm_gemm_ext},
    {.name = "aiter::gfx950_a8w8_blockscale_asm", .category = "GEMM", .sheet = "GEMM",
     .model_class = "gemm_a8w8_blockscale", .flags = MODEL | EXT | FWD, .model = pm_gemm_ext},
    {.name = "aiter::gemm_a8w8_ck", .category = "GEMM", .sheet = "GEMM",
     .model_class = "gemm_a8w8_blockscale", .flags = MODEL | EXT | FWD, .model = pm_gemm_ext},
    {.name = "aiter::gemm_a8w8_bpreshuffle_ck", .category = "GEMM", .sheet = "GEMM",
     .model_class = "gemm_a8w8_blockscale", .flags = MODEL | EXT | FWD, .model = pm_gemm_ext},
    {.name = "aiter::gemm_a8w8_bpreshuffle", .category = "GEMM", .sheet = "GEMM",
     .model_class = "gemm_a8w8_blockscale", .flags = MODEL | EXT | FWD, .model = pm_gemm_ext},
    {.name = "vllm::_rocm_aiter_preshuffled_per_token_w8a8_gemm", .category = "GEMM",
     .sheet = "GEMM", .model_class = "gemm_a8w8_blockscale", .flags = MODEL | EXT | FWD, .model = pm_gemm_ext},
    {.name = "vllm::rocm_unquantized_gemm", .category = "GEMM", .sheet = "GEMM",
     .model_class = "vllm_rocm_unquantized_gemm", .flags = MODEL | EXT | FWD, .model = pm_gemm_ext},
    {.name = "aiter::gemm_a16w16", .category = "GEMM", .sheet = "GEMM",
     .model_class = "gemm_a16w16", .flags = MODEL | EXT | FWD, .model = pm_gemm_ext},
    {.name = "aiter::gemm_a16w16_atomic_", .category = "GEMM", .sheet = "GEMM",
     .model_class = "gemm_a16w16_atomic_", .flags = MODEL | EXT | FWD, .model = pm_gemm_ext},
    {.name = "aiter::_gemm_a16w16_asm", .category = "GEMM", .sheet = "GEMM",
     .model_class = "gemm_a16w16_asm", .flags = MODEL | EXT | FWD, .model = pm_gemm_ext},
    {.name = "sglang_profiler::gemm_kernels_flydsl_hgemm", .category = "GEMM", .sheet = "GEMM",
     .model_class = "gemm_a16w16_atomic_", .flags = MODEL | EXT | FWD, .model = pm_gemm_ext},
    {.name = "aiter::gemm_afp4wfp4_", .category = "GEMM", .sheet = "GEMM",
     .model_class = "gemm_afp4wfp4", .flags = MODEL | EXT | FWD, .model = pm_gemm_ext},
    {.name = "sglang_profiler::batched_gemm_a8w8_a_per_token_group_prequant_w_per_batched_tensor_qu"
     "ant_batched_gemm_a8w8_a_per_token_group_prequant_w_per_batched_tensor_quant",
     .category = "GEMM", .sheet = "GEMM", .model_class = "batched_gemm_a8w8",
     .flags = MODEL | EXT | FWD, .model = pm_gemm_ext},
    {.name = "aiter::_gemm_a8w8_blockscale_bpreshuffle_asm", .category = "GEMM", .sheet = "GEMM",
     .model_class = "gemm_a8w8_blockscale", .flags = MODEL | EXT | FWD, .model = pm_gemm_ext},
    {.name = "FlashAttnFunc", .category = "SDPA_fwd", .bwd_category = "SDPA_bwd", .sheet = "SDPA",
     .model_class = "flash_attention", .flags = MODEL | FWD | BWD, .model = pm_sdpa},
    {.name = "flash_attn::_flash_attn_forward", .category = "SDPA_fwd", .bwd_category = "SDPA_bwd",
     .sheet = "SDPA", .model_class = "flash_attention", .flags = MODEL | FWD | BWD,
     .model = pm_sdpa},
    {.name = "flash_attn::_flash_attn_backward", .category = "SDPA_bwd", .bwd_category = "SDPA_bwd",
     .sheet = "SDPA", .model_class = "flash_attention_backward",
     .flags = MODEL | FWD | BWD | BWD_ONLY, .model = pm_sdpa},
    {.name = "flash_attn::_flash_attn_varlen_forward", .category = "SDPA_fwd",
     .bwd_category = "SDPA_bwd", .sheet = "SDPA", .model_class = "flash_attention_varlen_forward",
     .flags = MODEL | FWD | BWD, .model = pm_sdpa},
    {.name = "flash_attn::_flash_attn_varlen_backward", .category = "SDPA_bwd",
     .bwd_category = "SDPA_bwd", .sheet = "SDPA", .model_class = "flash_attention_varlen_backward",
     .flags = MODEL | FWD | BWD | BWD_ONLY, .model = pm_sdpa},
    {.name = "aten::_scaled_dot_product_cudnn_attention", .category = "SDPA_fwd",
     .bwd_category = "SDPA_bwd", .sheet = "SDPA",
     .model_class = "aten__scaled_dot_product_cudnn_attention", .flags = MODEL | FWD | BWD,
     .model = pm_sdpa},
    {.name = "aten::_scaled_dot_product_efficient_attention", .category = "SDPA_fwd",
     .bwd_category = "SDPA_bwd", .sheet = "SDPA",
     .model_class = "aten__scaled_dot_product_efficient_attention", .flags = MODEL | FWD | BWD,
     .model = pm_sdpa},
    {.name = "aten::_scaled_dot_product_flash_attention", .category = "SDPA_fwd",
     .bwd_category = "SDPA_bwd", .sheet = "SDPA",
     .model_class = "aten__scaled_dot_product_flash_attention", .flags = MODEL | FWD | BWD,
     .model = pm_sdpa},
    {.name = "aiter::_flash_attn_forward", .category = "SDPA_fwd", .bwd_category = "SDPA_bwd",
     .sheet = "SDPA", .model_class = "aiter__flash_attn_forward", .flags = MODEL | FWD | BWD,
     .model = pm_sdpa},
    {.name = "aiter::_flash_attn_backward", .category = "SDPA_bwd", .bwd_category = "SDPA_bwd",
     .sheet = "SDPA", .model_class = "aiter__flash_attn_backward",
     .flags = MODEL | FWD | BWD | BWD_ONLY, .model = pm_sdpa},
    {.name = "aiter::wrapper_fmha_v3_fwd", .category = "SDPA_fwd", .bwd_category = "SDPA_bwd",
     .sheet = "SDPA", .model_class = "aiter__fmha_v3_forward", .flags = MODEL | FWD | BWD,
     .model = pm_sdpa},
    {.name = "aiter::wrapper_fmha_v3_bwd", .category = "SDPA_bwd", .bwd_category = "SDPA_bwd",
     .sheet = "SDPA", .model_class = "aiter__fmha_v3_backward",
     .flags = MODEL | FWD | BWD | BWD_ONLY, .model = pm_sdpa},
    {.name = "aiter::mha_fwd", .category = "SDPA_fwd", .bwd_category = "SDPA_bwd", .sheet = "SDPA",
     .model_class = "aiter__mha_fwd", .flags = MODEL | FWD | BWD, .model = pm_sdpa},
    {.name = "aiter::fmha_v3_fwd", .category = "SDPA_fwd", .bwd_category = "SDPA_bwd",
     .sheet = "SDPA", .model_class = "aiter__fmha_v3_fwd", .flags = MODEL | FWD | BWD,
     .model = pm_sdpa},
    {.name = "aiter::mha_bwd", .category = "SDPA_bwd", .bwd_category = "SDPA_bwd", .sheet = "SDPA",
     .model_class = "aiter__mha_bwd", .flags = MODEL | FWD | BWD | BWD_ONLY, .model = pm_sdpa},
    {.name = "flash_attn_3::fwd", .category = "SDPA_fwd", .bwd_category = "SDPA_bwd",
     .sheet = "SDPA", .model_class = "flash_attn_v3_forward", .flags = MODEL | FWD | BWD,
     .model = pm_sdpa},
    {.name = "EvoformerAttention", .category = "SDPA_fwd", .bwd_category = "SDPA_bwd",
     .sheet = "SDPA", .model_class = "evoformer_attention", .flags = MODEL | FWD | BWD,
     .model = pm_sdpa},
    {.name = "aten::convolution", .category = "CONV_fwd", .bwd_category = "CONV_bwd",
     .sheet = "CONV", .model_class = "aten_conv", .flags = MODEL | FWD | BWD, .model = pm_conv},
    {.name = "aten::convolution_backward", .category = "CONV_bwd", .bwd_category = "CONV_bwd",
     .sheet = "CONV", .model_class = "aten_conv_bwd", .flags = MODEL | FWD | BWD | BWD_ONLY,
     .model = pm_conv},
    {.name = "ConvBias_", .category = "CONV_fwd", .bwd_category = "CONV_bwd", .sheet = "CONV",
     .model_class = "ConvBias_", .flags = MODEL | FWD | BWD, .model = pm_conv},
    {.name = "ConvBiasReLU_", .category = "CONV_fwd", .bwd_category = "CONV_bwd", .sheet = "CONV",
     .model_class = "ConvBiasReLU_", .flags = MODEL | FWD | BWD, .model = pm_conv},
    {.name = "ConvBias_Backward", .category = "CONV_bwd", .bwd_category = "CONV_bwd",
     .sheet = "CONV", .model_class = "ConvBias_Backward", .flags = MODEL | FWD | BWD_ONLY | FWD_PARAMS,
     .model = pm_conv},
    {.name = "ConvBiasReLU_Backward", .category = "CONV_bwd", .bwd_category = "CONV_bwd",
     .sheet = "CONV", .model_class = "ConvBiasReLU_Backward", .flags = MODEL | FWD | BWD_ONLY | FWD_PARAMS,
     .model = pm_conv},
    {.name = "vllm::unified_attention_with_output", .category = "InferenceAttention",
     .sheet = "InferenceAttention", .model_class = "vllm_unified_attention_with_output",
     .flags = MODEL | EXT | FWD, .model = pm_inference_attention},
    {.name = "aiter::mha_varlen_fwd", .category = "InferenceAttention",
     .sheet = "InferenceAttention", .model_class = "mha_varlen_fwd", .flags = MODEL | EXT | FWD, .model = pm_inference_attention},
    {.name = "aiter::fmha_v3_varlen_fwd", .category = "InferenceAttention",
     .sheet = "InferenceAttention", .model_class = "aiter_fmha_v3_varlen_fwd",
     .flags = MODEL | EXT | FWD, .model = pm_inference_attention},
    {.name = "aiter::mha_batch_prefill", .category = "InferenceAttention",
     .sheet = "InferenceAttention", .model_class = "aiter_mha_batch_prefill",
     .flags = MODEL | EXT | FWD, .model = pm_inference_attention},
    {.name = "sglang_profiler::attention_paged_attention_ragged", .category = "InferenceAttention",
     .sheet = "InferenceAttention", .model_class = "aiter_paged_attention_ragged",
     .flags = MODEL | EXT | FWD, .model = pm_inference_attention},
    {.name = "pseudo_mla_decode_fwd", .category = "InferenceAttention",
     .sheet = "InferenceAttention", .model_class = "mla_decode_fwd", .flags = MODEL | EXT | FWD, .model = pm_inference_attention},
    {.name = "pseudo_mla_prefill_fwd", .category = "InferenceAttention",
     .sheet = "InferenceAttention", .model_class = "pseudo_mla_prefill_fwd",
     .flags = MODEL | EXT | FWD, .model = pm_inference_attention},
    {.name = "aiter::pa_decode_gluon", .category = "InferenceAttention",
     .sheet = "InferenceAttention", .model_class = "pa_decode_gluon", .flags = MODEL | EXT | FWD, .model = pm_inference_attention},
    {.name = "pseudo_v4_paged_decode_swa", .category = "InferenceAttention",
     .sheet = "InferenceAttention", .model_class = "pseudo_v4_paged_decode_swa",
     .flags = MODEL | EXT | FWD, .model = pm_inference_attention},
    {.name = "pseudo_v4_paged_decode_csa", .category = "InferenceAttention",
     .sheet = "InferenceAttention", .model_class = "pseudo_v4_paged_decode_csa",
     .flags = MODEL | EXT | FWD, .model = pm_inference_attention},
    {.name = "pseudo_v4_paged_decode_hca", .category = "InferenceAttention",
     .sheet = "InferenceAttention", .model_class = "pseudo_v4_paged_decode_hca",
     .flags = MODEL | EXT | FWD, .model = pm_inference_attention},
    {.name = "aiter::pa_sparse_prefill_opus_fwd", .category = "InferenceAttention",
     .sheet = "InferenceAttention", .model_class = "pa_sparse_prefill_opus_fwd",
     .flags = MODEL | EXT | FWD, .model = pm_inference_attention},
    {.name = "sglang_profiler::tilelang_kernel_tilelang_sparse_fwd",
     .category = "InferenceAttention", .sheet = "InferenceAttention",
     .model_class = "mla_tilelang_sparse_fwd", .flags = MODEL | EXT | FWD, .model = pm_inference_attention},
    {.name = "vllm::gdn_attention_core", .category = "InferenceAttention",
     .sheet = "InferenceAttention", .model_class = "gdn_attention_core",
     .flags = MODEL | EXT | FWD, .model = pm_inference_attention},
    {.name = "aiter::linear_attention_with_output_base", .category = "InferenceAttention",
     .sheet = "InferenceAttention", .model_class = "gdn_attention_core",
     .flags = MODEL | EXT | FWD, .model = pm_inference_attention},
    {.name = "sglang::store_cache", .category = "InferenceAttention", .sheet = "InferenceAttention",
     .model_class = "sglang_store_cache", .flags = MODEL | EXT | FWD, .model = pm_inference_attention},
    {.name = "LigerSiLUMulFunction", .category = "elementwise", .sheet = "BinaryElementwise",
     .model_class = "liger_silu_mul_function", .flags = MODEL | FWD, .model = pm_binary},
    {.name = "aiter::dynamic_per_token_scaled_quant", .category = "GroupQuant",
     .sheet = "BinaryElementwise", .model_class = "per_group_quant", .flags = MODEL | EXT | FWD, .model = pm_quant},
    {.name = "aiter::dynamic_per_group_scaled_quant", .category = "GroupQuant",
     .sheet = "BinaryElementwise", .model_class = "per_group_quant", .flags = MODEL | EXT | FWD, .model = pm_quant},
    {.name = "vllm::triton_per_token_group_quant_fp8", .category = "GroupQuant",
     .sheet = "BinaryElementwise", .model_class = "vllm_triton_per_token_group_quant_fp8",
     .flags = MODEL | EXT | FWD, .model = pm_quant},
    {.name = "aiter::dynamic_per_tensor_quant", .category = "GroupQuant",
     .sheet = "BinaryElementwise", .model_class = "per_group_quant", .flags = MODEL | EXT | FWD, .model = pm_quant},
    {.name = "aten::div", .category = "elementwise", .sheet = "BinaryElementwise",
     .model_class = "aten_binary_elementwise", .flags = MODEL | FWD, .model = pm_binary},
    {.name = "aten::div_", .category = "elementwise", .sheet = "BinaryElementwise",
     .model_class = "aten_binary_elementwise", .flags = MODEL | FWD, .model = pm_binary},
    {.name = "aten::mul", .category = "elementwise", .sheet = "BinaryElementwise",
     .model_class = "aten_binary_elementwise", .flags = MODEL | FWD, .model = pm_binary},
    {.name = "aten::mul_", .category = "elementwise", .sheet = "BinaryElementwise",
     .model_class = "aten_binary_elementwise", .flags = MODEL | FWD, .model = pm_binary},
    {.name = "aten::add", .category = "elementwise", .sheet = "BinaryElementwise",
     .model_class = "aten_binary_elementwise", .flags = MODEL | FWD, .model = pm_binary},
    {.name = "aten::add_", .category = "elementwise", .sheet = "BinaryElementwise",
     .model_class = "aten_binary_elementwise", .flags = MODEL | FWD, .model = pm_binary},
    {.name = "aten::sigmoid_backward", .category = "elementwise", .sheet = "BinaryElementwise",
     .model_class = "aten_binary_elementwise", .flags = MODEL | FWD, .model = pm_binary},
    {.name = "aten::threshold_backward", .category = "elementwise", .sheet = "BinaryElementwise",
     .model_class = "aten_binary_elementwise", .flags = MODEL | FWD, .model = pm_binary},
    {.name = "primus_turbo::grouped_gemm", .category = "GroupedGEMM_fwd",
     .bwd_category = "GroupedGEMM_bwd", .sheet = "GroupedGEMM",
     .model_class = "primus_turbo_grouped_gemm", .flags = MODEL | FWD, .model = pm_grouped_gemm},
    {.name = "primus_turbo::grouped_gemm_impl", .category = "GroupedGEMM_fwd",
     .bwd_category = "GroupedGEMM_bwd", .sheet = "GroupedGEMM",
     .model_class = "primus_turbo_grouped_gemm", .flags = MODEL | FWD, .model = pm_grouped_gemm},
    {.name = "primus_turbo_cpp_extension::grouped_gemm", .category = "GroupedGEMM_fwd",
     .bwd_category = "GroupedGEMM_bwd", .sheet = "GroupedGEMM",
     .model_class = "primus_turbo_grouped_gemm", .flags = MODEL | FWD, .model = pm_grouped_gemm},
    {.name = "primus_turbo::grouped_gemm_variable_k", .category = "GroupedGEMM_fwd",
     .bwd_category = "GroupedGEMM_bwd", .sheet = "GroupedGEMM",
     .model_class = "primus_turbo_grouped_gemm_variable_k", .flags = MODEL | FWD,
     .model = pm_grouped_gemm},
    {.name = "primus_turbo::grouped_gemm_variable_k_impl", .category = "GroupedGEMM_fwd",
     .bwd_category = "GroupedGEMM_bwd", .sheet = "GroupedGEMM",
     .model_class = "primus_turbo_grouped_gemm_variable_k", .flags = MODEL | FWD,
     .model = pm_grouped_gemm},
    {.name = "primus_turbo_cpp_extension::grouped_gemm_variable_k", .category = "GroupedGEMM_fwd",
     .bwd_category = "GroupedGEMM_bwd", .sheet = "GroupedGEMM",
     .model_class = "primus_turbo_grouped_gemm_variable_k", .flags = MODEL | FWD,
     .model = pm_grouped_gemm},
    {.name = "primus_turbo_cpp_extension::ck_grouped_gemm", .category = "GroupedGEMM_fwd",
     .bwd_category = "GroupedGEMM_bwd", .sheet = "GroupedGEMM",
     .model_class = "primus_turbo_grouped_gemm", .flags = MODEL | FWD, .model = pm_grouped_gemm},
    {.name = "primus_turbo_cpp_extension::ck_grouped_gemm_variable_k",
     .category = "GroupedGEMM_fwd", .bwd_category = "GroupedGEMM_bwd", .sheet = "GroupedGEMM",
     .model_class = "primus_turbo_grouped_gemm_variable_k", .flags = MODEL | FWD,
     .model = pm_grouped_gemm},
    {.name = "MoEDispatch", .category = "MoE_comm_fwd", .bwd_category = "MoE_comm_bwd",
     .sheet = "MoE_comm", .model_class = "moe_dispatch", .flags = MODEL | FWD | BWD,
     .model = pm_moe_comm},
    {.name = "MoECombine", .category = "MoE_comm_fwd", .bwd_category = "MoE_comm_bwd",
     .sheet = "MoE_comm", .model_class = "moe_combine", .flags = MODEL | FWD | BWD,
     .model = pm_moe_comm},
    {.name = "DaoAILab::_causal_conv1d_fwd_cpp", .category = "SSM_fwd", .sheet = "SSM",
     .model_class = "causal_conv1d_fwd", .flags = MODEL | FWD, .model = pm_causal_conv1d},
    {.name = "MambaSplitConv1dScanCombinedFn", .category = "SSM_fwd", .bwd_category = "SSM_bwd",
     .sheet = "SSM", .model_class = "mamba_ssd_fwd", .flags = MODEL | FWD | BWD,
     .model = pm_mamba_ssd},
    {.name = "FusedRoPEFunc", .category = "RoPE_fwd", .sheet = "RoPE",
     .model_class = "fused_rope_fwd", .flags = MODEL | FWD, .model = pm_fused_rope},
    {.name = "aiter::rope_cached_positions_2c_fwd_impl", .category = "RoPE_fwd", .sheet = "RoPE",
     .model_class = "aiter_rope_cached_positions_2c_fwd_impl", .flags = MODEL | EXT | FWD, .model = pm_rope_ext},
    {.name = "sgl_kernel::rotary_embedding", .category = "RoPE_fwd", .sheet = "RoPE",
     .model_class = "sgl_kernel_rotary_embedding", .flags = MODEL | EXT | FWD, .model = pm_rope_ext},
    {.name = "CrossEntropyFunction", .category = "CrossEntropy_fwd", .sheet = "CrossEntropy",
     .model_class = "cross_entropy_fwd", .flags = MODEL | FWD, .model = pm_cross_entropy},
    {.name = "primus_turbo_cpp_extension::quantize_fp8_tensorwise", .category = "elementwise",
     .sheet = "UnaryElementwise", .model_class = "primus_turbo_quantize_fp8", .flags = MODEL | FWD,
     .model = pm_unary},
    {.name = "primus_turbo::quantize_fp8_tensorwise", .category = "elementwise",
     .sheet = "UnaryElementwise", .model_class = "primus_turbo_quantize_fp8", .flags = MODEL | FWD,
     .model = pm_unary},
    {.name = "primus_turbo_cpp_extension::quantize_mxfp4_dual", .category = "elementwise",
     .sheet = "UnaryElementwise", .model_class = "primus_turbo_quantize_mxfp4_dual",
     .flags = MODEL | FWD, .model = pm_unary},
    {.name = "primus_turbo::quantize_mxfp4_dual", .category = "elementwise",
     .sheet = "UnaryElementwise", .model_class = "primus_turbo_quantize_mxfp4_dual",
     .flags = MODEL | FWD, .model = pm_unary},
    {.name = "primus::quantize_mxfp4_dual", .category = "elementwise", .sheet = "UnaryElementwise",
     .model_class = "primus_turbo_quantize_mxfp4_dual", .flags = MODEL | FWD, .model = pm_unary},
    {.name = "aiter::silu_and_mul", .category = "elementwise", .sheet = "UnaryElementwise",
     .model_class = "aiter_silu_and_mul", .flags = MODEL | EXT | FWD, .model = pm_activation},
    {.name = "_C::silu_and_mul", .category = "elementwise", .sheet = "UnaryElementwise",
     .model_class = "aiter_silu_and_mul", .flags = MODEL | EXT | FWD, .model = pm_activation},
    {.name = "sgl_kernel::silu_and_mul", .category = "elementwise", .sheet = "UnaryElementwise",
     .model_class = "sgl_kernel_silu_and_mul", .flags = MODEL | EXT | FWD, .model = pm_activation},
    {.name = "aiter::gelu_and_mul", .category = "elementwise", .sheet = "UnaryElementwise",
     .model_class = "aiter_gelu_and_mul", .flags = MODEL | EXT | FWD, .model = pm_activation},
    {.name = "aiter::gelu_tanh_and_mul", .category = "elementwise", .sheet = "UnaryElementwise",
     .model_class = "aiter_gelu_tanh_and_mul", .flags = MODEL | EXT | FWD, .model = pm_activation},
    {.name = "aten::copy", .category = "elementwise", .sheet = "UnaryElementwise",
     .model_class = "aten_unary_elementwise", .flags = MODEL | FWD, .model = pm_unary},
    {.name = "aten::copy_", .category = "elementwise", .sheet = "UnaryElementwise",
     .model_class = "aten_unary_elementwise", .flags = MODEL | FWD, .model = pm_unary},
    {.name = "aten::clamp_min", .category = "elementwise", .sheet = "UnaryElementwise",
     .model_class = "aten_unary_elementwise", .flags = MODEL | FWD, .model = pm_unary},
    {.name = "aten::clamp_min_", .category = "elementwise", .sheet = "UnaryElementwise",
     .model_class = "aten_unary_elementwise", .flags = MODEL | FWD, .model = pm_unary},
    {.name = "aten::clamp_max", .category = "elementwise", .sheet = "UnaryElementwise",
     .model_class = "aten_unary_elementwise", .flags = MODEL | FWD, .model = pm_unary},
    {.name = "aten::clamp_max_", .category = "elementwise", .sheet = "UnaryElementwise",
     .model_class = "aten_unary_elementwise", .flags = MODEL | FWD, .model = pm_unary},
    {.name = "aten::sigmoid", .category = "elementwise", .sheet = "UnaryElementwise",
     .model_class = "aten_unary_elementwise", .flags = MODEL | FWD, .model = pm_unary},
    {.name = "aten::rsqrt", .category = "elementwise", .sheet = "UnaryElementwise",
     .model_class = "aten_unary_elementwise", .flags = MODEL | FWD, .model = pm_unary},
    {.name = "aten::silu", .category = "elementwise", .sheet = "UnaryElementwise",
     .model_class = "aten_unary_elementwise", .flags = MODEL | FWD, .model = pm_unary},
    {.name = "aten::neg", .category = "elementwise", .sheet = "UnaryElementwise",
     .model_class = "aten_unary_elementwise", .flags = MODEL | FWD, .model = pm_unary},
    {.name = "aten::pow", .category = "elementwise", .sheet = "UnaryElementwise",
     .model_class = "aten_unary_elementwise", .flags = MODEL | FWD, .model = pm_unary},
    {.name = "aten::replication_pad1d", .category = "elementwise", .sheet = "UnaryElementwise",
     .model_class = "aten_replication_pad", .flags = MODEL | FWD, .model = pm_unary},
    {.name = "aten::replication_pad2d", .category = "elementwise", .sheet = "UnaryElementwise",
     .model_class = "aten_replication_pad", .flags = MODEL | FWD, .model = pm_unary},
    {.name = "aten::replication_pad3d", .category = "elementwise", .sheet = "UnaryElementwise",
     .model_class = "aten_replication_pad", .flags = MODEL | FWD, .model = pm_unary},
    {.name = "aten::upsample_nearest1d", .category = "elementwise", .sheet = "UnaryElementwise",
     .model_class = "aten_upsample_nearest", .flags = MODEL | FWD, .model = pm_unary},
    {.name = "aten::upsample_nearest2d", .category = "elementwise", .sheet = "UnaryElementwise",
     .model_class = "aten_upsample_nearest", .flags = MODEL | FWD, .model = pm_unary},
    {.name = "aten::upsample_nearest3d", .category = "elementwise", .sheet = "UnaryElementwise",
     .model_class = "aten_upsample_nearest", .flags = MODEL | FWD, .model = pm_unary},
    {.name = "pseudo_op::moe_aiter_fused_1stage", .category = "MoE_fused", .sheet = "MoE_fused",
     .model_class = "moe_aiter_fused_1stage", .flags = MODEL | EXT | FWD, .model = pm_moe},
    {.name = "aiter::fmoe_fp8_blockscale_g1u1", .category = "MoE_fused", .sheet = "MoE_fused",
     .model_class = "moe_aiter_fused_blockscale", .flags = MODEL | EXT | FWD, .model = pm_moe},
    {.name = "aiter::fmoe_g1u1", .category = "MoE_fused", .sheet = "MoE_fused",
     .model_class = "moe_aiter_fused_blockscale", .flags = MODEL | EXT | FWD, .model = pm_moe},
    {.name = "aiter::moe_cktile2stages_gemm1_ck", .category = "MoE_unfused", .sheet = "MoE_unfused",
     .model_class = "moe_aiter_unfused_up", .flags = MODEL | EXT | FWD, .model = pm_moe},
    {.name = "aiter::moe_cktile2stages_gemm2_ck", .category = "MoE_unfused", .sheet = "MoE_unfused",
     .model_class = "moe_aiter_unfused_down", .flags = MODEL | EXT | FWD, .model = pm_moe},
    {.name = "aiter::ck_moe_stage1", .category = "MoE_unfused", .sheet = "MoE_unfused",
     .model_class = "moe_aiter_ck_stage1", .flags = MODEL | EXT | FWD, .model = pm_moe},
    {.name = "aiter::ck_moe_stage2", .category = "MoE_unfused", .sheet = "MoE_unfused",
     .model_class = "moe_aiter_ck_stage2", .flags = MODEL | EXT | FWD, .model = pm_moe},
    {.name = "pseudo_op::moe_triton_unfused_up", .category = "MoE_unfused", .sheet = "MoE_unfused",
     .model_class = "moe_triton_unfused_up", .flags = MODEL | EXT | FWD, .model = pm_moe},
    {.name = "pseudo_op::moe_triton_unfused_down", .category = "MoE_unfused",
     .sheet = "MoE_unfused", .model_class = "moe_triton_unfused_down", .flags = MODEL | EXT | FWD, .model = pm_moe},
    {.name = "pseudo_op::moe_gptq_awq_up", .category = "MoE_unfused", .sheet = "MoE_unfused",
     .model_class = "moe_gptq_awq_up", .flags = MODEL | EXT | FWD, .model = pm_moe},
    {.name = "pseudo_op::moe_gptq_awq_down", .category = "MoE_unfused", .sheet = "MoE_unfused",
     .model_class = "moe_gptq_awq_down", .flags = MODEL | EXT | FWD, .model = pm_moe},
    {.name = "pseudo_op::moe_flydsl_stage1", .category = "MoE_unfused", .sheet = "MoE_unfused",
     .model_class = "moe_flydsl_stage1", .flags = MODEL | EXT | FWD, .model = pm_moe},
    {.name = "pseudo_op::moe_flydsl_stage2", .category = "MoE_unfused", .sheet = "MoE_unfused",
     .model_class = "moe_flydsl_stage2", .flags = MODEL | EXT | FWD, .model = pm_moe},
    {.name = "sglang_profiler::fused_moe_triton_kernels_invoke_fused_moe_kernel",
     .category = "MoE_unfused", .sheet = "MoE_unfused",
     .model_class = "moe_triton_invoke_grouped_gemm", .flags = MODEL | EXT | FWD, .model = pm_moe},
    {.name = "aiter::biased_grouped_topk_hip", .category = "MoE_aux", .sheet = "MoE_aux",
     .model_class = "BiasedGroupedTopk", .flags = MODEL | EXT | FWD, .model = pm_moe},
    {.name = "aiter::moe_sorting_fwd", .category = "MoE_aux", .sheet = "MoE_aux",
     .model_class = "MoeSortScatterGather", .flags = MODEL | EXT | FWD, .model = pm_moe},
    {.name = "aiter::mxfp4_moe_sort_hip", .category = "MoE_aux", .sheet = "MoE_aux",
     .model_class = "MoeSortScatterGather", .flags = MODEL | EXT | FWD, .model = pm_moe},
    {.name = "sglang_profiler::fused_moe_triton_kernels_fused_append_shared_experts",
     .category = "MoE_aux", .sheet = "MoE_aux", .model_class = "sglang_fused_append_shared_experts",
     .flags = MODEL | EXT | FWD, .model = pm_moe},
    {.name = "aiter::topk_softplus", .category = "MoE_aux", .sheet = "MoE_aux",
     .model_class = "topk_softplus", .flags = MODEL | EXT | FWD, .model = pm_mhc},
    {.name = "aiter::fused_add_rmsnorm_pad_", .category = "RMSNorm", .sheet = "RMSNorm",
     .model_class = "vllm_rocm_aiter_triton_add_rmsnorm_pad", .flags = MODEL | EXT | FWD, .model = pm_rmsnorm},
    {.name = "aiter::rms_norm", .category = "RMSNorm", .sheet = "RMSNorm",
     .model_class = "aiter_rms_norm", .flags = MODEL | EXT | FWD, .model = pm_rmsnorm},
    {.name = "aiter::rmsnorm", .category = "RMSNorm", .sheet = "RMSNorm",
     .model_class = "aiter_rmsnorm", .flags = MODEL | EXT | FWD, .model = pm_rmsnorm},
    {.name = "aiter::rmsnorm2d_fwd_ck", .category = "RMSNorm", .sheet = "RMSNorm",
     .model_class = "aiter_rms_norm", .flags = MODEL | EXT | FWD, .model = pm_rmsnorm},
    {.name = "aiter::rmsnorm2d_fwd_with_add_ck", .category = "RMSNorm", .sheet = "RMSNorm",
     .model_class = "aiter_rmsnorm2d_fwd_with_add_ck", .flags = MODEL | EXT | FWD, .model = pm_rmsnorm},
    {.name = "aiter::add_rmsnorm", .category = "RMSNorm", .sheet = "RMSNorm",
     .model_class = "aiter_rmsnorm2d_fwd_with_add_ck", .flags = MODEL | EXT | FWD, .model = pm_rmsnorm},
    {.name = "aiter::rmsnorm2d_fwd_with_dynamicquant_ck", .category = "RMSNorm", .sheet = "RMSNorm",
     .model_class = "aiter_rmsnorm2d_fwd_with_dynamicquant_ck", .flags = MODEL | EXT | FWD, .model = pm_rmsnorm},
    {.name = "vllm::rocm_aiter_rmsnorm_fp8_group_quant", .category = "RMSNorm", .sheet = "RMSNorm",
     .model_class = "vllm_rocm_aiter_rmsnorm_fp8_group_quant", .flags = MODEL | EXT | FWD, .model = pm_rmsnorm},
    {.name = "vllm::rocm_aiter_rmsnorm_with_add_fp8_group_quant", .category = "RMSNorm",
     .sheet = "RMSNorm", .model_class = "vllm_rocm_aiter_rmsnorm_with_add_fp8_group_quant",
     .flags = MODEL | EXT | FWD, .model = pm_rmsnorm},
    {.name = "vllm::rocm_aiter_triton_add_rmsnorm_pad", .category = "RMSNorm", .sheet = "RMSNorm",
     .model_class = "vllm_rocm_aiter_triton_add_rmsnorm_pad", .flags = MODEL | EXT | FWD, .model = pm_rmsnorm},
    {.name = "sglang_profiler::fused_mxfp4_quant_fused_rms_mxfp4_quant", .category = "RMSNorm",
     .sheet = "RMSNorm", .model_class = "fused_rms_mxfp4_quant", .flags = MODEL | EXT | FWD, .model = pm_rmsnorm},
    {.name = "aiter::_fuse_rmsnorm_fp4_quant", .category = "RMSNorm", .sheet = "RMSNorm",
     .model_class = "fused_rms_mxfp4_quant", .flags = MODEL | EXT | FWD, .model = pm_rmsnorm},
    {.name = "aiter::rmsnorm_quant", .category = "RMSNorm", .sheet = "RMSNorm",
     .model_class = "aiter_rmsnorm_quant", .flags = MODEL | EXT | FWD, .model = pm_rmsnorm},
    {.name = "aiter::mixed_sample_outer_exponential", .category = "elementwise",
     .sheet = "elementwise", .model_class = "mixed_sample_outer_exponential",
     .flags = MODEL | EXT | FWD, .model = pm_sampler},
    {.name = "aiter::fused_dynamic_mx_quant_moe_sort_hip", .category = "GroupQuant",
     .sheet = "GroupQuant", .model_class = "fused_dynamic_mx_quant_moe_sort_hip",
     .flags = MODEL | EXT | FWD, .model = pm_quant},
    {.name = "sglang_profiler::fused_mxfp4_quant_fused_flatten_mxfp4_quant",
     .category = "GroupQuant", .sheet = "GroupQuant", .model_class = "fused_flatten_mxfp4_quant",
     .flags = MODEL | EXT | FWD, .model = pm_quant},
    {.name = "sglang_profiler::quant_dynamic_mxfp4_quant", .category = "GroupQuant",
     .sheet = "GroupQuant", .model_class = "sglang_quant_dynamic_mxfp4_quant",
     .flags = MODEL | EXT | FWD, .model = pm_quant},
    {.name = "aiter::fused_dynamic_mxfp4_quant_moe_sort_hip", .category = "MoE_aux",
     .sheet = "GroupQuant", .model_class = "aiter_fused_dynamic_mxfp4_quant_moe_sort_hip",
     .flags = MODEL | EXT | FWD, .model = pm_quant},
    {.name = "aiter::dynamic_per_group_scaled_quant_fp4", .category = "GroupQuant",
     .sheet = "GroupQuant", .model_class = "aiter_dynamic_per_group_scaled_quant_fp4",
     .flags = MODEL | EXT | FWD, .model = pm_quant},
    {.name = "aiter::fused_qk_rope_concat_and_cache_mla", .category = "RoPE_fwd",
     .sheet = "FusedRoPE", .model_class = "fused_qk_rope_concat_and_cache_mla",
     .flags = MODEL | EXT | FWD, .model = pm_rope_ext},
    {.name = "aiter::fused_qk_rope_cat_and_cache_mla", .category = "RoPE_fwd", .sheet = "FusedRoPE",
     .model_class = "aiter_fused_qk_rope_cat_and_cache_mla", .flags = MODEL | EXT | FWD, .model = pm_rope_ext},
    {.name = "aiter::fused_allreduce_rmsnorm", .category = "CustomCollective",
     .sheet = "CustomCollective", .model_class = "aiter_fused_allreduce_rmsnorm",
     .flags = MODEL | EXT | FWD, .model = pm_custom_collective},
    {.name = "aiter::fused_allreduce_rmsnorm_", .category = "CustomCollective",
     .sheet = "CustomCollective", .model_class = "aiter_fused_allreduce_rmsnorm_",
     .flags = MODEL | EXT | FWD, .model = pm_custom_collective},
    {.name = "_C_custom_ar::all_reduce", .category = "CustomCollective",
     .sheet = "CustomCollective", .model_class = "custom_ar_all_reduce",
     .flags = MODEL | EXT | FWD, .model = pm_custom_collective},
    {.name = "aiter::reduce_scatter", .category = "CustomCollective", .sheet = "CustomCollective",
     .model_class = "aiter_reduce_scatter", .flags = MODEL | EXT | FWD, .model = pm_custom_collective},
    {.name = "aiter::all_gather_reg", .category = "CustomCollective", .sheet = "CustomCollective",
     .model_class = "aiter_all_gather_reg", .flags = MODEL | EXT | FWD, .model = pm_custom_collective},
    {.name = "sgl_kernel::all_reduce_reg", .category = "CustomCollective",
     .sheet = "CustomCollective", .model_class = "sgl_kernel_all_reduce_reg",
     .flags = MODEL | EXT | FWD, .model = pm_custom_collective},
    {.name = "sgl_kernel::qr_all_reduce", .category = "CustomCollective",
     .sheet = "CustomCollective", .model_class = "sgl_kernel_qr_all_reduce",
     .flags = MODEL | EXT | FWD, .model = pm_custom_collective},
    {.name = "sglang::reg_all_gather_into_tensor", .category = "CustomCollective",
     .sheet = "CustomCollective", .model_class = "sgl_kernel_reg_all_gather_into_tensor",
     .flags = MODEL | EXT | FWD, .model = pm_custom_collective},
    {.name = "_C_custom_ar::qr_all_reduce", .category = "CustomCollective",
     .sheet = "CustomCollective", .model_class = "custom_ar_qr_all_reduce",
     .flags = MODEL | EXT | FWD, .model = pm_custom_collective},
    {.name = "aiter::mhc_post", .category = "mHC", .sheet = "mHC", .model_class = "mhc_post",
     .flags = MODEL | EXT | FWD, .model = pm_mhc},
    {.name = "aiter::mhc_pre_gemm_sqrsum", .category = "mHC", .sheet = "mHC",
     .model_class = "mhc_pre_gemm_sqrsum", .flags = MODEL | EXT | FWD, .model = pm_mhc},
    {.name = "aiter::mhc_pre_big_fuse_rmsnorm", .category = "mHC", .sheet = "mHC",
     .model_class = "mhc_pre_big_fuse_rmsnorm", .flags = MODEL | EXT | FWD, .model = pm_mhc},
    {.name = "aiter::mhc_fused_post_pre_gemm_sqrsum", .category = "mHC", .sheet = "mHC",
     .model_class = "mhc_fused_post_pre_gemm_sqrsum", .flags = MODEL | EXT | FWD, .model = pm_mhc},
    {.name = "aiter::_groupnorm_run", .category = "NORM_fwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "GroupNorm", .flags = MODEL | FWD, .model = pm_norm},
    {.name = "aten::batch_norm", .category = "NORM_fwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "BatchNorm", .flags = MODEL | FWD, .model = pm_norm},
    {.name = "aten::native_batch_norm", .category = "NORM_fwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "BatchNorm", .flags = MODEL | FWD, .model = pm_norm},
    {.name = "aten::miopen_batch_norm", .category = "NORM_fwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "BatchNorm", .flags = MODEL | FWD, .model = pm_norm},
    {.name = "aten::cudnn_batch_norm", .category = "NORM_fwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "BatchNorm", .flags = MODEL | FWD, .model = pm_norm},
    {.name = "aten::layer_norm", .category = "NORM_fwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "LayerNorm", .flags = MODEL | FWD, .model = pm_norm},
    {.name = "aten::native_layer_norm", .category = "NORM_fwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "LayerNorm", .flags = MODEL | FWD, .model = pm_norm},
    {.name = "aten::miopen_layer_norm", .category = "NORM_fwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "LayerNorm", .flags = MODEL | FWD, .model = pm_norm},
    {.name = "aten::cudnn_layer_norm", .category = "NORM_fwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "LayerNorm", .flags = MODEL | FWD, .model = pm_norm},
    {.name = "aten::group_norm", .category = "NORM_fwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "GroupNorm", .flags = MODEL | FWD, .model = pm_norm},
    {.name = "aten::native_group_norm", .category = "NORM_fwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "GroupNorm", .flags = MODEL | FWD, .model = pm_norm},
    {.name = "aten::miopen_group_norm", .category = "NORM_fwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "GroupNorm", .flags = MODEL | FWD, .model = pm_norm},
    {.name = "aten::cudnn_group_norm", .category = "NORM_fwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "GroupNorm", .flags = MODEL | FWD, .model = pm_norm},
    {.name = "aten::instance_norm", .category = "NORM_fwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "InstanceNorm", .flags = MODEL | FWD,
     .model = pm_norm},
    {.name = "aten::native_instance_norm", .category = "NORM_fwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "InstanceNorm", .flags = MODEL | FWD,
     .model = pm_norm},
    {.name = "aten::miopen_instance_norm", .category = "NORM_fwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "InstanceNorm", .flags = MODEL | FWD,
     .model = pm_norm},
    {.name = "aten::cudnn_instance_norm", .category = "NORM_fwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "InstanceNorm", .flags = MODEL | FWD,
     .model = pm_norm},
    {.name = "aten::_fused_rms_norm", .category = "NORM_fwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "RMSNorm", .flags = MODEL | FWD, .model = pm_norm},
    {.name = "aten::batch_norm_backward", .category = "NORM_bwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "BatchNormBwd", .flags = MODEL | FWD | BWD | BWD_ONLY,
     .model = pm_norm},
    {.name = "aten::native_batch_norm_backward", .category = "NORM_bwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "BatchNormBwd", .flags = MODEL | FWD | BWD | BWD_ONLY,
     .model = pm_norm},
    {.name = "aten::miopen_batch_norm_backward", .category = "NORM_bwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "BatchNormBwd", .flags = MODEL | FWD | BWD | BWD_ONLY,
     .model = pm_norm},
    {.name = "aten::cudnn_batch_norm_backward", .category = "NORM_bwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "BatchNormBwd", .flags = MODEL | FWD | BWD | BWD_ONLY,
     .model = pm_norm},
    {.name = "aten::layer_norm_backward", .category = "NORM_bwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "LayerNormBwd", .flags = MODEL | FWD | BWD | BWD_ONLY,
     .model = pm_norm},
    {.name = "aten::native_layer_norm_backward", .category = "NORM_bwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "LayerNormBwd", .flags = MODEL | FWD | BWD | BWD_ONLY,
     .model = pm_norm},
    {.name = "aten::miopen_layer_norm_backward", .category = "NORM_bwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "LayerNormBwd", .flags = MODEL | FWD | BWD | BWD_ONLY,
     .model = pm_norm},
    {.name = "aten::cudnn_layer_norm_backward", .category = "NORM_bwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "LayerNormBwd", .flags = MODEL | FWD | BWD | BWD_ONLY,
     .model = pm_norm},
    {.name = "aten::group_norm_backward", .category = "NORM_bwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "GroupNormBwd", .flags = MODEL | FWD | BWD | BWD_ONLY,
     .model = pm_norm},
    {.name = "aten::native_group_norm_backward", .category = "NORM_bwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "GroupNormBwd", .flags = MODEL | FWD | BWD | BWD_ONLY,
     .model = pm_norm},
    {.name = "aten::miopen_group_norm_backward", .category = "NORM_bwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "GroupNormBwd", .flags = MODEL | FWD | BWD | BWD_ONLY,
     .model = pm_norm},
    {.name = "aten::cudnn_group_norm_backward", .category = "NORM_bwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "GroupNormBwd", .flags = MODEL | FWD | BWD | BWD_ONLY,
     .model = pm_norm},
    {.name = "aten::instance_norm_backward", .category = "NORM_bwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "InstanceNormBwd", .flags = MODEL, .model = pm_norm},
    {.name = "aten::native_instance_norm_backward", .category = "NORM_bwd",
     .bwd_category = "NORM_bwd", .sheet = "Normalization", .model_class = "InstanceNormBwd",
     .flags = MODEL, .model = pm_norm},
    {.name = "aten::miopen_instance_norm_backward", .category = "NORM_bwd",
     .bwd_category = "NORM_bwd", .sheet = "Normalization", .model_class = "InstanceNormBwd",
     .flags = MODEL, .model = pm_norm},
    {.name = "aten::cudnn_instance_norm_backward", .category = "NORM_bwd",
     .bwd_category = "NORM_bwd", .sheet = "Normalization", .model_class = "InstanceNormBwd",
     .flags = MODEL, .model = pm_norm},
    {.name = "aten::rms_norm_backward", .category = "NORM_bwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "RMSNormBwd", .flags = MODEL | FWD | BWD | BWD_ONLY,
     .model = pm_norm},
    {.name = "aten::native_rms_norm_backward", .category = "NORM_bwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "RMSNormBwd", .flags = MODEL | FWD | BWD | BWD_ONLY,
     .model = pm_norm},
    {.name = "aten::miopen_rms_norm_backward", .category = "NORM_bwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "RMSNormBwd", .flags = MODEL | FWD | BWD | BWD_ONLY,
     .model = pm_norm},
    {.name = "aten::cudnn_rms_norm_backward", .category = "NORM_bwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "RMSNormBwd", .flags = MODEL | FWD | BWD | BWD_ONLY,
     .model = pm_norm},
    {.name = "aten::_fused_rms_norm_backward", .category = "NORM_bwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "RMSNormBwd", .flags = MODEL | FWD | BWD | BWD_ONLY,
     .model = pm_norm},
    {.name = "primus::fused_ln_modulate", .category = "NORM_fwd", .bwd_category = "NORM_bwd",
     .sheet = "Normalization", .model_class = "FusedLnModulate", .flags = MODEL | FWD,
     .model = pm_norm},
    {.name = "primus::fused_ln_modulate_backward", .category = "NORM_bwd",
     .bwd_category = "NORM_bwd", .sheet = "Normalization", .model_class = "FusedLnModulateBackward",
     .flags = MODEL | FWD | BWD_ONLY, .model = pm_norm},
    {.name = "aten::sum", .category = "reduce", .sheet = "Reduce", .model_class = "aten_reduce",
     .flags = MODEL | FWD | BWD, .model = pm_reduce},
    {.name = "aten::mean", .category = "reduce", .sheet = "Reduce", .model_class = "aten_reduce",
     .flags = MODEL | FWD | BWD, .model = pm_reduce},
    {.name = "aten::max", .category = "reduce", .sheet = "Reduce", .model_class = "aten_reduce",
     .flags = MODEL | FWD | BWD, .model = pm_reduce},
    {.name = "aten::min", .category = "reduce", .sheet = "Reduce", .model_class = "aten_reduce",
     .flags = MODEL | FWD | BWD, .model = pm_reduce},
    {.name = "aten::norm", .category = "reduce", .sheet = "Reduce", .model_class = "aten_reduce",
     .flags = MODEL | FWD | BWD, .model = pm_reduce},
    {.name = "aten::linalg_norm", .category = "reduce", .sheet = "Reduce",
     .model_class = "aten_reduce", .flags = MODEL | FWD | BWD, .model = pm_reduce},
    {.name = "aten::std", .category = "reduce", .sheet = "Reduce", .model_class = "aten_reduce",
     .flags = MODEL | FWD | BWD, .model = pm_reduce},
    {.name = "aten::var", .category = "reduce", .sheet = "Reduce", .model_class = "aten_reduce",
     .flags = MODEL | FWD | BWD, .model = pm_reduce},
    {.name = "aten::logsumexp", .category = "reduce", .sheet = "Reduce",
     .model_class = "aten_reduce", .flags = MODEL | FWD | BWD, .model = pm_reduce},
    {.name = "aten::cumsum", .category = "reduce", .sheet = "Reduce", .model_class = "aten_reduce",
     .flags = MODEL | FWD | BWD, .model = pm_reduce},
    {.name = "aten::cumprod", .category = "reduce", .sheet = "Reduce", .model_class = "aten_reduce",
     .flags = MODEL | FWD | BWD, .model = pm_reduce},
    {.name = "aten::amin", .category = "reduce", .sheet = "Reduce", .model_class = "aten_reduce",
     .flags = MODEL | FWD | BWD, .model = pm_reduce},
    {.name = "aten::amax", .category = "reduce", .sheet = "Reduce", .model_class = "aten_reduce",
     .flags = MODEL | FWD | BWD, .model = pm_reduce},
    {.name = "aten::miopen_convolution", .category = "CONV_fwd"},
    {.name = "aten::cudnn_convolution", .category = "CONV_fwd"},
    {.name = "FlashAttnFuncBackward", .category = "SDPA_bwd"},
    {.name = "FusedAttnFuncBackward", .category = "SDPA_bwd"},
    {.name = "aten::_scaled_dot_product_cudnn_attention_backward", .category = "SDPA_bwd"},
    {.name = "aten::_scaled_dot_product_efficient_attention_backward", .category = "SDPA_bwd"},
    {.name = "aten::_scaled_dot_product_flash_attention_backward", .category = "SDPA_bwd"},
    {.name = "aten::_efficient_attention_forward", .category = "SDPA_fwd"},
    {.name = "aten::_efficient_attention_backward", .category = "SDPA_bwd"},
    {.name = "MambaSplitConv1dScanCombinedFnBackward", .category = "SSM_bwd"},
    {.name = "DaoAILab::_causal_conv1d_bwd_cpp", .category = "SSM_bwd"},
    {.name = "TokenPermuteMaskMap", .category = "MoE_comm_fwd"},
    {.name = "_OperationFuserAutogradFunction", .category = "MoE_comm_fwd"},
    {.name = "MoEDispatchBackward", .category = "MoE_comm_bwd"},
    {.name = "MoECombineBackward", .category = "MoE_comm_bwd"},
    {.name = "TokenPermuteMaskMapBackward", .category = "MoE_comm_bwd"},
    {.name = "_OperationFuserAutogradFunctionBackward", .category = "MoE_comm_bwd"},
    {.name = "FusedRoPEFuncBackward", .category = "RoPE_bwd"},
    {.name = "CrossEntropyFunctionBackward", .category = "CrossEntropy_bwd"},
    {.name = "aiter::moe_sorting_opus_fwd", .category = "MoE_aux"},
    {.name = "aiter::moe_align_block_size", .category = "MoE_aux"},
    {.name = "_moe_C::moe_align_block_size", .category = "MoE_aux"},
    {.name = "aiter::fused_moe_->_fused_dynamic_mxfp4_quant_moe_sort_kernel (Synthetic Op)",
     .category = "MoE_aux"},
    {.name = "aiter::moe_sum", .category = "MoE_aux"},
    {.name = "aiter::topk_softmax", .category = "MoE_aux"},
    {.name = "aiter::topk_softmax_asm", .category = "MoE_aux"},
    {.name = "aiter::topk_sigmoid", .category = "MoE_aux"},
    {.name = "aiter::grouped_topk", .category = "MoE_aux"},
    {.name = "aiter::moe_fused_gate", .category = "MoE_aux"},
    {.name = "_C_cache_ops::reshape_and_cache_flash", .category = "InferenceAttention"},
    {.name = "_C_cache_ops::concat_and_cache_mla", .category = "InferenceAttention"},
    {.name = "aiter::unified_attention_with_output_base->_fused_qk_rope_reshape_and_cache_kernel (S"
     "ynthetic Op)", .category = "FusedRoPE"},
    {.name = "hipModuleLaunchKernel->kv_indices_generate_kernel (Synthetic Op)",
     .category = "InferenceAttention"},
    {.name = "aiter::get_mla_metadata_v1", .category = "InferenceAttention"},
    {.name = "aiter::indexer_score_topk", .category = "InferenceAttention"},
    {.name = "aiter::v4_attention_with_output->_inverse_rope_gptj_kernel (Synthetic Op)",
     .category = "FusedRoPE"},
    {.name = "aiter::v4_attention_with_output->_update_compressor_states_kernel (Synthetic Op)",
     .category = "InferenceAttention"},
    {.name = "aiter::v4_attention_with_output->_swa_write_kernel (Synthetic Op)",
     .category = "InferenceAttention"},
    {.name = "aiter::v4_attention_with_output->qk_norm_rope_H32_D512_RD64_flydsl (Synthetic Op)",
     .category = "FusedRoPE"},
    {.name = "aiter::v4_attention_with_output->qk_norm_rope_H64_D512_RD64_flydsl (Synthetic Op)",
     .category = "FusedRoPE"},
    {.name = "aiter::v4_attention_with_output->hca_norm_rope_scatter_D512_RD64_R128_KB1_rmsbf16_fly"
     "dsl (Synthetic Op)", .category = "FusedRoPE"},
    {.name = "aiter::v4_attention_with_output->fused_compress_attn_D512_RD64_R4_OVL_SS8_KB32_rmsbf1"
     "6_pf_flydsl (Synthetic Op)", .category = "InferenceAttention"},
    {.name = "aiter::v4_attention_with_output->fused_compress_attn_D128_RD64_R4_OVL_SS8_KB32_Q_ue8m"
     "0_psh_rmsbf16_pf_flydsl (Synthetic Op)", .category = "InferenceAttention"},
    {.name = "aiter::v4_attention_with_output->hca_compress_forward_D512_R128_NW4_SL256_S128_flydsl"
     " (Synthetic Op)", .category = "InferenceAttention"},
    {.name = "aiter::v4_attention_with_output->hca_compress_forward_D512_R128_NW8_SL128_S128_flydsl"
     " (Synthetic Op)", .category = "InferenceAttention"},
    {.name = "aiter::allgather_lastdim<std::bfloat16_t, 2>(aiter::RankData*, aiter::RankSignals, ai"
     "ter::Signal*, std::bfloat16_t*, int, int, int) (Synthetic Op)",
     .category = "CustomCollective"},
    {.name = "aiter::allgather_lastdim<std::bfloat16_t, 4>(aiter::RankData*, aiter::RankSignals, ai"
     "ter::Signal*, std::bfloat16_t*, int, int, int) (Synthetic Op)",
     .category = "CustomCollective"},
};

#undef MODEL
#undef FWD
#undef BWD
#undef EXT
#undef BWD_ONLY

#define NREG (sizeof registry / sizeof *registry)

/* registry indexes sorted by name, built once */
static unsigned short reg_sorted[NREG];
static pthread_once_t reg_once = PTHREAD_ONCE_INIT;

static int cmp_reg(const void *a, const void *b)
{
    return strcmp(registry[*(const unsigned short *)a].name, registry[*(const unsigned short *)b].name);
}

static void reg_init(void)
{
    for (size_t i = 0; i < NREG; i++) reg_sorted[i] = (unsigned short)i;
    qsort(reg_sorted, NREG, sizeof *reg_sorted, cmp_reg);
}

const tsql_op_info *tsql_op_lookup(const char *name)
{
    if (!name) return NULL;
    pthread_once(&reg_once, reg_init);
    size_t lo = 0, hi = NREG;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(name, registry[reg_sorted[mid]].name);
        if (c == 0) return &registry[reg_sorted[mid]];
        if (c < 0) hi = mid;
        else lo = mid + 1;
    }
    return NULL;
}

const tsql_op_info *tsql_op_registry(size_t *n)
{
    if (n) *n = NREG;
    return registry;
}

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

const char *tsql_op_category(const char *op_name, const char *first_kernel_name)
{
    if (op_name) {
        const tsql_op_info *op = tsql_op_lookup(op_name);
        if (op) return op->category;
        if (starts_with(op_name, "triton")) return "triton";
        if (starts_with(op_name, "record_param_comms")) return "record_param_comms";
    }
    const char *k = first_kernel_name;
    if (k && starts_with(k, "void at::native")) {
        if (strstr(k, "elementwise")) return "elementwise";
        if (strstr(k, "reduce")) return "reduce";
        if (strstr(k, "multi_tensor_apply")) return "multi_tensor_apply";
    }
    return "other";
}

const char *tsql_op_sheet(const char *op_name)
{
    const tsql_op_info *op = tsql_op_lookup(op_name);
    return op ? op->sheet : NULL;
}

const char *tsql_op_bwd_category(const char *op_name)
{
    const tsql_op_info *op = tsql_op_lookup(op_name);
    return op ? op->bwd_category : NULL;
}

static int is_compiled_triton(const char *name)
{
    return name && (starts_with(name, "triton_poi_") || starts_with(name, "triton_red_") ||
                    starts_with(name, "triton_per_"));
}

int tsql_op_has_model(const char *op_name)
{
    const tsql_op_info *op = tsql_op_lookup(op_name);
    if (op) return (op->flags & TSQL_OPF_MODEL) != 0;
    return is_compiled_triton(op_name);
}

/* ---- results ------------------------------------------------------------------------ */

void tsql_perf_init(tsql_perf *p)
{
    memset(p, 0, sizeof *p);
    p->bytes = NAN;
}

static void clear_params(tsql_perf *p)
{
    for (size_t i = 0; i < p->nparams; i++) {
        free(p->params[i].str);
        free(p->params[i].repr);
    }
    p->nparams = 0;
}

void tsql_perf_free(tsql_perf *p)
{
    clear_params(p);
    free(p->params);
    p->params = NULL;
    p->capparams = 0;
}

int pm_err(pm_ctx *c, const char *fmt, ...)
{
    tsql_perf *p = c->p;
    if (p->status == TSQL_PM_OK) {
        p->status = TSQL_PM_ERROR;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(p->error, sizeof p->error, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int pm_nomem(pm_ctx *c)
{
    c->p->status = TSQL_PM_NOMEM;
    snprintf(c->p->error, sizeof c->p->error, "out of memory");
    return -1;
}

int pm_notimpl(pm_ctx *c, const char *what)
{
    tsql_perf *p = c->p;
    if (p->status == TSQL_PM_OK) {
        p->status = TSQL_PM_NOT_IMPLEMENTED;
        snprintf(p->error, sizeof p->error, "%s", what);
    }
    return -1;
}

int pm_done(pm_ctx *c, double flops, double bytes)
{
    if (pm_overflowed(c)) {
        pm_err(c, "%s: a count does not fit in 64 bits", c->name);
        return c->p->status;
    }
    c->p->flops = flops;
    c->p->bytes = bytes;
    c->p->has_bytes = !isnan(bytes);
    return TSQL_PM_OK;
}

void pm_spec_raw(pm_ctx *c, const char *maf, const char *precision)
{
    char *s = c->p->compute_spec;
    if (!maf || !precision) s[0] = 0;
    else snprintf(s, sizeof c->p->compute_spec, "%s_%s", maf, precision);
}

void pm_spec(pm_ctx *c, const char *maf, const char *dtype)
{
    pm_spec_raw(c, maf, tsql_dtype_precision(dtype));
}

/* ---- argument access ------------------------------------------------------------------ */

int pm_len(const cJSON *a) { return a && cJSON_IsArray(a) ? cJSON_GetArraySize(a) : 0; }

const cJSON *pm_at(pm_ctx *c, const cJSON *a, const char *what, int i)
{
    if (!a) {
        pm_err(c, "%s: args have no \"%s\"", c->name, what);
        return NULL;
    }
    const cJSON *v = pm_at_opt(a, i);
    if (!v) pm_err(c, "%s: \"%s\" has no element %d", c->name, what, i);
    return v;
}

int pm_int(pm_ctx *c, const cJSON *v, const char *what, int64_t *out)
{
    if (!v || !cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) ||
        fabs(v->valuedouble) > 9.2e18)
        return pm_err(c, "%s: %s is not an integer", c->name, what);
    *out = (int64_t)v->valuedouble;
    return 0;
}

int pm_shape_of(pm_ctx *c, const cJSON *v, const char *what, pm_shape *s)
{
    if (!v || !cJSON_IsArray(v)) return pm_err(c, "%s: %s is not a list of sizes", c->name, what);
    s->n = 0;
    for (const cJSON *e = v->child; e; e = e->next) {
        if (s->n == PM_MAX_RANK) return pm_err(c, "%s: %s has more than %d dimensions", c->name, what, PM_MAX_RANK);
        if (pm_int(c, e, what, &s->d[s->n])) return -1;
        s->n++;
    }
    return 0;
}

int pm_dims(pm_ctx *c, int i, pm_shape *s)
{
    const cJSON *v = pm_at(c, c->dims, "Input Dims", i);
    if (!v) return -1;
    char what[32];
    snprintf(what, sizeof what, "Input Dims[%d]", i);
    return pm_shape_of(c, v, what, s);
}

static int str_at(pm_ctx *c, const cJSON *a, const char *what, int i, const char **out)
{
    const cJSON *v = pm_at(c, a, what, i);
    if (!v) return -1;
    *out = cJSON_IsString(v) ? v->valuestring : NULL;
    if (!*out && !cJSON_IsNull(v)) return pm_err(c, "%s: %s[%d] is not a string", c->name, what, i);
    return 0;
}

int pm_type(pm_ctx *c, int i, const char **out) { return str_at(c, c->types, "Input type", i, out); }
int pm_conc(pm_ctx *c, int i, const char **out) { return str_at(c, c->conc, "Concrete Inputs", i, out); }

const char *pm_type_opt(pm_ctx *c, int i)
{
    const cJSON *v = pm_at_opt(c->types, i);
    return v && cJSON_IsString(v) ? v->valuestring : NULL;
}

const char *pm_conc_opt(pm_ctx *c, int i)
{
    const cJSON *v = pm_at_opt(c->conc, i);
    return v && cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Python's int(str) / float(str) accept surrounding whitespace and '_' between digits;
 * traces never have those, so plain decimal text is handled. */
int pm_parse_int(pm_ctx *c, const char *s, const char *what, int64_t *out)
{
    if (!s) return pm_err(c, "%s: %s is None", c->name, what);
    const char *p = s;
    while (isspace((unsigned char)*p)) p++;
    char *end;
    errno = 0;
    long long v = strtoll(p, &end, 10);
    if (end == p || errno) return pm_err(c, "%s: %s: invalid literal for int(): '%s'", c->name, what, s);
    while (isspace((unsigned char)*end)) end++;
    if (*end) return pm_err(c, "%s: %s: invalid literal for int(): '%s'", c->name, what, s);
    *out = v;
    return 0;
}

int pm_try_float(const char *s, double *out)
{
    if (!s) return -1;
    const char *p = s;
    while (isspace((unsigned char)*p)) p++;
    size_t n = strlen(p);
    while (n && isspace((unsigned char)p[n - 1])) n--;
    /* Python spellings of special values */
    const char *q = p + (n && (*p == '+' || *p == '-'));
    size_t m = n - (size_t)(q - p);
    double sign = (*p == '-') ? -1.0 : 1.0;
    if ((m == 3 && strncasecmp(q, "inf", 3) == 0) || (m == 8 && strncasecmp(q, "infinity", 8) == 0)) {
        *out = sign * INFINITY;
        return 0;
    }
    if (m == 3 && strncasecmp(q, "nan", 3) == 0) {
        *out = NAN;
        return 0;
    }
    /* digits with at most one '.', then an optional exponent */
    size_t i = (size_t)(q - p), nd = 0;
    while (i < n && isdigit((unsigned char)p[i])) i++, nd++;
    if (i < n && p[i] == '.') {
        i++;
        while (i < n && isdigit((unsigned char)p[i])) i++, nd++;
    }
    if (nd && i < n && (p[i] == 'e' || p[i] == 'E')) {
        size_t j = i + 1;
        if (j < n && (p[j] == '+' || p[j] == '-')) j++;
        size_t k = j;
        while (j < n && isdigit((unsigned char)p[j])) j++;
        if (j > k) i = j;
    }
    if (!nd || i != n) return -1;
    *out = tsql_parse_double(p, n);
    return 0;
}

int pm_parse_float(pm_ctx *c, const char *s, const char *what, double *out)
{
    if (!s) return pm_err(c, "%s: %s is None", c->name, what);
    if (pm_try_float(s, out)) return pm_err(c, "%s: %s: could not convert string to float: '%s'", c->name, what, s);
    return 0;
}

int pm_parse_literal_bool(pm_ctx *c, const char *s, const char *what, int *out)
{
    if (s) {
        const char *p = s;
        while (*p == ' ') p++;
        size_t n = strlen(p);
        while (n && p[n - 1] == ' ') n--;
        if (n == 4 && strncmp(p, "True", 4) == 0) return *out = 1, 0;
        if (n == 5 && strncmp(p, "False", 5) == 0) return *out = 0, 0;
    }
    return pm_err(c, "%s: %s: expected True or False, got '%s'", c->name, what, s ? s : "None");
}

int pm_parse_int_list(pm_ctx *c, const char *s, const char *what, int64_t *out, int *n, int max)
{
    if (!s) return pm_err(c, "%s: %s is None", c->name, what);
    size_t len = strlen(s);
    *n = 0;
    /* drop the first and last character ("[" and "]"), split on ',' */
    if (len < 2) return pm_err(c, "%s: %s: cannot read an int list from '%s'", c->name, what, s);
    const char *p = s + 1, *end = s + len - 1;
    while (p <= end) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        const char *stop = comma ? comma : end;
        char tmp[32];
        size_t m = (size_t)(stop - p);
        if (m >= sizeof tmp || *n == max)
            return pm_err(c, "%s: %s: cannot read an int list from '%s'", c->name, what, s);
        memcpy(tmp, p, m);
        tmp[m] = 0;
        if (pm_parse_int(c, tmp, what, &out[*n])) return -1;
        (*n)++;
        if (!comma) break;
        p = comma + 1;
    }
    return 0;
}

int pm_parse_literal_list(pm_ctx *c, const char *s, const char *what, int64_t *out, int *n, int max)
{
    if (!s) return pm_err(c, "%s: %s is None", c->name, what);
    const char *p = s;
    *n = 0;
    while (*p == ' ') p++;
    char open = *p, close = open == '[' ? ']' : ')';
    if (open != '[' && open != '(')
        return pm_err(c, "%s: %s: expected a list literal, got '%s'", c->name, what, s);
    p++;
    for (;;) {
        while (*p == ' ') p++;
        if (*p == close && *n == 0) break;
        const char *q = p;
        while (*q && *q != ',' && *q != close) q++;
        size_t m = (size_t)(q - p);
        while (m && p[m - 1] == ' ') m--;
        if (*n == max) return pm_err(c, "%s: %s: list too long", c->name, what);
        if (m == 4 && strncmp(p, "True", 4) == 0) out[*n] = 1;
        else if (m == 5 && strncmp(p, "False", 5) == 0) out[*n] = 0;
        else {
            char tmp[32];
            if (m == 0 || m >= sizeof tmp)
                return pm_err(c, "%s: %s: malformed list literal '%s'", c->name, what, s);
            memcpy(tmp, p, m);
            tmp[m] = 0;
            if (pm_parse_int(c, tmp, what, &out[*n])) return -1;
        }
        (*n)++;
        if (*q == ',') {
            p = q + 1;
            while (*p == ' ') p++;
            if (*p == close) break; /* trailing comma */
            continue;
        }
        if (*q == close) break;
        return pm_err(c, "%s: %s: malformed list literal '%s'", c->name, what, s);
    }
    const char *r = strchr(p, close);
    if (!r) return pm_err(c, "%s: %s: malformed list literal '%s'", c->name, what, s);
    for (r++; *r == ' '; r++) {}
    if (*r) return pm_err(c, "%s: %s: malformed list literal '%s'", c->name, what, s);
    return 0;
}

/* ---- checked integer arithmetic ------------------------------------------------------ */

int64_t pm_mul(pm_ctx *c, int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r)) {
        c->ovf = 1;
        return 0;
    }
    return r;
}

int64_t pm_add(pm_ctx *c, int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_add_overflow(a, b, &r)) {
        c->ovf = 1;
        return 0;
    }
    return r;
}

int64_t pm_prod(pm_ctx *c, const int64_t *v, int n)
{
    int64_t r = 1;
    for (int i = 0; i < n; i++) r = pm_mul(c, r, v[i]);
    return r;
}

int pm_overflowed(const pm_ctx *c) { return c->ovf; }

/* ---- parameters -------------------------------------------------------------------------- */

/* Appends a parameter whose repr is repr[0..n) and whose str() is str_text (NULL = same
 * as the repr; "none" when the value is None). */
static int add_param(pm_ctx *c, const char *name, const char *repr, size_t n, const char *str_text,
                     int is_none)
{
    tsql_perf *p = c->p;
    if (p->nparams == p->capparams) {
        size_t nc = p->capparams ? p->capparams * 2 : 16;
        tsql_pm_param *np = realloc(p->params, nc * sizeof *np);
        if (!np) return pm_nomem(c);
        p->params = np;
        p->capparams = nc;
    }
    tsql_pm_param *q = &p->params[p->nparams];
    q->name = name;
    q->repr = malloc(n + 1);
    q->str = NULL;
    if (!q->repr) return pm_nomem(c);
    memcpy(q->repr, repr, n);
    q->repr[n] = 0;
    if (!is_none) {
        q->str = strdup(str_text ? str_text : q->repr);
        if (!q->str) {
            free(q->repr);
            return pm_nomem(c);
        }
    }
    p->nparams++;
    return 0;
}

/* appends the scratch buffer as a parameter */
static int add_scratch(pm_ctx *c, const char *name)
{
    return add_param(c, name, c->t.p ? c->t.p : "", c->t.n, NULL, 0);
}

int pm_p_int(pm_ctx *c, const char *name, int64_t v)
{
    char tmp[24];
    int n = snprintf(tmp, sizeof tmp, "%lld", (long long)v);
    return add_param(c, name, tmp, (size_t)n, NULL, 0);
}

int pm_p_float(pm_ctx *c, const char *name, double v)
{
    char tmp[TSQL_PY_FLOAT_BUFSZ];
    int n = tsql_py_float(v, tmp);
    return add_param(c, name, tmp, (size_t)n, NULL, 0);
}

int pm_p_bool(pm_ctx *c, const char *name, int v)
{
    return add_param(c, name, v ? "True" : "False", v ? 4 : 5, NULL, 0);
}

int pm_p_none(pm_ctx *c, const char *name) { return add_param(c, name, "None", 4, NULL, 1); }

int pm_p_str(pm_ctx *c, const char *name, const char *s)
{
    if (!s) return pm_p_none(c, name);
    c->t.n = 0;
    if (tsql_py_put_str(&c->t, s, strlen(s))) return pm_nomem(c);
    return add_param(c, name, c->t.p, c->t.n, s, 0);
}

int pm_p_repr(pm_ctx *c, const char *name, const char *repr)
{
    return add_param(c, name, repr, strlen(repr), NULL, 0);
}

int pm_p_shape(pm_ctx *c, const char *name, const pm_shape *s)
{
    c->t.n = 0;
    int bad = tsql_bputc(&c->t, '(');
    for (int i = 0; i < s->n && !bad; i++) {
        if (i) bad |= tsql_bput(&c->t, ", ", 2);
        bad |= tsql_py_put_int(&c->t, (long long)s->d[i]);
    }
    if (s->n == 1) bad |= tsql_bputc(&c->t, ',');
    bad |= tsql_bputc(&c->t, ')');
    return bad ? pm_nomem(c) : add_scratch(c, name);
}

/* tuple of the elements a[from..to) */
static int put_tuple(pm_ctx *c, const cJSON *a, int from, int to)
{
    int n = pm_len(a);
    if (to < 0 || to > n) to = n;
    if (from > to) from = to;
    c->t.n = 0;
    int bad = tsql_bputc(&c->t, '(');
    for (int i = from; i < to && !bad; i++) {
        if (i > from) bad |= tsql_bput(&c->t, ", ", 2);
        bad |= tsql_pyrepr_json(&c->t, cJSON_GetArrayItem(a, i), 0);
    }
    if (to - from == 1) bad |= tsql_bputc(&c->t, ',');
    bad |= tsql_bputc(&c->t, ')');
    return bad ? pm_nomem(c) : 0;
}

int pm_p_slice(pm_ctx *c, const char *name, const cJSON *a, int from, int to)
{
    if (!a) return pm_p_none(c, name);
    if (put_tuple(c, a, from, to)) return -1;
    return add_scratch(c, name);
}

int pm_p_tuple(pm_ctx *c, const char *name, const cJSON *v)
{
    if (!v) return pm_p_none(c, name);
    if (!cJSON_IsArray(v)) return pm_err(c, "%s: %s is not a list", c->name, name);
    return pm_p_slice(c, name, v, 0, -1);
}

int pm_p_str_tuple(pm_ctx *c, const char *name, const char *const *strs, int n)
{
    c->t.n = 0;
    int bad = tsql_bputc(&c->t, '(');
    for (int i = 0; i < n && !bad; i++) {
        if (i) bad |= tsql_bput(&c->t, ", ", 2);
        bad |= strs[i] ? tsql_py_put_str(&c->t, strs[i], strlen(strs[i])) : tsql_bputs(&c->t, "None");
    }
    if (n == 1) bad |= tsql_bputc(&c->t, ',');
    bad |= tsql_bputc(&c->t, ')');
    return bad ? pm_nomem(c) : add_scratch(c, name);
}

int pm_p_has(const pm_ctx *c, const char *name)
{
    for (size_t i = 0; i < c->p->nparams; i++)
        if (strcmp(c->p->params[i].name, name) == 0) return 1;
    return 0;
}

int pm_p_stride(pm_ctx *c, const char *name, int i, int mode)
{
    if (!c->strides) {
        if (mode != PM_STRICT) return pm_p_none(c, name);
        return pm_err(c, "%s: args have no \"Input Strides\"", c->name);
    }
    const cJSON *v = pm_at_opt(c->strides, i);
    if (!v) {
        if (mode == PM_OPT) return pm_p_none(c, name);
        return pm_err(c, "%s: \"Input Strides\" has no element %d", c->name, i);
    }
    return pm_p_tuple(c, name, v);
}

const tsql_pm_param *tsql_perf_param(const tsql_perf *p, const char *name)
{
    for (size_t i = 0; i < p->nparams; i++)
        if (strcmp(p->params[i].name, name) == 0) return &p->params[i];
    return NULL;
}

int tsql_perf_params_dict(const tsql_perf *p, tsql_buf *out)
{
    if (tsql_bputc(out, '{')) return -1;
    for (size_t i = 0; i < p->nparams; i++) {
        if (i && tsql_bput(out, ", ", 2)) return -1;
        if (tsql_py_put_str(out, p->params[i].name, strlen(p->params[i].name)) ||
            tsql_bput(out, ": ", 2) || tsql_bputs(out, p->params[i].repr))
            return -1;
    }
    return tsql_bputc(out, '}');
}

/* ---- evaluation ---------------------------------------------------------------------------- */

static const cJSON *arg_array(const cJSON *args, const char *key)
{
    const cJSON *v = args ? cJSON_GetObjectItemCaseSensitive(args, key) : NULL;
    return v && !cJSON_IsNull(v) ? v : NULL;
}

static int eval_json(tsql_perf *p, const char *name, const cJSON *args, const cJSON *fwd_args,
                     const char *annotation, const char *const *kernel_names, size_t nkernels, int bwd)
{
    clear_params(p);
    p->status = TSQL_PM_OK;
    p->flops = 0;
    p->bytes = NAN;
    p->has_bytes = 0;
    p->compute_spec[0] = 0;
    p->error[0] = 0;
    p->op = tsql_op_lookup(name);
    p->category = tsql_op_category(name, NULL);
    p->sheet = p->op ? p->op->sheet : NULL;

    pm_ctx c = {.p = p, .name = name ? name : "", .args = args, .kernels = kernel_names,
                .nkernels = kernel_names ? nkernels : 0, .bwd = bwd, .annotation = annotation};
    if (args && !cJSON_IsObject(args)) args = c.args = NULL;
    c.dims = arg_array(args, "Input Dims");
    c.types = arg_array(args, "Input type");
    c.strides = arg_array(args, "Input Strides");
    c.conc = arg_array(args, "Concrete Inputs");

    tsql_pm_model fn = NULL;
    const tsql_op_info *op = p->op;
    if (op && (op->flags & TSQL_OPF_MODEL)) {
        c.cls = op->model_class;
        if (!op->model) {
            p->status = TSQL_PM_UNSUPPORTED;
            snprintf(p->error, sizeof p->error,
                     "%s: TraceLens models it with %s, which tracesql does not implement", c.name,
                     op->model_class);
            return p->status;
        }
        if (!(op->flags & TSQL_OPF_FWD)) {
            pm_notimpl(&c, "the model is not defined for this op");
            return p->status;
        }
        if (bwd && !(op->flags & TSQL_OPF_BWD)) {
            pm_notimpl(&c, "backward metrics are not defined for this model");
            return p->status;
        }
        if (op->flags & TSQL_OPF_FWD_PARAMS) {
            /* the model reads its forward op's args ("X_Backward" copies "X_") */
            size_t stem = strlen(c.name) - (sizeof "Backward" - 1);
            if (!fwd_args) {
                p->status = TSQL_PM_ERROR;
                snprintf(p->error, sizeof p->error,
                         "%s: no %.*s with the same Sequence number was modelled before it; TraceLens "
                         "copies that forward op's parameters, so the row has no metrics",
                         c.name, (int)stem, c.name);
                return p->status;
            }
            c.args = cJSON_IsObject(fwd_args) ? fwd_args : NULL;
            c.dims = arg_array(c.args, "Input Dims");
            c.types = arg_array(c.args, "Input type");
            c.strides = arg_array(c.args, "Input Strides");
            c.conc = arg_array(c.args, "Concrete Inputs");
        }
        fn = op->model;
    } else if (is_compiled_triton(name)) {
        c.cls = "TritonCompiledPerfModel";
        fn = pm_triton;
    } else {
        p->status = TSQL_PM_NO_MODEL;
        snprintf(p->error, sizeof p->error, "%s has no perf model", c.name);
        return p->status;
    }
    int st = fn(&c);
    free(c.t.p);
    if (st < 0) st = p->status != TSQL_PM_OK ? p->status : TSQL_PM_ERROR; /* defensive */
    if (st != TSQL_PM_OK) {
        p->status = st;
        clear_params(p); /* no parameters without metrics */
        p->compute_spec[0] = 0;
        p->flops = 0;
        p->bytes = NAN;
        p->has_bytes = 0;
    }
    return p->status;
}

int tsql_perf_eval_json(tsql_perf *p, const char *name, const cJSON *args,
                        const char *const *kernel_names, size_t nkernels, int bwd)
{
    return eval_json(p, name, args, NULL, NULL, kernel_names, nkernels, bwd);
}

int tsql_perf_eval(tsql_perf *p, const char *name, const char *args_json,
                   const char *const *kernel_names, size_t nkernels, int bwd)
{
    return tsql_perf_eval_ann(p, name, args_json, NULL, kernel_names, nkernels, bwd);
}

int tsql_perf_eval_ann(tsql_perf *p, const char *name, const char *args_json, const char *annotation,
                       const char *const *kernel_names, size_t nkernels, int bwd)
{
    return tsql_perf_eval_fwd(p, name, args_json, NULL, annotation, kernel_names, nkernels, bwd);
}

/* args text → cJSON (NULL for none); 0, or -1 with *p set to ERROR when it is not JSON */
static int parse_args(tsql_perf *p, const char *name, const char *json, const char *whose, cJSON **out)
{
    *out = NULL;
    if (!json || !*json || (*out = cJSON_Parse(json))) return 0;
    clear_params(p);
    p->op = tsql_op_lookup(name);
    p->category = tsql_op_category(name, NULL);
    p->sheet = p->op ? p->op->sheet : NULL;
    p->flops = 0;
    p->bytes = NAN;
    p->has_bytes = 0;
    p->compute_spec[0] = 0;
    p->status = TSQL_PM_ERROR;
    snprintf(p->error, sizeof p->error, "%s: %s are not valid JSON", name ? name : "", whose);
    return -1;
}

int tsql_perf_eval_fwd(tsql_perf *p, const char *name, const char *args_json, const char *fwd_args_json,
                       const char *annotation, const char *const *kernel_names, size_t nkernels, int bwd)
{
    cJSON *args, *fwd;
    if (parse_args(p, name, args_json, "args", &args)) return p->status;
    if (parse_args(p, name, fwd_args_json, "the forward op's args", &fwd)) {
        cJSON_Delete(args);
        return p->status;
    }
    int st = eval_json(p, name, args, fwd, annotation, kernel_names, nkernels, bwd);
    cJSON_Delete(args);
    cJSON_Delete(fwd);
    return st;
}

/* ---- derived metrics and roofline ----------------------------------------------------------- */

void tsql_perf_derive(double flops, double bytes, double kernel_us, tsql_perf_metrics *m)
{
    m->gflops = flops / 1e9;
    m->tflops_s = kernel_us == 0 ? NAN : (m->gflops / 1e3) / (kernel_us / 1e6);
    m->data_moved_mb = isnan(bytes) ? NAN : bytes / 1048576.0;
    /* (GFLOPS · 1e9) / Bytes, as TraceLens: the round trip through GFLOPS can move F by
     * one ulp, so this is not F / Bytes (reference semantics 7.1) */
    m->flops_per_byte = (isnan(bytes) || bytes == 0) ? NAN : (m->gflops * 1e9) / bytes;
    m->tb_s = (kernel_us == 0 || isnan(bytes)) ? NAN : (bytes / 1e12) / (kernel_us / 1e6);
}

int tsql_roofline_eval(double flops, double bytes, double kernel_us, double peak_tflops,
                       double mem_gbps, tsql_roofline *r)
{
    if (isnan(bytes) || !(flops / 1e9 > 0) || !(peak_tflops > 0) || !(mem_gbps > 0)) return -1;
    /* from GFLOPS, as FLOPS/Byte (7.1): ((G · 1e9) / (P · 1e12)) · 1e6 */
    r->compute_us = ((flops / 1e9) * 1e9) / (peak_tflops * 1e12) * 1e6;
    r->memory_us = bytes / (mem_gbps * 1e9) * 1e6;
    r->time_us = r->compute_us > r->memory_us ? r->compute_us : r->memory_us;
    r->bound = r->compute_us >= r->memory_us ? "COMPUTE_BOUND" : "MEMORY_BOUND";
    r->pct = kernel_us == 0 ? NAN : r->time_us / kernel_us * 100;
    return 0;
}
