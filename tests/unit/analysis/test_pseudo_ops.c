/* test_pseudo_ops.c — core/analysis/pseudo_ops.c's plan of single-kernel pseudo ops on
 * the hand-made traces of tests/data/inference/pseudo/. The expected UIDs, parents,
 * launches, kernels and args are those TraceLens's inference report gives the same files
 * (its tree after pseudo-op injection, args as Python dicts, here as compact JSON). */
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
    return check_report("test_pseudo_ops");
}
