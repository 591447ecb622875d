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
#define IMPL TSQL_OPF_IMPL
#define EXT TSQL_OPF_EXT
#define BWD_ONLY TSQL_OPF_BWD_ONLY

/* {name, category, bwd_category, sheet family, TraceLens class, flags}. Perf-model names
 * first (in Appendix A order), then category-only names. A name in both lists keeps its
 * model and takes the category-only category (the category-only map is applied last). */
static const tsql_op_info registry[] = {
    {"aten::mm", "GEMM", NULL, "GEMM",
     "aten_mm", MODEL | FWD | IMPL},
    {"aten::addmm", "GEMM", NULL, "GEMM",
     "aten_addmm", MODEL | FWD | IMPL},
    {"aten::_scaled_mm", "GEMM", NULL, "GEMM",
     "aten_scaled_mm", MODEL | FWD | IMPL},
    {"trtllm::cublas_scaled_mm", "GEMM", NULL, "GEMM",
     "aten_scaled_mm", MODEL | FWD | IMPL},
    {"bitsandbytes::int8_linear_matmul", "GEMM", NULL, "GEMM",
     "aten_scaled_mm", MODEL | FWD | IMPL},
    {"aten::bmm", "GEMM", NULL, "GEMM",
     "aten_bmm", MODEL | FWD | IMPL},
    {"tex_ts::te_gemm_ts", "GEMM", NULL, "GEMM",
     "tex_ts_te_gemm_ts", MODEL | FWD | IMPL},
    {"aten::baddbmm", "GEMM", NULL, "GEMM",
     "aten_baddbmm", MODEL | FWD | IMPL},
    {"vllm::gemm_with_dynamic_quant", "GEMM", NULL, "GEMM",
     "vllm_gemm_with_dynamic_quant", MODEL | FWD | IMPL},
    {"_Linear_yfwd_mm", "GEMM", NULL, "GEMM",
     "tev2_pseudo_gemm", MODEL | FWD | IMPL},
    {"_LinearBackward_xgrad_mm", "GEMM", NULL, "GEMM",
     "tev2_pseudo_gemm", MODEL | FWD | IMPL},
    {"_LinearBackward_wgrad_mm", "GEMM", NULL, "GEMM",
     "tev2_pseudo_gemm", MODEL | FWD | IMPL},
    {"_LayerNormLinear_yfwd_mm", "GEMM", NULL, "GEMM",
     "tev2_pseudo_gemm", MODEL | FWD | IMPL},
    {"_LayerNormLinearBackward_xgrad_mm", "GEMM", NULL, "GEMM",
     "tev2_pseudo_gemm", MODEL | FWD | IMPL},
    {"_LayerNormLinearBackward_wgrad_mm", "GEMM", NULL, "GEMM",
     "tev2_pseudo_gemm", MODEL | FWD | IMPL},
    {"primus_turbo_cpp_extension::hipblaslt_gemm_fp8", "GEMM", NULL, "GEMM",
     "hipblaslt_gemm_fp8", MODEL | FWD | IMPL},
    {"primus_turbo::hipblaslt_gemm_fp8", "GEMM", NULL, "GEMM",
     "hipblaslt_gemm_fp8", MODEL | FWD | IMPL},
    {"primus_turbo_cpp_extension::hipblaslt_gemm_fp4", "GEMM", NULL, "GEMM",
     "hipblaslt_gemm_fp4", MODEL | FWD | IMPL},
    {"primus_turbo::hipblaslt_gemm_fp4", "GEMM", NULL, "GEMM",
     "hipblaslt_gemm_fp4", MODEL | FWD | IMPL},
    {"aiter::gemm_a4w4", "GEMM", NULL, "GEMM",
     "aiter_gemm_a4w4", MODEL | FWD | IMPL},
    {"aiter::_gemm_a4w4_asm", "GEMM", NULL, "GEMM",
     "aiter_gemm_a4w4", MODEL | FWD | IMPL},
    {"aiter::batched_gemm_a16wfp4_", "GEMM", NULL, "GEMM",
     "batched_gemm_a16wfp4", MODEL | EXT | FWD},
    {"sglang_profiler::fp8_utils_gemm_a8w8_blockscale", "GEMM", NULL, "GEMM",
     "gemm_a8w8_blockscale", MODEL | EXT | FWD},
    {"sglang_profiler::gemm_a8w8_blockscale_gemm_a8w8_blockscale", "GEMM", NULL, "GEMM",
     "gemm_a8w8_blockscale", MODEL | EXT | FWD},
    {"vllm::rocm_aiter_triton_gemm_a8w8_blockscale", "GEMM", NULL, "GEMM",
     "gemm_a8w8_blockscale", MODEL | EXT | FWD},
    {"aiter::gemm_a8w8_blockscale_ck", "GEMM", NULL, "GEMM",
     "gemm_a8w8_blockscale", MODEL | EXT | FWD},
    {"aiter::gemm_a8w8_blockscale_cktile", "GEMM", NULL, "GEMM",
     "gemm_a8w8_blockscale", MODEL | EXT | FWD},
    {"aiter::gemm_a8w8_blockscale_bpreshuffle_ck", "GEMM", NULL, "GEMM",
     "gemm_a8w8_blockscale", MODEL | EXT | FWD},
    {"aiter::gemm_a8w8_blockscale_bpreshuffle_cktile", "GEMM", NULL, "GEMM",
     "gemm_a8w8_blockscale", MODEL | EXT | FWD},
    {"aiter::flatmm_a8w8_blockscale_asm", "GEMM", NULL, "GEMM",
     "gemm_a8w8_blockscale", MODEL | EXT | FWD},
    {"aiter::gfx950_a8w8_blockscale_asm", "GEMM", NULL, "GEMM",
     "gemm_a8w8_blockscale", MODEL | EXT | FWD},
    {"aiter::gemm_a8w8_ck", "GEMM", NULL, "GEMM",
     "gemm_a8w8_blockscale", MODEL | EXT | FWD},
    {"aiter::gemm_a8w8_bpreshuffle_ck", "GEMM", NULL, "GEMM",
     "gemm_a8w8_blockscale", MODEL | EXT | FWD},
    {"aiter::gemm_a8w8_bpreshuffle", "GEMM", NULL, "GEMM",
     "gemm_a8w8_blockscale", MODEL | EXT | FWD},
    {"vllm::_rocm_aiter_preshuffled_per_token_w8a8_gemm", "GEMM", NULL, "GEMM",
     "gemm_a8w8_blockscale", MODEL | EXT | FWD},
    {"vllm::rocm_unquantized_gemm", "GEMM", NULL, "GEMM",
     "vllm_rocm_unquantized_gemm", MODEL | EXT | FWD},
    {"aiter::gemm_a16w16", "GEMM", NULL, "GEMM",
     "gemm_a16w16", MODEL | EXT | FWD},
    {"aiter::gemm_a16w16_atomic_", "GEMM", NULL, "GEMM",
     "gemm_a16w16_atomic_", MODEL | EXT | FWD},
    {"aiter::_gemm_a16w16_asm", "GEMM", NULL, "GEMM",
     "gemm_a16w16_asm", MODEL | EXT | FWD},
    {"sglang_profiler::gemm_kernels_flydsl_hgemm", "GEMM", NULL, "GEMM",
     "gemm_a16w16_atomic_", MODEL | EXT | FWD},
    {"aiter::gemm_afp4wfp4_", "GEMM", NULL, "GEMM",
     "gemm_afp4wfp4", MODEL | EXT | FWD},
    {"sglang_profiler::batched_gemm_a8w8_a_per_token_group_prequant_w_per_batched_tensor_qu"
     "ant_batched_gemm_a8w8_a_per_token_group_prequant_w_per_batched_tensor_quant", "GEMM", NULL, "GEMM",
     "batched_gemm_a8w8", MODEL | EXT | FWD},
    {"aiter::_gemm_a8w8_blockscale_bpreshuffle_asm", "GEMM", NULL, "GEMM",
     "gemm_a8w8_blockscale", MODEL | EXT | FWD},
    {"FlashAttnFunc", "SDPA_fwd", "SDPA_bwd", "SDPA",
     "flash_attention", MODEL | FWD | BWD | IMPL},
    {"flash_attn::_flash_attn_forward", "SDPA_fwd", "SDPA_bwd", "SDPA",
     "flash_attention", MODEL | FWD | BWD | IMPL},
    {"flash_attn::_flash_attn_backward", "SDPA_bwd", "SDPA_bwd", "SDPA",
     "flash_attention_backward", MODEL | FWD | BWD | BWD_ONLY | IMPL},
    {"flash_attn::_flash_attn_varlen_forward", "SDPA_fwd", "SDPA_bwd", "SDPA",
     "flash_attention_varlen_forward", MODEL | FWD | BWD | IMPL},
    {"flash_attn::_flash_attn_varlen_backward", "SDPA_bwd", "SDPA_bwd", "SDPA",
     "flash_attention_varlen_backward", MODEL | FWD | BWD | BWD_ONLY | IMPL},
    {"aten::_scaled_dot_product_cudnn_attention", "SDPA_fwd", "SDPA_bwd", "SDPA",
     "aten__scaled_dot_product_cudnn_attention", MODEL | FWD | BWD | IMPL},
    {"aten::_scaled_dot_product_efficient_attention", "SDPA_fwd", "SDPA_bwd", "SDPA",
     "aten__scaled_dot_product_efficient_attention", MODEL | FWD | BWD | IMPL},
    {"aten::_scaled_dot_product_flash_attention", "SDPA_fwd", "SDPA_bwd", "SDPA",
     "aten__scaled_dot_product_flash_attention", MODEL | FWD | BWD | IMPL},
    {"aiter::_flash_attn_forward", "SDPA_fwd", "SDPA_bwd", "SDPA",
     "aiter__flash_attn_forward", MODEL | FWD | BWD | IMPL},
    {"aiter::_flash_attn_backward", "SDPA_bwd", "SDPA_bwd", "SDPA",
     "aiter__flash_attn_backward", MODEL | FWD | BWD | BWD_ONLY | IMPL},
    {"aiter::wrapper_fmha_v3_fwd", "SDPA_fwd", "SDPA_bwd", "SDPA",
     "aiter__fmha_v3_forward", MODEL | FWD | BWD | IMPL},
    {"aiter::wrapper_fmha_v3_bwd", "SDPA_bwd", "SDPA_bwd", "SDPA",
     "aiter__fmha_v3_backward", MODEL | FWD | BWD | BWD_ONLY | IMPL},
    {"aiter::mha_fwd", "SDPA_fwd", "SDPA_bwd", "SDPA",
     "aiter__mha_fwd", MODEL | FWD | BWD | IMPL},
    {"aiter::fmha_v3_fwd", "SDPA_fwd", "SDPA_bwd", "SDPA",
     "aiter__fmha_v3_fwd", MODEL | FWD | BWD | IMPL},
    {"aiter::mha_bwd", "SDPA_bwd", "SDPA_bwd", "SDPA",
     "aiter__mha_bwd", MODEL | FWD | BWD | BWD_ONLY | IMPL},
    {"flash_attn_3::fwd", "SDPA_fwd", "SDPA_bwd", "SDPA",
     "flash_attn_v3_forward", MODEL | FWD | BWD | IMPL},
    {"EvoformerAttention", "SDPA_fwd", "SDPA_bwd", "SDPA",
     "evoformer_attention", MODEL | FWD | BWD | IMPL},
    {"aten::convolution", "CONV_fwd", "CONV_bwd", "CONV",
     "aten_conv", MODEL | FWD | BWD | IMPL},
    {"aten::convolution_backward", "CONV_bwd", "CONV_bwd", "CONV",
     "aten_conv_bwd", MODEL | FWD | BWD | BWD_ONLY | IMPL},
    {"ConvBias_", "CONV_fwd", "CONV_bwd", "CONV",
     "ConvBias_", MODEL | FWD | BWD | IMPL},
    {"ConvBiasReLU_", "CONV_fwd", "CONV_bwd", "CONV",
     "ConvBiasReLU_", MODEL | FWD | BWD | IMPL},
    {"ConvBias_Backward", "CONV_bwd", "CONV_bwd", "CONV",
     "ConvBias_Backward", MODEL | FWD | BWD_ONLY},
    {"ConvBiasReLU_Backward", "CONV_bwd", "CONV_bwd", "CONV",
     "ConvBiasReLU_Backward", MODEL | FWD | BWD_ONLY},
    {"vllm::unified_attention_with_output", "InferenceAttention", NULL, "InferenceAttention",
     "vllm_unified_attention_with_output", MODEL | EXT | FWD},
    {"aiter::mha_varlen_fwd", "InferenceAttention", NULL, "InferenceAttention",
     "mha_varlen_fwd", MODEL | EXT | FWD},
    {"aiter::fmha_v3_varlen_fwd", "InferenceAttention", NULL, "InferenceAttention",
     "aiter_fmha_v3_varlen_fwd", MODEL | EXT | FWD},
    {"aiter::mha_batch_prefill", "InferenceAttention", NULL, "InferenceAttention",
     "aiter_mha_batch_prefill", MODEL | EXT | FWD},
    {"sglang_profiler::attention_paged_attention_ragged"
     "", "InferenceAttention", NULL, "InferenceAttention",
     "aiter_paged_attention_ragged", MODEL | EXT | FWD},
    {"pseudo_mla_decode_fwd", "InferenceAttention", NULL, "InferenceAttention",
     "mla_decode_fwd", MODEL | EXT | FWD},
    {"pseudo_mla_prefill_fwd", "InferenceAttention", NULL, "InferenceAttention",
     "pseudo_mla_prefill_fwd", MODEL | EXT | FWD},
    {"aiter::pa_decode_gluon", "InferenceAttention", NULL, "InferenceAttention",
     "pa_decode_gluon", MODEL | EXT | FWD},
    {"pseudo_v4_paged_decode_swa", "InferenceAttention", NULL, "InferenceAttention",
     "pseudo_v4_paged_decode_swa", MODEL | EXT | FWD},
    {"pseudo_v4_paged_decode_csa", "InferenceAttention", NULL, "InferenceAttention",
     "pseudo_v4_paged_decode_csa", MODEL | EXT | FWD},
    {"pseudo_v4_paged_decode_hca", "InferenceAttention", NULL, "InferenceAttention",
     "pseudo_v4_paged_decode_hca", MODEL | EXT | FWD},
    {"aiter::pa_sparse_prefill_opus_fwd", "InferenceAttention", NULL, "InferenceAttention",
     "pa_sparse_prefill_opus_fwd", MODEL | EXT | FWD},
    {"sglang_profiler::tilelang_kernel_tilelang_sparse_fwd"
     "", "InferenceAttention", NULL, "InferenceAttention",
     "mla_tilelang_sparse_fwd", MODEL | EXT | FWD},
    {"vllm::gdn_attention_core", "InferenceAttention", NULL, "InferenceAttention",
     "gdn_attention_core", MODEL | EXT | FWD},
    {"aiter::linear_attention_with_output_base", "InferenceAttention", NULL, "InferenceAttention",
     "gdn_attention_core", MODEL | EXT | FWD},
    {"sglang::store_cache", "InferenceAttention", NULL, "InferenceAttention",
     "sglang_store_cache", MODEL | EXT | FWD},
    {"LigerSiLUMulFunction", "elementwise", NULL, "BinaryElementwise",
     "liger_silu_mul_function", MODEL | FWD | IMPL},
    {"aiter::dynamic_per_token_scaled_quant", "GroupQuant", NULL, "BinaryElementwise",
     "per_group_quant", MODEL | EXT | FWD},
    {"aiter::dynamic_per_group_scaled_quant", "GroupQuant", NULL, "BinaryElementwise",
     "per_group_quant", MODEL | EXT | FWD},
    {"vllm::triton_per_token_group_quant_fp8", "GroupQuant", NULL, "BinaryElementwise",
     "vllm_triton_per_token_group_quant_fp8", MODEL | EXT | FWD},
    {"aiter::dynamic_per_tensor_quant", "GroupQuant", NULL, "BinaryElementwise",
     "per_group_quant", MODEL | EXT | FWD},
    {"aten::div", "elementwise", NULL, "BinaryElementwise",
     "aten_binary_elementwise", MODEL | FWD | IMPL},
    {"aten::div_", "elementwise", NULL, "BinaryElementwise",
     "aten_binary_elementwise", MODEL | FWD | IMPL},
    {"aten::mul", "elementwise", NULL, "BinaryElementwise",
     "aten_binary_elementwise", MODEL | FWD | IMPL},
    {"aten::mul_", "elementwise", NULL, "BinaryElementwise",
     "aten_binary_elementwise", MODEL | FWD | IMPL},
    {"aten::add", "elementwise", NULL, "BinaryElementwise",
     "aten_binary_elementwise", MODEL | FWD | IMPL},
    {"aten::add_", "elementwise", NULL, "BinaryElementwise",
     "aten_binary_elementwise", MODEL | FWD | IMPL},
    {"aten::sigmoid_backward", "elementwise", NULL, "BinaryElementwise",
     "aten_binary_elementwise", MODEL | FWD | IMPL},
    {"aten::threshold_backward", "elementwise", NULL, "BinaryElementwise",
     "aten_binary_elementwise", MODEL | FWD | IMPL},
    {"primus_turbo::grouped_gemm", "GroupedGEMM_fwd", "GroupedGEMM_bwd", "GroupedGEMM",
     "primus_turbo_grouped_gemm", MODEL | FWD | IMPL},
    {"primus_turbo::grouped_gemm_impl", "GroupedGEMM_fwd", "GroupedGEMM_bwd", "GroupedGEMM",
     "primus_turbo_grouped_gemm", MODEL | FWD | IMPL},
    {"primus_turbo_cpp_extension::grouped_gemm"
     "", "GroupedGEMM_fwd", "GroupedGEMM_bwd", "GroupedGEMM",
     "primus_turbo_grouped_gemm", MODEL | FWD | IMPL},
    {"primus_turbo::grouped_gemm_variable_k", "GroupedGEMM_fwd", "GroupedGEMM_bwd", "GroupedGEMM",
     "primus_turbo_grouped_gemm_variable_k", MODEL | FWD | IMPL},
    {"primus_turbo::grouped_gemm_variable_k_impl"
     "", "GroupedGEMM_fwd", "GroupedGEMM_bwd", "GroupedGEMM",
     "primus_turbo_grouped_gemm_variable_k", MODEL | FWD | IMPL},
    {"primus_turbo_cpp_extension::grouped_gemm_variable_k"
     "", "GroupedGEMM_fwd", "GroupedGEMM_bwd", "GroupedGEMM",
     "primus_turbo_grouped_gemm_variable_k", MODEL | FWD | IMPL},
    {"primus_turbo_cpp_extension::ck_grouped_gemm"
     "", "GroupedGEMM_fwd", "GroupedGEMM_bwd", "GroupedGEMM",
     "primus_turbo_grouped_gemm", MODEL | FWD | IMPL},
    {"primus_turbo_cpp_extension::ck_grouped_gemm_variable_k"
     "", "GroupedGEMM_fwd", "GroupedGEMM_bwd", "GroupedGEMM",
     "primus_turbo_grouped_gemm_variable_k", MODEL | FWD | IMPL},
    {"MoEDispatch", "MoE_comm_fwd", "MoE_comm_bwd", "MoE_comm",
     "moe_dispatch", MODEL | FWD | BWD | IMPL},
    {"MoECombine", "MoE_comm_fwd", "MoE_comm_bwd", "MoE_comm",
     "moe_combine", MODEL | FWD | BWD | IMPL},
    {"DaoAILab::_causal_conv1d_fwd_cpp", "SSM_fwd", NULL, "SSM",
     "causal_conv1d_fwd", MODEL | FWD | IMPL},
    {"MambaSplitConv1dScanCombinedFn", "SSM_fwd", "SSM_bwd", "SSM",
     "mamba_ssd_fwd", MODEL | FWD | BWD | IMPL},
    {"FusedRoPEFunc", "RoPE_fwd", NULL, "RoPE",
     "fused_rope_fwd", MODEL | FWD | IMPL},
    {"aiter::rope_cached_positions_2c_fwd_impl", "RoPE_fwd", NULL, "RoPE",
     "aiter_rope_cached_positions_2c_fwd_impl", MODEL | EXT | FWD},
    {"sgl_kernel::rotary_embedding", "RoPE_fwd", NULL, "RoPE",
     "sgl_kernel_rotary_embedding", MODEL | EXT | FWD},
    {"CrossEntropyFunction", "CrossEntropy_fwd", NULL, "CrossEntropy",
     "cross_entropy_fwd", MODEL | FWD | IMPL},
    {"primus_turbo_cpp_extension::quantize_fp8_tensorwise", "elementwise", NULL, "UnaryElementwise",
     "primus_turbo_quantize_fp8", MODEL | FWD | IMPL},
    {"primus_turbo::quantize_fp8_tensorwise", "elementwise", NULL, "UnaryElementwise",
     "primus_turbo_quantize_fp8", MODEL | FWD | IMPL},
    {"primus_turbo_cpp_extension::quantize_mxfp4_dual", "elementwise", NULL, "UnaryElementwise",
     "primus_turbo_quantize_mxfp4_dual", MODEL | FWD | IMPL},
    {"primus_turbo::quantize_mxfp4_dual", "elementwise", NULL, "UnaryElementwise",
     "primus_turbo_quantize_mxfp4_dual", MODEL | FWD | IMPL},
    {"primus::quantize_mxfp4_dual", "elementwise", NULL, "UnaryElementwise",
     "primus_turbo_quantize_mxfp4_dual", MODEL | FWD | IMPL},
    {"aiter::silu_and_mul", "elementwise", NULL, "UnaryElementwise",
     "aiter_silu_and_mul", MODEL | EXT | FWD},
    {"_C::silu_and_mul", "elementwise", NULL, "UnaryElementwise",
     "aiter_silu_and_mul", MODEL | EXT | FWD},
    {"sgl_kernel::silu_and_mul", "elementwise", NULL, "UnaryElementwise",
     "sgl_kernel_silu_and_mul", MODEL | EXT | FWD},
    {"aiter::gelu_and_mul", "elementwise", NULL, "UnaryElementwise",
     "aiter_gelu_and_mul", MODEL | EXT | FWD},
    {"aiter::gelu_tanh_and_mul", "elementwise", NULL, "UnaryElementwise",
     "aiter_gelu_tanh_and_mul", MODEL | EXT | FWD},
    {"aten::copy", "elementwise", NULL, "UnaryElementwise",
     "aten_unary_elementwise", MODEL | FWD | IMPL},
    {"aten::copy_", "elementwise", NULL, "UnaryElementwise",
     "aten_unary_elementwise", MODEL | FWD | IMPL},
    {"aten::clamp_min", "elementwise", NULL, "UnaryElementwise",
     "aten_unary_elementwise", MODEL | FWD | IMPL},
    {"aten::clamp_min_", "elementwise", NULL, "UnaryElementwise",
     "aten_unary_elementwise", MODEL | FWD | IMPL},
    {"aten::clamp_max", "elementwise", NULL, "UnaryElementwise",
     "aten_unary_elementwise", MODEL | FWD | IMPL},
    {"aten::clamp_max_", "elementwise", NULL, "UnaryElementwise",
     "aten_unary_elementwise", MODEL | FWD | IMPL},
    {"aten::sigmoid", "elementwise", NULL, "UnaryElementwise",
     "aten_unary_elementwise", MODEL | FWD | IMPL},
    {"aten::rsqrt", "elementwise", NULL, "UnaryElementwise",
     "aten_unary_elementwise", MODEL | FWD | IMPL},
    {"aten::silu", "elementwise", NULL, "UnaryElementwise",
     "aten_unary_elementwise", MODEL | FWD | IMPL},
    {"aten::neg", "elementwise", NULL, "UnaryElementwise",
     "aten_unary_elementwise", MODEL | FWD | IMPL},
    {"aten::pow", "elementwise", NULL, "UnaryElementwise",
     "aten_unary_elementwise", MODEL | FWD | IMPL},
    {"aten::replication_pad1d", "elementwise", NULL, "UnaryElementwise",
     "aten_replication_pad", MODEL | FWD | IMPL},
    {"aten::replication_pad2d", "elementwise", NULL, "UnaryElementwise",
     "aten_replication_pad", MODEL | FWD | IMPL},
    {"aten::replication_pad3d", "elementwise", NULL, "UnaryElementwise",
     "aten_replication_pad", MODEL | FWD | IMPL},
    {"aten::upsample_nearest1d", "elementwise", NULL, "UnaryElementwise",
     "aten_upsample_nearest", MODEL | FWD | IMPL},
    {"aten::upsample_nearest2d", "elementwise", NULL, "UnaryElementwise",
     "aten_upsample_nearest", MODEL | FWD | IMPL},
    {"aten::upsample_nearest3d", "elementwise", NULL, "UnaryElementwise",
     "aten_upsample_nearest", MODEL | FWD | IMPL},
    {"pseudo_op::moe_aiter_fused_1stage", "MoE_fused", NULL, "MoE_fused",
     "moe_aiter_fused_1stage", MODEL | EXT | FWD},
    {"aiter::fmoe_fp8_blockscale_g1u1", "MoE_fused", NULL, "MoE_fused",
     "moe_aiter_fused_blockscale", MODEL | EXT | FWD},
    {"aiter::fmoe_g1u1", "MoE_fused", NULL, "MoE_fused",
     "moe_aiter_fused_blockscale", MODEL | EXT | FWD},
    {"aiter::moe_cktile2stages_gemm1_ck", "MoE_unfused", NULL, "MoE_unfused",
     "moe_aiter_unfused_up", MODEL | EXT | FWD},
    {"aiter::moe_cktile2stages_gemm2_ck", "MoE_unfused", NULL, "MoE_unfused",
     "moe_aiter_unfused_down", MODEL | EXT | FWD},
    {"aiter::ck_moe_stage1", "MoE_unfused", NULL, "MoE_unfused",
     "moe_aiter_ck_stage1", MODEL | EXT | FWD},
    {"aiter::ck_moe_stage2", "MoE_unfused", NULL, "MoE_unfused",
     "moe_aiter_ck_stage2", MODEL | EXT | FWD},
    {"pseudo_op::moe_triton_unfused_up", "MoE_unfused", NULL, "MoE_unfused",
     "moe_triton_unfused_up", MODEL | EXT | FWD},
    {"pseudo_op::moe_triton_unfused_down", "MoE_unfused", NULL, "MoE_unfused",
     "moe_triton_unfused_down", MODEL | EXT | FWD},
    {"pseudo_op::moe_gptq_awq_up", "MoE_unfused", NULL, "MoE_unfused",
     "moe_gptq_awq_up", MODEL | EXT | FWD},
    {"pseudo_op::moe_gptq_awq_down", "MoE_unfused", NULL, "MoE_unfused",
     "moe_gptq_awq_down", MODEL | EXT | FWD},
    {"pseudo_op::moe_flydsl_stage1", "MoE_unfused", NULL, "MoE_unfused",
     "moe_flydsl_stage1", MODEL | EXT | FWD},
    {"pseudo_op::moe_flydsl_stage2", "MoE_unfused", NULL, "MoE_unfused",
     "moe_flydsl_stage2", MODEL | EXT | FWD},
    {"sglang_profiler::fused_moe_triton_kernels_invoke_fused_moe_kernel"
     "", "MoE_unfused", NULL, "MoE_unfused",
     "moe_triton_invoke_grouped_gemm", MODEL | EXT | FWD},
    {"aiter::biased_grouped_topk_hip", "MoE_aux", NULL, "MoE_aux",
     "BiasedGroupedTopk", MODEL | EXT | FWD},
    {"aiter::moe_sorting_fwd", "MoE_aux", NULL, "MoE_aux",
     "MoeSortScatterGather", MODEL | EXT | FWD},
    {"aiter::mxfp4_moe_sort_hip", "MoE_aux", NULL, "MoE_aux",
     "MoeSortScatterGather", MODEL | EXT | FWD},
    {"sglang_profiler::fused_moe_triton_kernels_fused_append_shared_experts"
     "", "MoE_aux", NULL, "MoE_aux",
     "sglang_fused_append_shared_experts", MODEL | EXT | FWD},
    {"aiter::topk_softplus", "MoE_aux", NULL, "MoE_aux",
     "topk_softplus", MODEL | EXT | FWD},
    {"aiter::fused_add_rmsnorm_pad_", "RMSNorm", NULL, "RMSNorm",
     "vllm_rocm_aiter_triton_add_rmsnorm_pad", MODEL | EXT | FWD},
    {"aiter::rms_norm", "RMSNorm", NULL, "RMSNorm",
     "aiter_rms_norm", MODEL | EXT | FWD},
    {"aiter::rmsnorm", "RMSNorm", NULL, "RMSNorm",
     "aiter_rmsnorm", MODEL | EXT | FWD},
    {"aiter::rmsnorm2d_fwd_ck", "RMSNorm", NULL, "RMSNorm",
     "aiter_rms_norm", MODEL | EXT | FWD},
    {"aiter::rmsnorm2d_fwd_with_add_ck", "RMSNorm", NULL, "RMSNorm",
     "aiter_rmsnorm2d_fwd_with_add_ck", MODEL | EXT | FWD},
    {"aiter::add_rmsnorm", "RMSNorm", NULL, "RMSNorm",
     "aiter_rmsnorm2d_fwd_with_add_ck", MODEL | EXT | FWD},
    {"aiter::rmsnorm2d_fwd_with_dynamicquant_ck", "RMSNorm", NULL, "RMSNorm",
     "aiter_rmsnorm2d_fwd_with_dynamicquant_ck", MODEL | EXT | FWD},
    {"vllm::rocm_aiter_rmsnorm_fp8_group_quant", "RMSNorm", NULL, "RMSNorm",
     "vllm_rocm_aiter_rmsnorm_fp8_group_quant", MODEL | EXT | FWD},
    {"vllm::rocm_aiter_rmsnorm_with_add_fp8_group_quant", "RMSNorm", NULL, "RMSNorm",
     "vllm_rocm_aiter_rmsnorm_with_add_fp8_group_quant", MODEL | EXT | FWD},
    {"vllm::rocm_aiter_triton_add_rmsnorm_pad", "RMSNorm", NULL, "RMSNorm",
     "vllm_rocm_aiter_triton_add_rmsnorm_pad", MODEL | EXT | FWD},
    {"sglang_profiler::fused_mxfp4_quant_fused_rms_mxfp4_quant", "RMSNorm", NULL, "RMSNorm",
     "fused_rms_mxfp4_quant", MODEL | EXT | FWD},
    {"aiter::_fuse_rmsnorm_fp4_quant", "RMSNorm", NULL, "RMSNorm",
     "fused_rms_mxfp4_quant", MODEL | EXT | FWD},
    {"aiter::rmsnorm_quant", "RMSNorm", NULL, "RMSNorm",
     "aiter_rmsnorm_quant", MODEL | EXT | FWD},
    {"aiter::mixed_sample_outer_exponential", "elementwise", NULL, "elementwise",
     "mixed_sample_outer_exponential", MODEL | EXT | FWD},
    {"aiter::fused_dynamic_mx_quant_moe_sort_hip", "GroupQuant", NULL, "GroupQuant",
     "fused_dynamic_mx_quant_moe_sort_hip", MODEL | EXT | FWD},
    {"sglang_profiler::fused_mxfp4_quant_fused_flatten_mxfp4_quant"
     "", "GroupQuant", NULL, "GroupQuant",
     "fused_flatten_mxfp4_quant", MODEL | EXT | FWD},
    {"sglang_profiler::quant_dynamic_mxfp4_quant", "GroupQuant", NULL, "GroupQuant",
     "sglang_quant_dynamic_mxfp4_quant", MODEL | EXT | FWD},
    {"aiter::fused_dynamic_mxfp4_quant_moe_sort_hip", "MoE_aux", NULL, "GroupQuant",
     "aiter_fused_dynamic_mxfp4_quant_moe_sort_hip", MODEL | EXT | FWD},
    {"aiter::dynamic_per_group_scaled_quant_fp4", "GroupQuant", NULL, "GroupQuant",
     "aiter_dynamic_per_group_scaled_quant_fp4", MODEL | EXT | FWD},
    {"aiter::fused_qk_rope_concat_and_cache_mla", "RoPE_fwd", NULL, "FusedRoPE",
     "fused_qk_rope_concat_and_cache_mla", MODEL | EXT | FWD},
    {"aiter::fused_qk_rope_cat_and_cache_mla", "RoPE_fwd", NULL, "FusedRoPE",
     "aiter_fused_qk_rope_cat_and_cache_mla", MODEL | EXT | FWD},
    {"aiter::fused_allreduce_rmsnorm", "CustomCollective", NULL, "CustomCollective",
     "aiter_fused_allreduce_rmsnorm", MODEL | EXT | FWD},
    {"aiter::fused_allreduce_rmsnorm_", "CustomCollective", NULL, "CustomCollective",
     "aiter_fused_allreduce_rmsnorm_", MODEL | EXT | FWD},
    {"_C_custom_ar::all_reduce", "CustomCollective", NULL, "CustomCollective",
     "custom_ar_all_reduce", MODEL | EXT | FWD},
    {"aiter::reduce_scatter", "CustomCollective", NULL, "CustomCollective",
     "aiter_reduce_scatter", MODEL | EXT | FWD},
    {"aiter::all_gather_reg", "CustomCollective", NULL, "CustomCollective",
     "aiter_all_gather_reg", MODEL | EXT | FWD},
    {"sgl_kernel::all_reduce_reg", "CustomCollective", NULL, "CustomCollective",
     "sgl_kernel_all_reduce_reg", MODEL | EXT | FWD},
    {"sgl_kernel::qr_all_reduce", "CustomCollective", NULL, "CustomCollective",
     "sgl_kernel_qr_all_reduce", MODEL | EXT | FWD},
    {"sglang::reg_all_gather_into_tensor", "CustomCollective", NULL, "CustomCollective",
     "sgl_kernel_reg_all_gather_into_tensor", MODEL | EXT | FWD},
    {"_C_custom_ar::qr_all_reduce", "CustomCollective", NULL, "CustomCollective",
     "custom_ar_qr_all_reduce", MODEL | EXT | FWD},
    {"aiter::mhc_post", "mHC", NULL, "mHC",
     "mhc_post", MODEL | EXT | FWD},
    {"aiter::mhc_pre_gemm_sqrsum", "mHC", NULL, "mHC",
     "mhc_pre_gemm_sqrsum", MODEL | EXT | FWD},
    {"aiter::mhc_pre_big_fuse_rmsnorm", "mHC", NULL, "mHC",
     "mhc_pre_big_fuse_rmsnorm", MODEL | EXT | FWD},
    {"aiter::mhc_fused_post_pre_gemm_sqrsum", "mHC", NULL, "mHC",
     "mhc_fused_post_pre_gemm_sqrsum", MODEL | EXT | FWD},
    {"aiter::_groupnorm_run", "NORM_fwd", "NORM_bwd", "Normalization",
     "GroupNorm", MODEL | FWD | IMPL},
    {"aten::batch_norm", "NORM_fwd", "NORM_bwd", "Normalization",
     "BatchNorm", MODEL | FWD | IMPL},
    {"aten::native_batch_norm", "NORM_fwd", "NORM_bwd", "Normalization",
     "BatchNorm", MODEL | FWD | IMPL},
    {"aten::miopen_batch_norm", "NORM_fwd", "NORM_bwd", "Normalization",
     "BatchNorm", MODEL | FWD | IMPL},
    {"aten::cudnn_batch_norm", "NORM_fwd", "NORM_bwd", "Normalization",
     "BatchNorm", MODEL | FWD | IMPL},
    {"aten::layer_norm", "NORM_fwd", "NORM_bwd", "Normalization",
     "LayerNorm", MODEL | FWD | IMPL},
    {"aten::native_layer_norm", "NORM_fwd", "NORM_bwd", "Normalization",
     "LayerNorm", MODEL | FWD | IMPL},
    {"aten::miopen_layer_norm", "NORM_fwd", "NORM_bwd", "Normalization",
     "LayerNorm", MODEL | FWD | IMPL},
    {"aten::cudnn_layer_norm", "NORM_fwd", "NORM_bwd", "Normalization",
     "LayerNorm", MODEL | FWD | IMPL},
    {"aten::group_norm", "NORM_fwd", "NORM_bwd", "Normalization",
     "GroupNorm", MODEL | FWD | IMPL},
    {"aten::native_group_norm", "NORM_fwd", "NORM_bwd", "Normalization",
     "GroupNorm", MODEL | FWD | IMPL},
    {"aten::miopen_group_norm", "NORM_fwd", "NORM_bwd", "Normalization",
     "GroupNorm", MODEL | FWD | IMPL},
    {"aten::cudnn_group_norm", "NORM_fwd", "NORM_bwd", "Normalization",
     "GroupNorm", MODEL | FWD | IMPL},
    {"aten::instance_norm", "NORM_fwd", "NORM_bwd", "Normalization",
     "InstanceNorm", MODEL | FWD | IMPL},
    {"aten::native_instance_norm", "NORM_fwd", "NORM_bwd", "Normalization",
     "InstanceNorm", MODEL | FWD | IMPL},
    {"aten::miopen_instance_norm", "NORM_fwd", "NORM_bwd", "Normalization",
     "InstanceNorm", MODEL | FWD | IMPL},
    {"aten::cudnn_instance_norm", "NORM_fwd", "NORM_bwd", "Normalization",
     "InstanceNorm", MODEL | FWD | IMPL},
    {"aten::_fused_rms_norm", "NORM_fwd", "NORM_bwd", "Normalization",
     "RMSNorm", MODEL | FWD | IMPL},
    {"aten::batch_norm_backward", "NORM_bwd", "NORM_bwd", "Normalization",
     "BatchNormBwd", MODEL | FWD | BWD | BWD_ONLY | IMPL},
    {"aten::native_batch_norm_backward", "NORM_bwd", "NORM_bwd", "Normalization",
     "BatchNormBwd", MODEL | FWD | BWD | BWD_ONLY | IMPL},
    {"aten::miopen_batch_norm_backward", "NORM_bwd", "NORM_bwd", "Normalization",
     "BatchNormBwd", MODEL | FWD | BWD | BWD_ONLY | IMPL},
    {"aten::cudnn_batch_norm_backward", "NORM_bwd", "NORM_bwd", "Normalization",
     "BatchNormBwd", MODEL | FWD | BWD | BWD_ONLY | IMPL},
    {"aten::layer_norm_backward", "NORM_bwd", "NORM_bwd", "Normalization",
     "LayerNormBwd", MODEL | FWD | BWD | BWD_ONLY | IMPL},
    {"aten::native_layer_norm_backward", "NORM_bwd", "NORM_bwd", "Normalization",
     "LayerNormBwd", MODEL | FWD | BWD | BWD_ONLY | IMPL},
    {"aten::miopen_layer_norm_backward", "NORM_bwd", "NORM_bwd", "Normalization",
     "LayerNormBwd", MODEL | FWD | BWD | BWD_ONLY | IMPL},
    {"aten::cudnn_layer_norm_backward", "NORM_bwd", "NORM_bwd", "Normalization",
     "LayerNormBwd", MODEL | FWD | BWD | BWD_ONLY | IMPL},
    {"aten::group_norm_backward", "NORM_bwd", "NORM_bwd", "Normalization",
     "GroupNormBwd", MODEL | FWD | BWD | BWD_ONLY | IMPL},
    {"aten::native_group_norm_backward", "NORM_bwd", "NORM_bwd", "Normalization",
     "GroupNormBwd", MODEL | FWD | BWD | BWD_ONLY | IMPL},
    {"aten::miopen_group_norm_backward", "NORM_bwd", "NORM_bwd", "Normalization",
     "GroupNormBwd", MODEL | FWD | BWD | BWD_ONLY | IMPL},
    {"aten::cudnn_group_norm_backward", "NORM_bwd", "NORM_bwd", "Normalization",
     "GroupNormBwd", MODEL | FWD | BWD | BWD_ONLY | IMPL},
    {"aten::instance_norm_backward", "NORM_bwd", "NORM_bwd", "Normalization",
     "InstanceNormBwd", MODEL | IMPL},
    {"aten::native_instance_norm_backward", "NORM_bwd", "NORM_bwd", "Normalization",
     "InstanceNormBwd", MODEL | IMPL},
    {"aten::miopen_instance_norm_backward", "NORM_bwd", "NORM_bwd", "Normalization",
     "InstanceNormBwd", MODEL | IMPL},
    {"aten::cudnn_instance_norm_backward", "NORM_bwd", "NORM_bwd", "Normalization",
     "InstanceNormBwd", MODEL | IMPL},
    {"aten::rms_norm_backward", "NORM_bwd", "NORM_bwd", "Normalization",
     "RMSNormBwd", MODEL | FWD | BWD | BWD_ONLY | IMPL},
    {"aten::native_rms_norm_backward", "NORM_bwd", "NORM_bwd", "Normalization",
     "RMSNormBwd", MODEL | FWD | BWD | BWD_ONLY | IMPL},
    {"aten::miopen_rms_norm_backward", "NORM_bwd", "NORM_bwd", "Normalization",
     "RMSNormBwd", MODEL | FWD | BWD | BWD_ONLY | IMPL},
    {"aten::cudnn_rms_norm_backward", "NORM_bwd", "NORM_bwd", "Normalization",
     "RMSNormBwd", MODEL | FWD | BWD | BWD_ONLY | IMPL},
    {"aten::_fused_rms_norm_backward", "NORM_bwd", "NORM_bwd", "Normalization",
     "RMSNormBwd", MODEL | FWD | BWD | BWD_ONLY | IMPL},
    {"primus::fused_ln_modulate", "NORM_fwd", "NORM_bwd", "Normalization",
     "FusedLnModulate", MODEL | FWD | IMPL},
    {"primus::fused_ln_modulate_backward", "NORM_bwd", "NORM_bwd", "Normalization",
     "FusedLnModulateBackward", MODEL | FWD | BWD_ONLY | IMPL},
    {"aten::sum", "reduce", NULL, "Reduce",
     "aten_reduce", MODEL | FWD | BWD | IMPL},
    {"aten::mean", "reduce", NULL, "Reduce",
     "aten_reduce", MODEL | FWD | BWD | IMPL},
    {"aten::max", "reduce", NULL, "Reduce",
     "aten_reduce", MODEL | FWD | BWD | IMPL},
    {"aten::min", "reduce", NULL, "Reduce",
     "aten_reduce", MODEL | FWD | BWD | IMPL},
    {"aten::norm", "reduce", NULL, "Reduce",
     "aten_reduce", MODEL | FWD | BWD | IMPL},
    {"aten::linalg_norm", "reduce", NULL, "Reduce",
     "aten_reduce", MODEL | FWD | BWD | IMPL},
    {"aten::std", "reduce", NULL, "Reduce",
     "aten_reduce", MODEL | FWD | BWD | IMPL},
    {"aten::var", "reduce", NULL, "Reduce",
     "aten_reduce", MODEL | FWD | BWD | IMPL},
    {"aten::logsumexp", "reduce", NULL, "Reduce",
     "aten_reduce", MODEL | FWD | BWD | IMPL},
    {"aten::cumsum", "reduce", NULL, "Reduce",
     "aten_reduce", MODEL | FWD | BWD | IMPL},
    {"aten::cumprod", "reduce", NULL, "Reduce",
     "aten_reduce", MODEL | FWD | BWD | IMPL},
    {"aten::amin", "reduce", NULL, "Reduce",
     "aten_reduce", MODEL | FWD | BWD | IMPL},
    {"aten::amax", "reduce", NULL, "Reduce",
     "aten_reduce", MODEL | FWD | BWD | IMPL},
    {"aten::miopen_convolution", "CONV_fwd", NULL, NULL, NULL, 0},
    {"aten::cudnn_convolution", "CONV_fwd", NULL, NULL, NULL, 0},
    {"FlashAttnFuncBackward", "SDPA_bwd", NULL, NULL, NULL, 0},
    {"FusedAttnFuncBackward", "SDPA_bwd", NULL, NULL, NULL, 0},
    {"aten::_scaled_dot_product_cudnn_attention_backward", "SDPA_bwd", NULL, NULL, NULL, 0},
    {"aten::_scaled_dot_product_efficient_attention_backward", "SDPA_bwd", NULL, NULL, NULL, 0},
    {"aten::_scaled_dot_product_flash_attention_backward", "SDPA_bwd", NULL, NULL, NULL, 0},
    {"aten::_efficient_attention_forward", "SDPA_fwd", NULL, NULL, NULL, 0},
    {"aten::_efficient_attention_backward", "SDPA_bwd", NULL, NULL, NULL, 0},
    {"MambaSplitConv1dScanCombinedFnBackward", "SSM_bwd", NULL, NULL, NULL, 0},
    {"DaoAILab::_causal_conv1d_bwd_cpp", "SSM_bwd", NULL, NULL, NULL, 0},
    {"TokenPermuteMaskMap", "MoE_comm_fwd", NULL, NULL, NULL, 0},
    {"_OperationFuserAutogradFunction", "MoE_comm_fwd", NULL, NULL, NULL, 0},
    {"MoEDispatchBackward", "MoE_comm_bwd", NULL, NULL, NULL, 0},
    {"MoECombineBackward", "MoE_comm_bwd", NULL, NULL, NULL, 0},
    {"TokenPermuteMaskMapBackward", "MoE_comm_bwd", NULL, NULL, NULL, 0},
    {"_OperationFuserAutogradFunctionBackward", "MoE_comm_bwd", NULL, NULL, NULL, 0},
    {"FusedRoPEFuncBackward", "RoPE_bwd", NULL, NULL, NULL, 0},
    {"CrossEntropyFunctionBackward", "CrossEntropy_bwd", NULL, NULL, NULL, 0},
    {"aiter::moe_sorting_opus_fwd", "MoE_aux", NULL, NULL, NULL, 0},
    {"aiter::moe_align_block_size", "MoE_aux", NULL, NULL, NULL, 0},
    {"_moe_C::moe_align_block_size", "MoE_aux", NULL, NULL, NULL, 0},
    {"aiter::fused_moe_->_fused_dynamic_mxfp4_quant_moe_sort_kernel (Synthetic Op)",
     "MoE_aux", NULL, NULL, NULL, 0},
    {"aiter::moe_sum", "MoE_aux", NULL, NULL, NULL, 0},
    {"aiter::topk_softmax", "MoE_aux", NULL, NULL, NULL, 0},
    {"aiter::topk_softmax_asm", "MoE_aux", NULL, NULL, NULL, 0},
    {"aiter::topk_sigmoid", "MoE_aux", NULL, NULL, NULL, 0},
    {"aiter::grouped_topk", "MoE_aux", NULL, NULL, NULL, 0},
    {"aiter::moe_fused_gate", "MoE_aux", NULL, NULL, NULL, 0},
    {"_C_cache_ops::reshape_and_cache_flash", "InferenceAttention", NULL, NULL, NULL, 0},
    {"_C_cache_ops::concat_and_cache_mla", "InferenceAttention", NULL, NULL, NULL, 0},
    {"aiter::unified_attention_with_output_base->_fused_qk_rope_reshape_and_cache_kernel (S"
     "ynthetic Op)",
     "FusedRoPE", NULL, NULL, NULL, 0},
    {"hipModuleLaunchKernel->kv_indices_generate_kernel (Synthetic Op)",
     "InferenceAttention", NULL, NULL, NULL, 0},
    {"aiter::get_mla_metadata_v1", "InferenceAttention", NULL, NULL, NULL, 0},
    {"aiter::indexer_score_topk", "InferenceAttention", NULL, NULL, NULL, 0},
    {"aiter::v4_attention_with_output->_inverse_rope_gptj_kernel (Synthetic Op)",
     "FusedRoPE", NULL, NULL, NULL, 0},
    {"aiter::v4_attention_with_output->_update_compressor_states_kernel (Synthetic Op)",
     "InferenceAttention", NULL, NULL, NULL, 0},
    {"aiter::v4_attention_with_output->_swa_write_kernel (Synthetic Op)",
     "InferenceAttention", NULL, NULL, NULL, 0},
    {"aiter::v4_attention_with_output->qk_norm_rope_H32_D512_RD64_flydsl (Synthetic Op)",
     "FusedRoPE", NULL, NULL, NULL, 0},
    {"aiter::v4_attention_with_output->qk_norm_rope_H64_D512_RD64_flydsl (Synthetic Op)",
     "FusedRoPE", NULL, NULL, NULL, 0},
    {"aiter::v4_attention_with_output->hca_norm_rope_scatter_D512_RD64_R128_KB1_rmsbf16_fly"
     "dsl (Synthetic Op)",
     "FusedRoPE", NULL, NULL, NULL, 0},
    {"aiter::v4_attention_with_output->fused_compress_attn_D512_RD64_R4_OVL_SS8_KB32_rmsbf1"
     "6_pf_flydsl (Synthetic Op)",
     "InferenceAttention", NULL, NULL, NULL, 0},
    {"aiter::v4_attention_with_output->fused_compress_attn_D128_RD64_R4_OVL_SS8_KB32_Q_ue8m"
     "0_psh_rmsbf16_pf_flydsl (Synthetic Op)",
     "InferenceAttention", NULL, NULL, NULL, 0},
    {"aiter::v4_attention_with_output->hca_compress_forward_D512_R128_NW4_SL256_S128_flydsl"
     " (Synthetic Op)",
     "InferenceAttention", NULL, NULL, NULL, 0},
    {"aiter::v4_attention_with_output->hca_compress_forward_D512_R128_NW8_SL128_S128_flydsl"
     " (Synthetic Op)",
     "InferenceAttention", NULL, NULL, NULL, 0},
    {"aiter::allgather_lastdim<std::bfloat16_t, 2>(aiter::RankData*, aiter::RankSignals, ai"
     "ter::Signal*, std::bfloat16_t*, int, int, int) (Synthetic Op)",
     "CustomCollective", NULL, NULL, NULL, 0},
    {"aiter::allgather_lastdim<std::bfloat16_t, 4>(aiter::RankData*, aiter::RankSignals, ai"
     "ter::Signal*, std::bfloat16_t*, int, int, int) (Synthetic Op)",
     "CustomCollective", NULL, NULL, NULL, 0},

};

