/*
 * test_inference_models.c — the extension perf models (inference attention, MoE,
 * RMSNorm, RoPE, extension GEMMs, quantisation, activations, sampler, custom
 * collectives, mHC) against the worked numbers of their formulas: the GFLOPS_first,
 * Data Moved (MB)_first and FLOPS/Byte_first cells of TraceLens's inference reference
 * (args copied from the sglang / vLLM capture traces) and hand-computed F / Bytes for
 * the models those traces do not exercise; plus the iteration-annotation parser and
 * the failure modes (no annotation, no query tokens, unknown dtype).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "perfmodel/iteration.h"
#include "perfmodel/perfmodel.h"
#include "text/pyrepr.h"

static char *pyf(double x)
{
    static char buf[8][TSQL_PY_FLOAT_BUFSZ];
    static int k;
    char *b = buf[k++ % 8];
    tsql_py_float(x, b);
    return b;
}

static tsql_perf P;

static tsql_perf *ev(const char *name, const char *args, const char *ann, const char *kernel)
{
    const char *ks[1] = {kernel};
    tsql_perf_eval_ann(&P, name, args, ann, kernel ? ks : NULL, kernel ? 1 : 0, 0);
    return &P;
}

static const char *param(const char *name)
{
    const tsql_pm_param *q = tsql_perf_param(&P, name);
    return q ? (q->str ? q->str : "<None>") : "<absent>";
}

static char *dict(void)
{
    static tsql_buf b;
    b.n = 0;
    if (tsql_perf_params_dict(&P, &b)) return NULL;
    return b.p;
}

/* the three metric cells of a perf sheet, as TraceLens prints them */
#define CHECK_CELLS(p, gf, mb, fpb)                                                      \
    do {                                                                                 \
        CHECK_EQ((p)->status, TSQL_PM_OK);                                               \
        CHECK_STR(pyf((p)->flops / 1e9), gf);                                            \
        CHECK_STR(pyf((p)->bytes / 1048576.0), mb);                                      \
        CHECK_STR(pyf(((p)->flops / 1e9) * 1e9 / (p)->bytes), fpb);                      \
    } while (0)

/* F and Bytes as Python prints them */
#define CHECK_FB(p, f, b)                                                                \
    do {                                                                                 \
        CHECK_EQ((p)->status, TSQL_PM_OK);                                               \
        CHECK_STR(pyf((p)->flops), f);                                                   \
        CHECK_STR(pyf((p)->bytes), b);                                                   \
    } while (0)

static const char VLLM_ANN[] = "execute_32_context_0(sq0sk0sqsq0sqsk0)_generation_32(sq32sk55086sqsq32sqsk55086)";
static const char SGL_ANN[] = "execute_32_context_0(sq0sk0sqsq0sqsk0)_generation_32(sq32sk32785sqsq32sqsk32785)";

