/*
 * test_pseudo_models.c — the perf models of the inference report's wrapping and
 * inserted-above pseudo ops (docs/inference.md, Pseudo ops; docs/perf-models.md) against
 * hand-worked F and Bytes: pseudo_mla_decode_fwd, pseudo_mla_prefill_fwd,
 * pseudo_v4_paged_decode_{swa,hca}, pseudo_op::moe_flydsl_stage1/2, with the args their
 * insertion gives them (tests/data/inference/pseudo/). The same numbers are TraceLens's
 * sheets for those traces (tests/sql/inference/pseudo_*.expected).
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "perfmodel/perfmodel.h"
#include "text/pyrepr.h"

static tsql_perf P;

static tsql_perf *ev(const char *name, const char *args, const char *ann)
{
    tsql_perf_eval_ann(&P, name, args, ann, NULL, 0, 0);
    return &P;
}

static const char *pyf(double x)
{
    static char buf[4][TSQL_PY_FLOAT_BUFSZ];
    static int k;
    char *b = buf[k++ % 4];
    tsql_py_float(x, b);
    return b;
}

static const char *param(const char *name)
{
    const tsql_pm_param *q = tsql_perf_param(&P, name);
    return q ? (q->str ? q->str : "<None>") : "<absent>";
}

#define CHECK_FB(p, f, b)                                                                \
    do {                                                                                 \
        CHECK_EQ((p)->status, TSQL_PM_OK);                                               \
        CHECK_STR(pyf((p)->flops), f);                                                   \
        CHECK_STR(pyf((p)->bytes), b);                                                   \
    } while (0)

/* decode only: g_sq 4, g_sk 1000, g_sqsq 4, g_sqsk 1000 */
static const char ANN[] = "execute_4_context_0(sq0sk0sqsq0sqsk0)_generation_4(sq4sk1000sqsq4sqsk1000)";

static void test_mla(void)
{
    /* H_Q 16, d_qk 576, H_KV 1, d_v 512:
     * F = 16·2·1000·576 + 16·2·1000·512 = 34816000
     * Q = 4·16·576 + 4·16·512 + 4·576 + 4·512 = 73984; KV = 996·576 + 996·512 = 1083648
     * Bytes = (73984 + 1083648)·2 = 2315264 */
    tsql_perf *p = ev("pseudo_mla_decode_fwd",
                      "{\"Input Dims\":[[4,16,576],[1000,1,512]],\"Input type\":[\"c10::BFloat16\",\"c10::BFloat16\"],"
                      "\"Sequence number\":901,\"Pseudo op\":true}",
                      ANN);
    CHECK_FB(p, "34816000.0", "2315264.0");
    CHECK_STR(p->compute_spec, "matrix_bf16");
    CHECK_STR(param("N_KV"), "1000");
    /* prefill: d_v from dims[2] (128), H_KV 16:
     * F = 16·2·1000·192 + 16·2·1000·128 = 10240000
     * Q = 4·16·192·2 + 4·16·128·2 = 40960; KV = 996·16·192 + 996·16·128 = 5099520
     * Bytes = (40960 + 5099520)·2 = 10280960 */
    p = ev("pseudo_mla_prefill_fwd",
           "{\"Input Dims\":[[64,16,192],[64,16,192],[64,16,128]],\"Input type\":[\"c10::BFloat16\",\"c10::BFloat16\","
           "\"c10::BFloat16\"],\"Sequence number\":21,\"Pseudo op\":true}",
           ANN);
    CHECK_FB(p, "10240000.0", "10280960.0");
    CHECK_STR(param("d_h_v"), "128");
    /* no iteration annotation: no metrics */
    CHECK(ev("pseudo_mla_decode_fwd", "{\"Input Dims\":[[4,16,576],[1000,1,512]],\"Input type\":[\"c10::BFloat16\"]}",
             "NA")->status != TSQL_PM_OK);
}