/* The family function of each perf-model entry (same order as registry[]). */
static const pm_fn registry_fn[] = {
    pm_gemm, /* aten::mm */
    pm_gemm, /* aten::addmm */
    pm_gemm, /* aten::_scaled_mm */
    pm_gemm, /* trtllm::cublas_scaled_mm */
    pm_gemm, /* bitsandbytes::int8_linear_matmul */
    pm_gemm, /* aten::bmm */
    pm_gemm, /* tex_ts::te_gemm_ts */
    pm_gemm, /* aten::baddbmm */
    pm_gemm, /* vllm::gemm_with_dynamic_quant */
    pm_gemm, /* _Linear_yfwd_mm */
    pm_gemm, /* _LinearBackward_xgrad_mm */
    pm_gemm, /* _LinearBackward_wgrad_mm */
    pm_gemm, /* _LayerNormLinear_yfwd_mm */
    pm_gemm, /* _LayerNormLinearBackward_xgrad_mm */
    pm_gemm, /* _LayerNormLinearBackward_wgrad_mm */
    pm_gemm, /* primus_turbo_cpp_extension::hipblaslt_gemm_fp8 */
    pm_gemm, /* primus_turbo::hipblaslt_gemm_fp8 */
    pm_gemm, /* primus_turbo_cpp_extension::hipblaslt_gemm_fp4 */
    pm_gemm, /* primus_turbo::hipblaslt_gemm_fp4 */
    pm_gemm, /* aiter::gemm_a4w4 */
    pm_gemm, /* aiter::_gemm_a4w4_asm */
    NULL, /* aiter::batched_gemm_a16wfp4_ */
    NULL, /* sglang_profiler::fp8_utils_gemm_a8w8_blockscale */
    NULL, /* sglang_profiler::gemm_a8w8_blockscale_gemm_a8w8_blockscale */
    NULL, /* vllm::rocm_aiter_triton_gemm_a8w8_blockscale */
    NULL, /* aiter::gemm_a8w8_blockscale_ck */
    NULL, /* aiter::gemm_a8w8_blockscale_cktile */
    NULL, /* aiter::gemm_a8w8_blockscale_bpreshuffle_ck */
    NULL, /* aiter::gemm_a8w8_blockscale_bpreshuffle_cktile */
    NULL, /* aiter::flatmm_a8w8_blockscale_asm */
    NULL, /* aiter::gfx950_a8w8_blockscale_asm */
    NULL, /* aiter::gemm_a8w8_ck */
    NULL, /* aiter::gemm_a8w8_bpreshuffle_ck */
    NULL, /* aiter::gemm_a8w8_bpreshuffle */
    NULL, /* vllm::_rocm_aiter_preshuffled_per_token_w8a8_gemm */
    NULL, /* vllm::rocm_unquantized_gemm */
    NULL, /* aiter::gemm_a16w16 */
    NULL, /* aiter::gemm_a16w16_atomic_ */
    NULL, /* aiter::_gemm_a16w16_asm */
    NULL, /* sglang_profiler::gemm_kernels_flydsl_hgemm */
    NULL, /* aiter::gemm_afp4wfp4_ */
    NULL,
    NULL, /* aiter::_gemm_a8w8_blockscale_bpreshuffle_asm */
    pm_sdpa, /* FlashAttnFunc */
    pm_sdpa, /* flash_attn::_flash_attn_forward */
    pm_sdpa, /* flash_attn::_flash_attn_backward */
    pm_sdpa, /* flash_attn::_flash_attn_varlen_forward */
    pm_sdpa, /* flash_attn::_flash_attn_varlen_backward */
    pm_sdpa, /* aten::_scaled_dot_product_cudnn_attention */
    pm_sdpa, /* aten::_scaled_dot_product_efficient_attention */
    pm_sdpa, /* aten::_scaled_dot_product_flash_attention */
    pm_sdpa, /* aiter::_flash_attn_forward */
    pm_sdpa, /* aiter::_flash_attn_backward */
    pm_sdpa, /* aiter::wrapper_fmha_v3_fwd */
    pm_sdpa, /* aiter::wrapper_fmha_v3_bwd */
    pm_sdpa, /* aiter::mha_fwd */
    pm_sdpa, /* aiter::fmha_v3_fwd */
    pm_sdpa, /* aiter::mha_bwd */
    pm_sdpa, /* flash_attn_3::fwd */
    pm_sdpa, /* EvoformerAttention */
    pm_conv, /* aten::convolution */
    pm_conv, /* aten::convolution_backward */
    pm_conv, /* ConvBias_ */
    pm_conv, /* ConvBiasReLU_ */
    NULL, /* ConvBias_Backward */
    NULL, /* ConvBiasReLU_Backward */
    NULL, /* vllm::unified_attention_with_output */
    NULL, /* aiter::mha_varlen_fwd */
    NULL, /* aiter::fmha_v3_varlen_fwd */
    NULL, /* aiter::mha_batch_prefill */
    NULL, /* sglang_profiler::attention_paged_attention_ragged */
    NULL, /* pseudo_mla_decode_fwd */
    NULL, /* pseudo_mla_prefill_fwd */
    NULL, /* aiter::pa_decode_gluon */
    NULL, /* pseudo_v4_paged_decode_swa */
    NULL, /* pseudo_v4_paged_decode_csa */
    NULL, /* pseudo_v4_paged_decode_hca */
    NULL, /* aiter::pa_sparse_prefill_opus_fwd */
    NULL, /* sglang_profiler::tilelang_kernel_tilelang_sparse_fwd */
    NULL, /* vllm::gdn_attention_core */
    NULL, /* aiter::linear_attention_with_output_base */
    NULL, /* sglang::store_cache */
    pm_binary, /* LigerSiLUMulFunction */
    NULL, /* aiter::dynamic_per_token_scaled_quant */
    NULL, /* aiter::dynamic_per_group_scaled_quant */
    NULL, /* vllm::triton_per_token_group_quant_fp8 */
    NULL, /* aiter::dynamic_per_tensor_quant */
    pm_binary, /* aten::div */
    pm_binary, /* aten::div_ */
    pm_binary, /* aten::mul */
    pm_binary, /* aten::mul_ */
    pm_binary, /* aten::add */
    pm_binary, /* aten::add_ */
    pm_binary, /* aten::sigmoid_backward */
    pm_binary, /* aten::threshold_backward */
    pm_grouped_gemm, /* primus_turbo::grouped_gemm */
    pm_grouped_gemm, /* primus_turbo::grouped_gemm_impl */
    pm_grouped_gemm, /* primus_turbo_cpp_extension::grouped_gemm */
    pm_grouped_gemm, /* primus_turbo::grouped_gemm_variable_k */
    pm_grouped_gemm, /* primus_turbo::grouped_gemm_variable_k_impl */
    pm_grouped_gemm, /* primus_turbo_cpp_extension::grouped_gemm_variable_k */
    pm_grouped_gemm, /* primus_turbo_cpp_extension::ck_grouped_gemm */
    pm_grouped_gemm, /* primus_turbo_cpp_extension::ck_grouped_gemm_variable_k */
    pm_moe_comm, /* MoEDispatch */
    pm_moe_comm, /* MoECombine */
    pm_causal_conv1d, /* DaoAILab::_causal_conv1d_fwd_cpp */
    pm_mamba_ssd, /* MambaSplitConv1dScanCombinedFn */
    pm_fused_rope, /* FusedRoPEFunc */
    NULL, /* aiter::rope_cached_positions_2c_fwd_impl */
    NULL, /* sgl_kernel::rotary_embedding */
    pm_cross_entropy, /* CrossEntropyFunction */
    pm_unary, /* primus_turbo_cpp_extension::quantize_fp8_tensorwise */
    pm_unary, /* primus_turbo::quantize_fp8_tensorwise */
    pm_unary, /* primus_turbo_cpp_extension::quantize_mxfp4_dual */
    pm_unary, /* primus_turbo::quantize_mxfp4_dual */
    pm_unary, /* primus::quantize_mxfp4_dual */
    NULL, /* aiter::silu_and_mul */
    NULL, /* _C::silu_and_mul */
    NULL, /* sgl_kernel::silu_and_mul */
    NULL, /* aiter::gelu_and_mul */
    NULL, /* aiter::gelu_tanh_and_mul */
    pm_unary, /* aten::copy */
    pm_unary, /* aten::copy_ */
    pm_unary, /* aten::clamp_min */
    pm_unary, /* aten::clamp_min_ */
    pm_unary, /* aten::clamp_max */
    pm_unary, /* aten::clamp_max_ */
    pm_unary, /* aten::sigmoid */
    pm_unary, /* aten::rsqrt */
    pm_unary, /* aten::silu */
    pm_unary, /* aten::neg */
    pm_unary, /* aten::pow */
    pm_unary, /* aten::replication_pad1d */
    pm_unary, /* aten::replication_pad2d */
    pm_unary, /* aten::replication_pad3d */
    pm_unary, /* aten::upsample_nearest1d */
    pm_unary, /* aten::upsample_nearest2d */
    pm_unary, /* aten::upsample_nearest3d */
    NULL, /* pseudo_op::moe_aiter_fused_1stage */
    NULL, /* aiter::fmoe_fp8_blockscale_g1u1 */
    NULL, /* aiter::fmoe_g1u1 */
    NULL, /* aiter::moe_cktile2stages_gemm1_ck */
    NULL, /* aiter::moe_cktile2stages_gemm2_ck */
    NULL, /* aiter::ck_moe_stage1 */
    NULL, /* aiter::ck_moe_stage2 */
    NULL, /* pseudo_op::moe_triton_unfused_up */
    NULL, /* pseudo_op::moe_triton_unfused_down */
    NULL, /* pseudo_op::moe_gptq_awq_up */
    NULL, /* pseudo_op::moe_gptq_awq_down */
    NULL, /* pseudo_op::moe_flydsl_stage1 */
    NULL, /* pseudo_op::moe_flydsl_stage2 */
    NULL, /* sglang_profiler::fused_moe_triton_kernels_invoke_fused_moe_kernel */
    NULL, /* aiter::biased_grouped_topk_hip */
    NULL, /* aiter::moe_sorting_fwd */
    NULL, /* aiter::mxfp4_moe_sort_hip */
    NULL, /* sglang_profiler::fused_moe_triton_kernels_fused_append_shared_experts */
    NULL, /* aiter::topk_softplus */
    NULL, /* aiter::fused_add_rmsnorm_pad_ */
    NULL, /* aiter::rms_norm */
    NULL, /* aiter::rmsnorm */
    NULL, /* aiter::rmsnorm2d_fwd_ck */
    NULL, /* aiter::rmsnorm2d_fwd_with_add_ck */
    NULL, /* aiter::add_rmsnorm */
    NULL, /* aiter::rmsnorm2d_fwd_with_dynamicquant_ck */
    NULL, /* vllm::rocm_aiter_rmsnorm_fp8_group_quant */
    NULL, /* vllm::rocm_aiter_rmsnorm_with_add_fp8_group_quant */
    NULL, /* vllm::rocm_aiter_triton_add_rmsnorm_pad */
    NULL, /* sglang_profiler::fused_mxfp4_quant_fused_rms_mxfp4_quant */
    NULL, /* aiter::_fuse_rmsnorm_fp4_quant */
    NULL, /* aiter::rmsnorm_quant */
    NULL, /* aiter::mixed_sample_outer_exponential */
    NULL, /* aiter::fused_dynamic_mx_quant_moe_sort_hip */
    NULL, /* sglang_profiler::fused_mxfp4_quant_fused_flatten_mxfp4_quant */
    NULL, /* sglang_profiler::quant_dynamic_mxfp4_quant */
    NULL, /* aiter::fused_dynamic_mxfp4_quant_moe_sort_hip */
    NULL, /* aiter::dynamic_per_group_scaled_quant_fp4 */
    NULL, /* aiter::fused_qk_rope_concat_and_cache_mla */
    NULL, /* aiter::fused_qk_rope_cat_and_cache_mla */
    NULL, /* aiter::fused_allreduce_rmsnorm */
    NULL, /* aiter::fused_allreduce_rmsnorm_ */
    NULL, /* _C_custom_ar::all_reduce */
    NULL, /* aiter::reduce_scatter */
    NULL, /* aiter::all_gather_reg */
    NULL, /* sgl_kernel::all_reduce_reg */
    NULL, /* sgl_kernel::qr_all_reduce */
    NULL, /* sglang::reg_all_gather_into_tensor */
    NULL, /* _C_custom_ar::qr_all_reduce */
    NULL, /* aiter::mhc_post */
    NULL, /* aiter::mhc_pre_gemm_sqrsum */
    NULL, /* aiter::mhc_pre_big_fuse_rmsnorm */
    NULL, /* aiter::mhc_fused_post_pre_gemm_sqrsum */
    pm_norm, /* aiter::_groupnorm_run */
    pm_norm, /* aten::batch_norm */
    pm_norm, /* aten::native_batch_norm */
    pm_norm, /* aten::miopen_batch_norm */
    pm_norm, /* aten::cudnn_batch_norm */
    pm_norm, /* aten::layer_norm */
    pm_norm, /* aten::native_layer_norm */
    pm_norm, /* aten::miopen_layer_norm */
    pm_norm, /* aten::cudnn_layer_norm */
    pm_norm, /* aten::group_norm */
    pm_norm, /* aten::native_group_norm */
    pm_norm, /* aten::miopen_group_norm */
    pm_norm, /* aten::cudnn_group_norm */
    pm_norm, /* aten::instance_norm */
    pm_norm, /* aten::native_instance_norm */
    pm_norm, /* aten::miopen_instance_norm */
    pm_norm, /* aten::cudnn_instance_norm */
    pm_norm, /* aten::_fused_rms_norm */
    pm_norm, /* aten::batch_norm_backward */
    pm_norm, /* aten::native_batch_norm_backward */
    pm_norm, /* aten::miopen_batch_norm_backward */
    pm_norm, /* aten::cudnn_batch_norm_backward */
    pm_norm, /* aten::layer_norm_backward */
    pm_norm, /* aten::native_layer_norm_backward */
    pm_norm, /* aten::miopen_layer_norm_backward */
    pm_norm, /* aten::cudnn_layer_norm_backward */
    pm_norm, /* aten::group_norm_backward */
    pm_norm, /* aten::native_group_norm_backward */
    pm_norm, /* aten::miopen_group_norm_backward */
    pm_norm, /* aten::cudnn_group_norm_backward */
    pm_norm, /* aten::instance_norm_backward */
    pm_norm, /* aten::native_instance_norm_backward */
    pm_norm, /* aten::miopen_instance_norm_backward */
    pm_norm, /* aten::cudnn_instance_norm_backward */
    pm_norm, /* aten::rms_norm_backward */
    pm_norm, /* aten::native_rms_norm_backward */
    pm_norm, /* aten::miopen_rms_norm_backward */
    pm_norm, /* aten::cudnn_rms_norm_backward */
    pm_norm, /* aten::_fused_rms_norm_backward */
    pm_norm, /* primus::fused_ln_modulate */
    pm_norm, /* primus::fused_ln_modulate_backward */
    pm_reduce, /* aten::sum */
    pm_reduce, /* aten::mean */
    pm_reduce, /* aten::max */
    pm_reduce, /* aten::min */
    pm_reduce, /* aten::norm */
    pm_reduce, /* aten::linalg_norm */
    pm_reduce, /* aten::std */
    pm_reduce, /* aten::var */
    pm_reduce, /* aten::logsumexp */
    pm_reduce, /* aten::cumsum */
    pm_reduce, /* aten::cumprod */
    pm_reduce, /* aten::amin */
    pm_reduce, /* aten::amax */
};