static void test_iteration(void)
{
    tsql_iter s;
    tsql_iter_parse(VLLM_ANN, &s);
    CHECK_EQ(s.format, TSQL_ITER_VLLM_DETAILED);
    CHECK(s.detailed);
    CHECK_EQ(s.g_sq, 32);
    CHECK_EQ(s.g_sk, 55086);
    CHECK_EQ(s.g_sqsk, 55086);
    CHECK_EQ(s.c_sk, 0);
    CHECK_EQ(s.batch_size, 32);
    tsql_iter_parse("execute_5_context_2(sq7sk9sqsq25sqsk45)_generation_3(sq3sk30sqsq3sqsk30)_tail", &s);
    CHECK_EQ(s.c_sq, 7);
    CHECK_EQ(s.c_sk, 9);
    CHECK_EQ(s.c_sqsq, 25);
    CHECK_EQ(s.c_sqsk, 45);
    CHECK_EQ(s.batch_size, 10);
    tsql_iter_parse("step[DECODE bs=8 toks=8 g_sq=8 g_sk=800 g_sqsq=8 g_sqsk=800]", &s);
    CHECK_EQ(s.format, TSQL_ITER_SGLANG_DETAILED);
    CHECK_EQ(s.g_sk, 800);
    CHECK_EQ(s.batch_size, 8);
    tsql_iter_parse("step[EXTEND bs=2 toks=300]", &s);
    CHECK_EQ(s.format, TSQL_ITER_SGLANG_NATIVE);
    CHECK(!s.detailed);
    CHECK_EQ(s.batch_size, 300);
    tsql_iter_parse("step[DECODE bs=4 toks=4]", &s);
    CHECK_EQ(s.batch_size, 4);
    tsql_iter_parse("step[DECODEX bs=4]", &s);
    CHECK_EQ(s.format, TSQL_ITER_NONE);
    tsql_iter_parse("decode[tok=16 sk=4096 sqsq=16 sqsk=4096]", &s);
    CHECK_EQ(s.format, TSQL_ITER_ATOM_DETAILED);
    CHECK_EQ(s.g_sq, 16);
    CHECK_EQ(s.g_sqsk, 4096);
    tsql_iter_parse("decode[tok=16 sk=4096]", &s);
    CHECK_EQ(s.format, TSQL_ITER_ATOM_NATIVE);
    CHECK(!s.detailed);
    tsql_iter_parse("ProfilerStep#3", &s);
    CHECK_EQ(s.format, TSQL_ITER_NONE);
    tsql_iter_parse(NULL, &s);
    CHECK_EQ(s.format, TSQL_ITER_NONE);
}