static void test_v4(void)
{
    /* swa, H_Q 64 and d_h 512 from the args, W = 128: cap = min(1000, 4·128) = 512
     * F = 64·2·512·512·2 = 67108864
     * Q = 4·64·512·2 + 4·512·2 = 266240; KV = (512 − 4)·512·2 = 520192
     * Bytes = (266240 + 520192)·2 = 1572864 */
    tsql_perf *p = ev("pseudo_v4_paged_decode_swa",
                      "{\"Input Dims\":[[4,64,512],[1000,1,512]],\"Input type\":[\"c10::BFloat16\",\"c10::BFloat16\"],"
                      "\"Sequence number\":17,\"Pseudo op\":true,\"v4_mode\":\"swa\",\"v4_call_index\":0,"
                      "\"v4_model_name\":null,\"v4_tp\":1,\"v4_H_Q\":64,\"v4_d_h\":512}",
                      ANN);
    CHECK_FB(p, "67108864.0", "1572864.0");
    CHECK_STR(param("sliding_window"), "128");
    CHECK_STR(p->compute_spec, "matrix_bf16");
    /* hca, no geometry: Flash config, H_Q = 64 // 1; W = 128 + ceil(1000 / 4 / 128) = 130,
     * cap = 520: F = 64·2·520·512·2 = 68157440 */
    p = ev("pseudo_v4_paged_decode_hca",
           "{\"Input Dims\":[[4,64,512]],\"Input type\":[\"c10::BFloat16\"],\"Sequence number\":11,\"Pseudo op\":true,"
           "\"v4_mode\":\"hca\",\"v4_call_index\":1,\"v4_model_name\":null,\"v4_tp\":1}",
           ANN);
    CHECK_EQ(p->status, TSQL_PM_OK);
    CHECK_STR(pyf(p->flops), "68157440.0");
    CHECK_STR(param("sliding_window"), "130");
    CHECK_STR(param("H_Q"), "64");
    /* the Pro config at TP 4: H_Q = 128 // 4 */
    p = ev("pseudo_v4_paged_decode_swa",
           "{\"Input Dims\":[[4,64,512]],\"Input type\":[\"c10::BFloat16\"],\"v4_mode\":\"swa\","
           "\"v4_model_name\":\"deepseek-ai/DeepSeek-V4-Pro\",\"v4_tp\":4}",
           ANN);
    CHECK_STR(param("H_Q"), "32");
}

static void test_flydsl(void)
{
    /* M 4, K 64, N = 128·(64 // 64) = 128, E 8, k 2, gated (256 = 2·128); bf16 in, fp8
     * weights; Eact = 8·(1 − (6/8)^4) = 5.46875
     * up:   F = 2·4·64·128·2·2 = 262144; Bytes = 4·64·2 + 5.46875·2·64·128·1 + 4·128·2·2 = 92160
     * down: F = 2·4·128·64·2 = 131072;  Bytes = 4·128·2·2 + 5.46875·128·64·1 + 4·64·2 = 47360 */
    const char *args = "{\"Input Dims\":[[4,64],[8,256,64],[8,64,128],[4,2]],\"Input type\":[\"c10::BFloat16\","
                       "\"c10::Float8_e4m3fnuz\",\"c10::Float8_e4m3fnuz\",\"float\"],\"Sequence number\":1,"
                       "\"Pseudo op\":true,\"MoE flydsl stage\":\"flydsl_moe_stage1\"}";
    tsql_perf *p = ev("pseudo_op::moe_flydsl_stage1", args, NULL);
    CHECK_FB(p, "262144.0", "92160.0");
    CHECK_STR(p->compute_spec, "matrix_fp8");
    CHECK_STR(param("gated"), "True");
    p = ev("pseudo_op::moe_flydsl_stage2", args, NULL);
    CHECK_FB(p, "131072.0", "47360.0");
    CHECK_STR(param("inter_dim"), "128");
}

int main(void)
{
    test_mla();
    test_v4();
    test_flydsl();
    tsql_perf_free(&P);
    return check_report("test_pseudo_models");
}