#undef MODEL
#undef FWD
#undef BWD
#undef IMPL
#undef EXT
#undef BWD_ONLY

#define NREG (sizeof registry / sizeof *registry)
#define NFN (sizeof registry_fn / sizeof *registry_fn)

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

int tsql_perf_eval_json(tsql_perf *p, const char *name, const cJSON *args,
                        const char *const *kernel_names, size_t nkernels, int bwd)
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
                .nkernels = kernel_names ? nkernels : 0, .bwd = bwd};
    if (args && !cJSON_IsObject(args)) args = c.args = NULL;
    c.dims = arg_array(args, "Input Dims");
    c.types = arg_array(args, "Input type");
    c.strides = arg_array(args, "Input Strides");
    c.conc = arg_array(args, "Concrete Inputs");

    pm_fn fn = NULL;
    const tsql_op_info *op = p->op;
    if (op && (op->flags & TSQL_OPF_MODEL)) {
        c.cls = op->model_class;
        size_t idx = (size_t)(op - registry);
        if (!(op->flags & TSQL_OPF_IMPL) || idx >= NFN || !registry_fn[idx]) {
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
        fn = registry_fn[idx];
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

int tsql_perf_eval(tsql_perf *p, const char *name, const char *args_json,
                   const char *const *kernel_names, size_t nkernels, int bwd)
{
    cJSON *args = NULL;
    if (args_json && *args_json) {
        args = cJSON_Parse(args_json);
        if (!args) {
            clear_params(p);
            p->op = tsql_op_lookup(name);
            p->category = tsql_op_category(name, NULL);
            p->sheet = p->op ? p->op->sheet : NULL;
            p->flops = 0;
            p->bytes = NAN;
            p->has_bytes = 0;
            p->compute_spec[0] = 0;
            p->status = TSQL_PM_ERROR;
            snprintf(p->error, sizeof p->error, "%s: args are not valid JSON", name ? name : "");
            return p->status;
        }
    }
    int st = tsql_perf_eval_json(p, name, args, kernel_names, nkernels, bwd);
    cJSON_Delete(args);
    return st;
}

/* ---- derived metrics and roofline ----------------------------------------------------------- */

void tsql_perf_derive(double flops, double bytes, double kernel_us, tsql_perf_metrics *m)
{
    m->gflops = flops / 1e9;
    m->tflops_s = kernel_us == 0 ? NAN : (m->gflops / 1e3) / (kernel_us / 1e6);
    m->data_moved_mb = isnan(bytes) ? NAN : bytes / 1048576.0;
    m->flops_per_byte = (isnan(bytes) || bytes == 0) ? NAN : flops / bytes;
    m->tb_s = (kernel_us == 0 || isnan(bytes)) ? NAN : (bytes / 1e12) / (kernel_us / 1e6);
}

int tsql_roofline_eval(double flops, double bytes, double kernel_us, double peak_tflops,
                       double mem_gbps, tsql_roofline *r)
{
    if (isnan(bytes) || !(flops / 1e9 > 0) || !(peak_tflops > 0) || !(mem_gbps > 0)) return -1;
    r->compute_us = flops / (peak_tflops * 1e12) * 1e6;
    r->memory_us = bytes / (mem_gbps * 1e9) * 1e6;
    r->time_us = r->compute_us > r->memory_us ? r->compute_us : r->memory_us;
    r->bound = r->compute_us >= r->memory_us ? "COMPUTE_BOUND" : "MEMORY_BOUND";
    r->pct = kernel_us == 0 ? NAN : r->time_us / kernel_us * 100;
    return 0;
}