static void test_attention(void)
{
    const char *vllm = "{\"Input Dims\": [[32, 64, 64], [32, 8, 64], [32, 8, 64], [32, 64, 64], [], [], [], [0]], "
                       "\"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", "
                       "\"\", \"\", \"\", \"c10::BFloat16\"]}";
    tsql_perf *p = ev("vllm::unified_attention_with_output", vllm, VLLM_ANN, NULL);
    CHECK_CELLS(p, "0.902529024", "108.08984375", "7.962993747967186");
    CHECK_STR(p->compute_spec, "matrix_bf16");
    CHECK_STR(param("N_KV"), "32");
    CHECK_STR(param("dtype_KV"), "c10::BFloat16");
    CHECK_STR(dict(), "{'B': 1, 'N_Q': 32, 'H_Q': 64, 'H_V': 8, 'H_K': 8, 'N_KV': 32, 'H_KV': 8, 'd_h_qk': 64, "
                      "'d_h_v': 64, 'dropout': 0.0, 'causal': False, 'flash_impl': True, 'c_sq': 0, 'c_sk': 0, "
                      "'c_sqsq': 0, 'c_sqsk': 0, 'g_sq': 32, 'g_sk': 55086, 'g_sqsq': 32, 'g_sqsk': 55086, "
                      "'dtype_Q': 'c10::BFloat16', 'dtype_KV': 'c10::BFloat16'}");
    /* no annotation / "NA": no metrics (the sheet row fails) */
    CHECK_EQ(ev("vllm::unified_attention_with_output", vllm, "NA", NULL)->status, TSQL_PM_ERROR);
    CHECK_EQ(ev("vllm::unified_attention_with_output", vllm, NULL, NULL)->status, TSQL_PM_ERROR);
    /* a native annotation has no statistics either */
    CHECK_EQ(ev("vllm::unified_attention_with_output", vllm, "execute_context_0(0)_generation_32(32)", NULL)->status,
             TSQL_PM_ERROR);
    /* no query tokens: not implemented (dropped silently) */
    CHECK_EQ(ev("vllm::unified_attention_with_output", vllm,
                "execute_0_context_0(sq0sk0sqsq0sqsk0)_generation_0(sq0sk0sqsq0sqsk0)", NULL)->status,
             TSQL_PM_NOT_IMPLEMENTED);
    /* context part: F = 2·(64·2·45·64) − 2·(64·25·64); Qe = 5·64·64·2 + 5·8·64·2, KVe = 4·8·64·2 */
    p = ev("vllm::unified_attention_with_output", vllm,
           "execute_1_context_1(sq5sk9sqsq25sqsk45)_generation_0(sq0sk0sqsq0sqsk0)", NULL);
    CHECK_FB(p, "532480.0", "100352.0");

    const char *ragged = "{\"Input Dims\": [[32, 32, 128], [10905190400], [32, 32, 128], [835874, 1, 8, 128], "
                         "[835874, 1, 8, 128], [33], [20971520], [4096], [], [1], [1], []], \"Input type\": "
                         "[\"c10::BFloat16\", \"unsigned char\", \"c10::BFloat16\", \"c10::BFloat16\", "
                         "\"c10::BFloat16\", \"int\", \"int\", \"int\", \"\", \"float\", \"float\", \"\"]}";
    p = ev("sglang_profiler::attention_paged_attention_ragged", ragged, SGL_ANN, NULL);
    CHECK_CELLS(p, "0.53714944", "128.56640625", "3.9844438367818187");
    CHECK_STR(param("N_KV"), "32785");
    CHECK_STR(param("dtype_KV"), "<absent>");

    p = ev("sglang::store_cache", "{\"Input Dims\": [[32, 1024], [32, 1024]], \"Input type\": [\"c10::BFloat16\"]}",
           NULL, NULL);
    CHECK_CELLS(p, "0.0", "0.25", "0.0");
    CHECK_STR(p->compute_spec, "vector_bf16");
    CHECK_STR(dict(), "{'op_shape': (32, 1024), 'nelems': 32768, 'dtype': 'c10::BFloat16'}");

    /* paged decode with a sliding window of 128: G = min(55086, 32·128) */
    p = ev("aiter::pa_decode_gluon",
           "{\"Input Dims\": [[32, 64, 64], [1000, 8, 16, 64], [1000, 8, 64, 16]], \"Input type\": "
           "[\"c10::BFloat16\", \"c10::Float8_e4m3fnuz\", \"c10::Float8_e4m3fnuz\"], \"Concrete Inputs\": "
           "[\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"128\"]}",
           VLLM_ANN, NULL);
    CHECK_FB(p, "67108864.0", "4751360.0");
    CHECK_STR(p->compute_spec, "matrix_bf16");
    CHECK_STR(param("sliding_window"), "128");

    /* DeepSeek-V4 compressed sparse attention: W = 128 + min(ceil(55086/32/4), 512) = 559 */
    p = ev("pseudo_v4_paged_decode_csa",
           "{\"Input Dims\": [[32, 64, 512]], \"v4_H_Q\": 64, \"v4_d_h\": 512, \"v4_mode\": \"csa\"}", VLLM_ANN, NULL);
    CHECK_FB(p, "2344615936.0", "40828928.0");
    CHECK_STR(param("sliding_window"), "559");
    CHECK_STR(p->compute_spec, "matrix_bf16");

    p = ev("aiter::pa_sparse_prefill_opus_fwd",
           "{\"Input Dims\": [[128, 64, 512], [], [5000], [], [], [3000]], \"Input type\": [\"c10::BFloat16\"]}", NULL,
           NULL);
    CHECK_FB(p, "1048576000.0", "24969216.0");

    /* gated delta net: T = 32, d_k = ((4096 − 16·128) // 2) // 8 = 128 */
    const char *gdn = "{\"Input Dims\": [[32, 4096], [32, 16], [], [1, 16, 128, 128]], \"Input type\": "
                      "[\"c10::BFloat16\"]}";
    p = ev("vllm::gdn_attention_core", gdn, VLLM_ANN, NULL);
    CHECK_FB(p, "58720256.0", "395264.0");
    CHECK_STR(p->compute_spec, "matrix_bf16");
    CHECK_EQ(ev("vllm::gdn_attention_core", gdn, "NA", NULL)->status, TSQL_PM_NOT_IMPLEMENTED);

    /* varlen prefill: d_h_v from dims[2] */
    p = ev("aiter::fmha_v3_varlen_fwd",
           "{\"Input Dims\": [[10, 8, 128], [10, 8, 128], [10, 8, 64]], \"Input type\": [\"c10::BFloat16\", "
           "\"c10::BFloat16\"]}",
           "execute_1_context_1(sq10sk10sqsq100sqsk100)_generation_0(sq0sk0sqsq0sqsk0)", NULL);
    CHECK_STR(param("d_h_v"), "64");
    /* F = 8·2·100·128 + 8·2·100·64 − 8·100·128 − 8·100·64 = 153600 */
    CHECK_STR(pyf(p->flops), "153600.0");
}

