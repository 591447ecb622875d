/* test_pseudo_ops.c — core/analysis/pseudo_ops.c's plan of single-kernel pseudo ops on
 * the hand-made traces of tests/data/inference/pseudo/. The expected UIDs, parents,
 * launches, kernels and args are those TraceLens's inference report gives the same files
 * (its tree after pseudo-op injection, args as Python dicts, here as compact JSON). */
#include <stdlib.h>
#include <string.h>

#include "analysis/pseudo_ops.h"
#include "check.h"
#include "load/load.h"

typedef struct want {
    uint32_t uid;
    const char *name;
    uint32_t parent, launch, kernel;
    const char *args;
} want;

static void check_plan(const char *path, int skipped, const want *w, size_t n)
{
    tsql_error err = {0};
    tsql_trace *t = tsql_trace_load(path, NULL, &err);
    CHECK(t != NULL);
    if (!t) return;
    tsql_pseudo_plan p;
    CHECK_EQ(tsql_pseudo_ops_plan(t, &p), 0);
    CHECK_EQ(p.skipped, skipped);
    CHECK_EQ(p.n, n);
    for (size_t i = 0; i < n && i < p.n; i++) {
        CHECK_EQ(p.v[i].uid, w[i].uid);
        CHECK(strcmp(p.v[i].name, w[i].name) == 0);
        CHECK_EQ(p.v[i].parent, w[i].parent);
        CHECK_EQ(p.v[i].launch, w[i].launch);
        CHECK_EQ(p.v[i].kernel, w[i].kernel);
        if (strcmp(p.v[i].args, w[i].args) != 0) {
            CHECK(!"args differ");
            fprintf(stderr, "  got  %s\n  want %s\n", p.v[i].args, w[i].args);
        }
    }
    tsql_pseudo_plan_free(&p);
    tsql_trace_free(t);
}

/* a wrapping or inserted-above op: where it goes and what it takes */
typedef struct want_wrap {
    uint32_t uid;
    const char *name;
    int how;
    uint32_t parent, target, source;
    const char *args;
} want_wrap;

static void check_wrap(const char *path, const want_wrap *w, size_t n)
{
    tsql_error err = {0};
    tsql_trace *t = tsql_trace_load(path, NULL, &err);
    CHECK(t != NULL);
    if (!t) return;
    tsql_pseudo_plan p;
    CHECK_EQ(tsql_pseudo_ops_plan(t, &p), 0);
    CHECK_EQ(p.n, n);
    for (size_t i = 0; i < n && i < p.n; i++) {
        CHECK_EQ(p.v[i].uid, w[i].uid);
        CHECK(strcmp(p.v[i].name, w[i].name) == 0);
        CHECK_EQ(p.v[i].how, w[i].how);
        CHECK_EQ(p.v[i].parent, w[i].parent);
        CHECK_EQ(p.v[i].target, w[i].target);
        CHECK_EQ(p.v[i].source, w[i].source);
        CHECK_EQ(p.v[i].kernel, TSQL_NONE);
        CHECK_EQ(p.v[i].launch, TSQL_NONE);
        if (w[i].args && strcmp(p.v[i].args, w[i].args) != 0) {
            CHECK(!"args differ");
            fprintf(stderr, "  got  %s\n  want %s\n", p.v[i].args, w[i].args);
        }
    }
    tsql_pseudo_plan_free(&p);
    tsql_trace_free(t);
}

#define TRITON_ARGS                                                                                          \
    "{\"Input Dims\":[[4,64],[4,8],[],[]],\"Input type\":[\"c10::BFloat16\",\"c10::BFloat16\",\"\",\"\"],"  \
    "\"Input Strides\":[[64,1],[8,1],[],[]],\"Concrete Inputs\":[\"\",\"\",\"\",\"\"],\"Sequence number\":2,"
#define GPTQ_ARGS                                                                                            \
    "{\"Input Dims\":[[4,64],[8,256,8],[8,64,16],[4,3],[4,3]],"                                              \
    "\"Input type\":[\"c10::BFloat16\",\"int\",\"int\",\"float\",\"int\"],"                                  \
    "\"Input Strides\":[[64,1],[],[],[3,1],[3,1]],\"Concrete Inputs\":[\"\",\"\",\"\",\"\",\"\"],"          \
    "\"Sequence number\":77,"