static void test_gemm(void)
{
    tsql_perf *p = ev("aiter::gemm_a16w16",
                      "{\"Input Dims\": [[32, 4096], [24576, 4096], [], [], [], [], []], \"Input type\": "
                      "[\"c10::BFloat16\", \"c10::BFloat16\", \"\", \"Scalar\", \"\", \"\", \"\"]}",
                      NULL, "Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x32x64_MI16x16x1");
    CHECK_CELLS(p, "6.442450944", "193.75", "31.710967741935484");
    CHECK_STR(dict(), "{'B': 1, 'M': 32, 'N': 24576, 'K': 4096, 'bias': False, 'dtype_A_B': ('c10::BFloat16', "
                      "'c10::BFloat16', 'c10::BFloat16'), 'transpose': (True, False)}");
    p = ev("vllm::rocm_unquantized_gemm",
           "{\"Input Dims\": [[32, 2880], [5120, 2880], [5120]], \"Input type\": [\"c10::BFloat16\", "
           "\"c10::BFloat16\", \"c10::BFloat16\"]}",
           NULL, NULL);
    CHECK_CELLS(p, "0.94388224", "28.623046875", "31.44865233708632");
    CHECK_STR(dict(), "{'M': 32, 'N': 5120, 'K': 2880, 'bias': True, 'dtype_A_B': ('c10::BFloat16', "
                      "'c10::BFloat16', 'c10::BFloat16'), 'B': 1}");
    p = ev("vllm::rocm_unquantized_gemm",
           "{\"Input Dims\": [[32, 2880], [201088, 2880], []], \"Input type\": [\"c10::BFloat16\", "
           "\"c10::BFloat16\", \"\"]}",
           NULL, NULL);
    CHECK_CELLS(p, "37.06454016", "1117.05859375", "31.643371437963122");
    p = ev("aiter::gemm_a8w8_blockscale_ck",
           "{\"Input Dims\": [[64, 7168], [2112, 7168], [64, 56], [17, 56]], \"Input type\": "
           "[\"c10::Float8_e4m3fnuz\", \"c10::Float8_e4m3fnuz\", \"float\", \"float\"]}",
           NULL, NULL);
    CHECK_FB(p, "1937768448.0", "15867904.0");
    CHECK_STR(param("block_k"), "128");
    CHECK_STR(param("block_n"), "125");
    CHECK_STR(p->compute_spec, "matrix_fp8");
    p = ev("aiter::gemm_afp4wfp4_",
           "{\"Input Dims\": [[64, 3584], [2112, 3584]], \"Input type\": [\"unsigned char\", \"unsigned char\"]}",
           NULL, NULL);
    CHECK_FB(p, "1937768448.0", "8069120.0");
    CHECK_STR(p->compute_spec, "matrix_fp4");
}

static void test_norm_rope_act(void)
{
    tsql_perf *p = ev("aiter::add_rmsnorm",
                      "{\"Input Dims\": [[32, 4096], [32, 4096], [32, 4096], [32, 4096], [4096], []], \"Input "
                      "type\": [\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", "
                      "\"c10::BFloat16\", \"Scalar\"], \"Input Strides\": [[4096, 1], [4096, 1], [4096, 1], "
                      "[4096, 1], [1], []]}",
                      NULL, NULL);
    CHECK_CELLS(p, "0.000655424", "1.0078125", "0.6202156007751938");
    CHECK_STR(dict(), "{'op_shape': (32, 4096), 'dtype_in_out': ('c10::BFloat16', None), 'stride_input': (4096, 1), "
                      "'stride_output': None, 'num_channels': 4096, 'has_bias': False, 'is_affine': True, "
                      "'is_training': False}");
    p = ev("aiter::rmsnorm",
           "{\"Input Dims\": [[256, 128], [256, 128], [128], []], \"Input type\": [\"c10::BFloat16\", "
           "\"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\"], \"Input Strides\": [[128, 1], [128, 1], [1], []]}",
           NULL, NULL);
    CHECK_CELLS(p, "0.000131584", "0.125244140625", "1.0019493177387915");
    p = ev("aiter::rmsnorm2d_fwd_with_add_ck",
           "{\"Input Dims\": [[32, 2880], [32, 2880], [32, 2880], [32, 2880], [2880], [], []], \"Input type\": "
           "[\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\"]}",
           NULL, NULL);
    CHECK_CELLS(p, "0.000460864", "0.7086181640625", "0.6202411714039621");
    p = ev("aiter::rms_norm",
           "{\"Input Dims\": [[32, 2880], [2880], [], []], \"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\"]}",
           NULL, NULL);
    CHECK_CELLS(p, "0.000368704", "0.3570556640625", "0.9847863247863248");
    p = ev("vllm::rocm_aiter_triton_add_rmsnorm_pad",
           "{\"Input Dims\": [[64, 2880], [2880], [], [], []], \"Input type\": [\"c10::BFloat16\"], "
           "\"Concrete Inputs\": [\"\", \"\", \"\", \"\", \"256\"]}",
           NULL, NULL);
    CHECK_FB(p, "921728.0", "1504896.0");
    p = ev("aiter::_fuse_rmsnorm_fp4_quant",
           "{\"Input Dims\": [[64, 1536], [1536], [], [64, 512], [512], [], [64, 1536]], \"Input type\": "
           "[\"c10::BFloat16\"]}",
           NULL, NULL);
    CHECK_FB(p, "819370.0", "777216.0");
    /* unknown dtype: the bytes expression fails */
    CHECK_EQ(ev("aiter::rms_norm", "{\"Input Dims\": [[32, 2880], [2880]], \"Input type\": [\"bool\"]}", NULL, NULL)
                 ->status,
             TSQL_PM_ERROR);

    p = ev("sgl_kernel::rotary_embedding",
           "{\"Input Dims\": [[32], [32, 4096], [32, 1024], [], [41216, 128], []], \"Input type\": [\"long int\", "
           "\"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\", \"c10::BFloat16\", \"Scalar\"], \"Concrete Inputs\": "
           "[\"\", \"\", \"\", \"128\", \"\", \"True\"]}",
           NULL, NULL);
    CHECK_CELLS(p, "0.00049152", "0.625", "0.7499999999999999");
    CHECK_STR(dict(), "{'num_elements': 163840}");
    p = ev("aiter::fused_qk_rope_cat_and_cache_mla",
           "{\"Input Dims\": [[32, 16, 512], [32, 16, 64], [32, 1, 512], [32, 1, 64], [1000, 1, 576]], "
           "\"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", "
           "\"c10::Float8_e4m3fnuz\"]}",
           NULL, NULL);
    CHECK_FB(p, "104448.0", "1234944.0");

    p = ev("sgl_kernel::silu_and_mul",
           "{\"Input Dims\": [[32, 12288], [32, 24576]], \"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\"], "
           "\"Input Strides\": [[12288, 1], [24576, 1]]}",
           NULL, NULL);
    CHECK_CELLS(p, "0.00196608", "2.25", "0.8333333333333333");
    CHECK_STR(param("stride_input"), "(24576, 1)");
    CHECK_STR(param("stride_output"), "(12288, 1)");
    p = ev("aiter::silu_and_mul",
           "{\"Input Dims\": [[32, 1536], [32, 3072]], \"Input type\": [\"c10::BFloat16\", \"float\"]}", NULL, NULL);
    CHECK_FB(p, "245760.0", "491520.0");
    CHECK_STR(p->compute_spec, "vector_fp32");
}