int main(void)
{
    /* GPT-OSS Triton MoE: top-k 2 from vllm::TopK's second concrete input; the swiglu
     * kernel is the gated "up"; the finalize op for the one matmul_scatter kernel */
    static const want triton[] = {
        {29, "pseudo_op::moe_triton_unfused_up", 9, 10, 12,
         TRITON_ARGS "\"External id\":22,\"Pseudo op\":true,\"MoE GEMM type\":\"up\",\"MoE GEMM index\":0,"
                     "\"MoE GEMM gated\":true,\"MoE topk\":2}"},
        {30, "pseudo_op::moe_triton_unfused_down", 14, 15, 17,
         TRITON_ARGS "\"External id\":23,\"Pseudo op\":true,\"MoE GEMM type\":\"down\",\"MoE GEMM index\":1,"
                     "\"MoE GEMM gated\":false,\"MoE topk\":2}"},
        {31, "pseudo_op::moe_triton_unfused_finalize_matmul_scatter", 19, 20, 22,
         TRITON_ARGS "\"External id\":24,\"Pseudo op\":true,\"MoE GEMM type\":\"finalize_matmul_scatter\"}"},
    };
    check_plan("tests/data/inference/pseudo/moe_triton.json", 0, triton, 3);
    /* the same trace with a _rocm_C::paged_attention op: no pseudo op at all */
    check_plan("tests/data/inference/pseudo/moe_triton_paged.json", 1, NULL, 0);
    /* GPTQ/AWQ: top-k from Input Dims[4][1], the op's own Sequence number */
    static const want gptq[] = {
        {10, "pseudo_op::moe_gptq_awq_up", 1, 2, 4,
         GPTQ_ARGS "\"External id\":22,\"Pseudo op\":true,\"MoE GEMM type\":\"up\",\"MoE GEMM index\":0,"
                   "\"MoE GEMM gated\":true,\"MoE topk\":3}"},
        {11, "pseudo_op::moe_gptq_awq_down", 1, 6, 8,
         GPTQ_ARGS "\"External id\":23,\"Pseudo op\":true,\"MoE GEMM type\":\"down\",\"MoE GEMM index\":1,"
                   "\"MoE GEMM gated\":false,\"MoE topk\":3}"},
    };
    check_plan("tests/data/inference/pseudo/moe_gptq.json", 0, gptq, 2);
    /* aiter fused MoE: the fmoe kernel, not the sorting one; no extras */
    static const want aiter[] = {
        {12, "pseudo_op::moe_aiter_fused_1stage", 3, 8, 10,
         "{\"Input Dims\":[[4,64],[8,256,64],[8,64,128],[4,2]],"
         "\"Input type\":[\"c10::BFloat16\",\"c10::Float8_e4m3fnuz\",\"c10::Float8_e4m3fnuz\",\"int\"],"
         "\"Input Strides\":[[64,1],[],[],[2,1]],\"Concrete Inputs\":[\"\",\"\",\"\",\"\"],\"Sequence number\":2,"
         "\"External id\":23,\"Pseudo op\":true}"},
    };
    check_plan("tests/data/inference/pseudo/moe_aiter.json", 0, aiter, 1);

    /* MLA: decode frames 2 and 10 (not 16: no GPU work; not 18: no stage-1 op), then the
     * prefill frame 21 (not 25: its name runs on); shapes and Sequence number from the
     * stage-1 op, else the frame's UID */
    static const want_wrap mla[] = {
        {43, "pseudo_mla_decode_fwd", TSQL_PSEUDO_WRAP, 2, 2, 3,
         "{\"Input Dims\":[[4,16,576],[1000,1,512]],\"Input type\":[\"c10::BFloat16\",\"c10::BFloat16\"],"
         "\"Input Strides\":[[9216,576,1],[512,512,1]],\"Concrete Inputs\":[\"\",\"\"],\"Sequence number\":901,"
         "\"Pseudo op\":true}"},
        {44, "pseudo_mla_decode_fwd", TSQL_PSEUDO_WRAP, 10, 10, 11, NULL},
        {45, "pseudo_mla_prefill_fwd", TSQL_PSEUDO_WRAP, 21, 21, 22, NULL},
    };
    check_wrap("tests/data/inference/pseudo/mla.json", mla, 3);
    /* flydsl: stage 1 (frames 5 and 16, one name), then stage 2 (frame 8); each above its
     * frame, below the frame's parent; shapes and Sequence number of the fused_moe_ */
    static const want_wrap fly[] = {
        {29, "pseudo_op::moe_flydsl_stage1", TSQL_PSEUDO_ABOVE, 2, 5, 1,
         "{\"Input Dims\":[[4,64],[8,256,64],[8,64,128],[4,2]],\"Input type\":[\"c10::BFloat16\","
         "\"c10::Float8_e4m3fnuz\",\"c10::Float8_e4m3fnuz\",\"float\"],\"Input Strides\":[[64,1],[],[],[2,1]],"
         "\"Concrete Inputs\":[\"\",\"\",\"\",\"\"],\"Sequence number\":1,\"Pseudo op\":true,"
         "\"MoE flydsl stage\":\"flydsl_moe_stage1\"}"},
        {30, "pseudo_op::moe_flydsl_stage1", TSQL_PSEUDO_ABOVE, 15, 16, 15,
         "{\"Input Dims\":[[4,64],[8,256,64],[8,64,128],[4,2]],\"Input type\":[\"c10::BFloat16\","
         "\"c10::Float8_e4m3fnuz\",\"c10::Float8_e4m3fnuz\",\"float\"],\"Sequence number\":4242,"
         "\"Pseudo op\":true,\"MoE flydsl stage\":\"flydsl_moe_stage1\"}"},
        {31, "pseudo_op::moe_flydsl_stage2", TSQL_PSEUDO_ABOVE, 2, 8, 1, NULL},
    };
    check_wrap("tests/data/inference/pseudo/moe_flydsl.json", fly, 3);
    /* V4, with the model and tensor-parallel size of the environment (TL_TP read as
     * Python's int(): blanks and an underscore between digits) */
    setenv("TL_MODEL", "deepseek-ai/DeepSeek-V4-Pro \"x\"", 1);
    setenv("TL_TP", " 0_4 ", 1);
    static const want_wrap v4[] = {
        {45, "pseudo_v4_paged_decode_swa", TSQL_PSEUDO_WRAP, 5, 5, 2,
         "{\"Input Dims\":[[4,64,512],[1000,1,512]],\"Input type\":[\"c10::BFloat16\",\"c10::BFloat16\"],"
         "\"Input Strides\":[[],[]],\"Concrete Inputs\":[\"\",\"\"],\"Sequence number\":17,\"Pseudo op\":true,"
         "\"v4_mode\":\"swa\",\"v4_call_index\":0,\"v4_model_name\":\"deepseek-ai/DeepSeek-V4-Pro \\\"x\\\"\","
         "\"v4_tp\":4,\"v4_H_Q\":64,\"v4_d_h\":512}"},
        {46, "pseudo_v4_paged_decode_hca", TSQL_PSEUDO_WRAP, 11, 11, 8, NULL},
        {47, "pseudo_v4_paged_decode_csa", TSQL_PSEUDO_WRAP, 17, 17, 14,
         "{\"Input Dims\":[[4,64,512]],\"Input type\":[\"c10::BFloat16\"],\"Sequence number\":17,"
         "\"Pseudo op\":true,\"v4_mode\":\"csa\",\"v4_call_index\":4,"
         "\"v4_model_name\":\"deepseek-ai/DeepSeek-V4-Pro \\\"x\\\"\",\"v4_tp\":4}"},
    };
    check_wrap("tests/data/inference/pseudo/v4_decode.json", v4, 3);
    /* a TL_TP Python cannot read: 1 */
    unsetenv("TL_MODEL");
    setenv("TL_TP", "4x", 1);
    static const want_wrap v4b[] = {
        {45, "pseudo_v4_paged_decode_swa", TSQL_PSEUDO_WRAP, 5, 5, 2, NULL},
        {46, "pseudo_v4_paged_decode_hca", TSQL_PSEUDO_WRAP, 11, 11, 8,
         "{\"Input Dims\":[[4,64,512]],\"Input type\":[\"c10::BFloat16\"],\"Sequence number\":11,"
         "\"Pseudo op\":true,\"v4_mode\":\"hca\",\"v4_call_index\":1,\"v4_model_name\":null,\"v4_tp\":1}"},
        {47, "pseudo_v4_paged_decode_csa", TSQL_PSEUDO_WRAP, 17, 17, 14, NULL},
    };
    check_wrap("tests/data/inference/pseudo/v4_decode.json", v4b, 3);
    unsetenv("TL_TP");
    return check_report("test_pseudo_ops");
}