static void test_moe(void)
{
    const char *args = "{\"Input Dims\": [[32, 3072], [32, 32], [], []], \"Input type\": [\"c10::BFloat16\", "
                       "\"c10::BFloat16\", \"\", \"\"], \"MoE GEMM type\": \"up\", \"MoE GEMM index\": 0, "
                       "\"MoE GEMM gated\": true, \"MoE topk\": 4}";
    tsql_perf *p = ev("pseudo_op::moe_triton_unfused_up", args, NULL,
                      "_matmul_ogs_NNT_bf16xbf16xmxfp4_16x128x256x1_swiglu");
    CHECK_CELLS(p, "4.831838208", "284.9228269331473", "16.1728003670313");
    CHECK_STR(p->compute_spec, "matrix_fp4");
    CHECK_STR(dict(), "{'num_tokens': 32, 'hidden_dim': 3072, 'inter_dim': 3072, 'num_experts': 32, 'topk': 4, "
                      "'gated': True, 'input_dtype': 'c10::BFloat16', 'weight_dtype': 'FP4'}");
    const char *down = "{\"Input Dims\": [[32, 3072], [32, 32], [], []], \"Input type\": [\"c10::BFloat16\", "
                       "\"c10::BFloat16\"], \"MoE GEMM gated\": false, \"MoE topk\": 4}";
    p = ev("pseudo_op::moe_triton_unfused_down", down, NULL, "_matmul_ogs_NNT_bf16xbf16xmxfp4_16x128x256x1");
    CHECK_CELLS(p, "2.415919104", "142.93016346657365", "16.11976047686271");
    /* no weight dtype in the kernel name: no default, the row fails */
    CHECK_EQ(ev("pseudo_op::moe_triton_unfused_down", down, NULL, "_matmul_ogs_plain")->status, TSQL_PM_ERROR);
    /* no kernel at all */
    CHECK_EQ(ev("pseudo_op::moe_triton_unfused_down", down, NULL, NULL)->status, TSQL_PM_ERROR);

    p = ev("pseudo_op::moe_aiter_fused_1stage",
           "{\"Input Dims\": [[64, 7168], [256, 4096, 7168], [256, 7168, 2048], [64, 8]], \"Input type\": "
           "[\"c10::BFloat16\", \"c10::Float8_e4m3fnuz\"]}",
           NULL, NULL);
    CHECK_FB(p, "45104037888.0", "9798244874.627514");
    CHECK_STR(p->compute_spec, "matrix_bf16");
    p = ev("aiter::fmoe_fp8_blockscale_g1u1",
           "{\"Input Dims\": [[64, 7168], [64, 7168], [256, 4096, 7168], [256, 7168, 2048]], \"Input type\": "
           "[\"c10::BFloat16\", \"c10::Float8_e4m3fnuz\", \"c10::Float8_e4m3fnuz\"], \"Concrete Inputs\": "
           "[\"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"8\"]}",
           NULL, NULL);
    CHECK_FB(p, "45104037888.0", "9797786122.627514");
    CHECK_STR(p->compute_spec, "matrix_fp8");
    p = ev("sglang_profiler::fused_moe_triton_kernels_invoke_fused_moe_kernel",
           "{\"Input Dims\": [[64, 2048], [128, 1536, 2048], [], [], [], [], [], [], [64, 8]], \"Input type\": "
           "[\"c10::BFloat16\", \"c10::Float8_e4m3fnuz\"]}",
           NULL, NULL);
    CHECK_FB(p, "3221225472.0", "399850390.47522694");
    CHECK_STR(p->compute_spec, "matrix_fp8");
    /* aiter ck stage 1, FP4 activations and weights: N = 1024·(7168 // 3584), gated */
    p = ev("aiter::ck_moe_stage1",
           "{\"Input Dims\": [[64, 7168], [256, 4096, 3584], [256, 7168, 1024], [], [], [], [64, 8]], "
           "\"Input type\": [\"c10::Float4_e2m1fn_x2\", \"c10::Float4_e2m1fn_x2\"]}",
           NULL, NULL);
    CHECK_FB(p, "30064771072.0", "3266223619.5425043");
    CHECK_STR(param("inter_dim"), "2048");
    CHECK_STR(param("gated"), "True");
    /* GPTQ/AWQ: 4-bit weights (0.5 B); up gated by default (N = 4096 / 2), down N = 1024·2 */
    p = ev("pseudo_op::moe_gptq_awq_up",
           "{\"Input Dims\": [[16, 1024], [8, 4096]], \"Input type\": [\"c10::BFloat16\"], \"MoE topk\": 2}", NULL,
           NULL);
    CHECK_FB(p, "268435456.0", "16772904.74609375");
    p = ev("pseudo_op::moe_gptq_awq_down",
           "{\"Input Dims\": [[16, 1024], [], [8, 1024, 1024]], \"Input type\": [\"c10::BFloat16\"], "
           "\"MoE topk\": 2}",
           NULL, NULL);
    CHECK_FB(p, "134217728.0", "8468372.373046875");
    CHECK_STR(param("gated"), "<absent>");
    p = ev("aiter::moe_sorting_fwd",
           "{\"Input Dims\": [[64, 8], [64, 8], [1000], [], [[1, 2]]], \"Input type\": [\"int\", \"float\", "
           "\"int\", \"\", \"\"]}",
           NULL, NULL);
    CHECK_FB(p, "1000.0", "8096.0");
    CHECK_STR(param("operands"), "[((64, 8), 'int'), ((64, 8), 'float'), ((1000,), 'int')]");
}

static void test_quant_misc(void)
{
    tsql_perf *p = ev("aiter::dynamic_per_token_scaled_quant",
                      "{\"Input Dims\": [[64, 7168], [64, 7168], [64, 1]], \"Input type\": [\"c10::Float8_e4m3fnuz\", "
                      "\"c10::BFloat16\", \"float\"], \"Input Strides\": [[7168, 1], [7168, 1], [1, 1]]}",
                      NULL, NULL);
    CHECK_FB(p, "1189888.0", "1376512.0");
    CHECK_STR(p->compute_spec, "vector_bf16");
    p = ev("vllm::triton_per_token_group_quant_fp8",
           "{\"Input Dims\": [[64, 7168], []], \"Input type\": [\"c10::BFloat16\"], \"Concrete Inputs\": [\"\", "
           "\"128\"]}",
           NULL, NULL);
    CHECK_FB(p, "2752512.0", "1390592.0");
    p = ev("aiter::fused_allreduce_rmsnorm",
           "{\"Input Dims\": [[], [], [64, 7168], [], [], [], [7168]], \"Input type\": [\"\", \"\", "
           "\"c10::BFloat16\"]}",
           NULL, NULL);
    CHECK_FB(p, "2293888.0", "3684352.0");
    CHECK_STR(p->compute_spec, "");
    p = ev("aiter::mhc_post", "{\"Input Dims\": [[64, 4, 7168], [64, 7168]], \"Input type\": [\"c10::BFloat16\", "
                              "\"c10::BFloat16\"]}",
           NULL, NULL);
    CHECK_FB(p, "18350080.0", "8262656.0");
    CHECK_STR(p->compute_spec, "vector_bf16");
    p = ev("aiter::mixed_sample_outer_exponential",
           "{\"Input Dims\": [[32], [32, 1000], [32, 1000]], \"Input type\": [\"int\", \"c10::BFloat16\", "
           "\"float\"]}",
           NULL, NULL);
    /* F = 2·32·1000, Bytes = 32000·2 + 32000·4 + 32·4 */
    CHECK_FB(p, "64000.0", "192128.0");
    p = ev("_C_custom_ar::all_reduce",
           "{\"Input Dims\": [[], [32, 4096]], \"Input type\": [\"\", \"c10::BFloat16\"]}", NULL, NULL);
    CHECK_FB(p, "0.0", "524288.0");
}

int main(void)
{
    tsql_perf_init(&P);
    test_iteration();
    test_attention();
    test_gemm();
    test_norm_rope_act();
    test_moe();
    test_quant_misc();
    tsql_perf_free(&P);
    return check_report("test_inference_models");
}
