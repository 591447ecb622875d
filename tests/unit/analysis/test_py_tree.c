/* test_py_tree.c — core/analysis/py_tree.c (TraceLens's tree with Python frames) on the
 * hand-made tests/data/inference/report_stacks.json, the "_<digits>" rule and the stack
 * filter; core/analysis/pseudo_ops.c (SGLang profiler names) on
 * tests/data/inference/sglang_names.json. */
#include <string.h>

#include "analysis/attribution.h"
#include "analysis/pseudo_ops.h"
#include "analysis/py_tree.h"
#include "check.h"
#include "load/capture_merge.h"
#include "load/load.h"
#include "store/intern.h"

static const char *name(const tsql_trace *t, uint32_t u) { return tsql_intern_text(&t->strings, t->name[u]); }

static void test_tree(void)
{
    tsql_error err = {0};
    tsql_trace *t = tsql_trace_load("tests/data/inference/report_stacks.json", NULL, &err);
    CHECK(t != NULL);
    if (!t) return;
    const tsql_py_tree *pt = tsql_py_tree_get(t);
    CHECK(pt != NULL);
    if (!pt) {
        tsql_trace_free(t);
        return;
    }
    CHECK_EQ(pt->parent[0], TSQL_NONE);   /* gen.py(1): main */
    CHECK_EQ(pt->parent[3], 2);           /* nn.Module: Linear_3 in model.py forward */
    CHECK_EQ(pt->parent[5], 4);           /* aten::linear in the linear.py frame */
    CHECK_EQ(pt->parent[6], 5);           /* aten::mm */
    CHECK_EQ(pt->parent[7], 6);           /* its launch */
    CHECK_EQ(pt->parent[9], 7);           /* the kernel under its launch */
    CHECK_EQ(pt->parent[25], 24);         /* a Python frame inside an op */
    CHECK_EQ(pt->parent[26], 25);         /* and an op inside that frame */
    CHECK_EQ(pt->parent[32], 31);
    CHECK_EQ(pt->parent[33], 32);
    CHECK_EQ(pt->parent[41], 0);          /* after model.py forward ended */
    CHECK_EQ(pt->parent[42], TSQL_NONE);  /* after everything ended */
    CHECK(tsql_py_tree_get(t) == pt);     /* built once */
    tsql_trace_free(t);
}

/* a merged trace: the copies take their parents in the capture tree with Python frames,
 * although they all carry the graph launch's times (tests/data/inference/merge/cap_ended:
 * a frame inside aten::add that ended before its launch) */
static void test_merged_copies(void)
{
    tsql_error err = {0};
    tsql_trace *t = tsql_trace_load("tests/data/inference/merge/replay.json", NULL, &err);
    CHECK(t != NULL);
    if (!t) return;
    tsql_capture_merge_info info;
    CHECK_EQ(tsql_capture_merge(t, "tests/data/inference/merge/cap_ended", NULL, &info, &err), 0);
    CHECK_EQ(info.merged, 1);
    CHECK_EQ(t->n, 11 + 8);                /* the CaptureRoot and 7 copied events */
    CHECK_EQ(tsql_trace_inference_prepare(t), 0); /* a merge is no analysis */
    const tsql_py_tree *pt = tsql_py_tree_get(t);
    CHECK(pt != NULL);
    if (!pt) {
        tsql_trace_free(t);
        return;
    }
    CHECK(strcmp(name(t, 11), "CaptureRoot") == 0);
    CHECK_EQ(pt->parent[11], 2);           /* the CaptureRoot under hipGraphLaunch */
    CHECK_EQ(pt->parent[12], 11);          /* model.py(20): forward_bs4, a window root */
    CHECK_EQ(pt->parent[13], 12);          /* aten::mm in the frame */
    CHECK_EQ(pt->parent[15], 12);          /* aten::add */
    CHECK(strcmp(name(t, 16), "jit/utils.py(53): wrapper") == 0);
    CHECK_EQ(pt->parent[16], 15);
    CHECK_EQ(pt->parent[17], 15);          /* the launch after the frame ended: under aten::add */
    CHECK_EQ(pt->parent[18], 12);          /* hipMemcpyAsync */
    tsql_trace_free(t);
}

static void test_strip(void)
{
    char out[64];
    CHECK_EQ(tsql_strip_instance_ids("nn.Module: Linear_3", out), strlen("nn.Module: Linear"));
    CHECK(strcmp(out, "nn.Module: Linear") == 0);
    tsql_strip_instance_ids("a_1_b_22c_", out);
    CHECK(strcmp(out, "a_bc_") == 0);
    tsql_strip_instance_ids("_", out);
    CHECK(strcmp(out, "_") == 0);
    CHECK(tsql_py_stack_frame("nn.Module: X_0", TSQL_K_PYTHON));
    CHECK(tsql_py_stack_frame("torch/nn/modules/linear.py(130): forward", TSQL_K_PYTHON));
    CHECK(tsql_py_stack_frame("aten::mm", TSQL_K_RUNTIME));
    CHECK(tsql_py_stack_frame("softmax", TSQL_K_CPU_OP));
    CHECK(!tsql_py_stack_frame("cudaLaunchKernel", TSQL_K_RUNTIME));
    CHECK(!tsql_py_stack_frame("<built-in method apply>", TSQL_K_PYTHON));
}

static void test_sglang_names(void)
{
    tsql_error err = {0};
    tsql_trace *t = tsql_trace_load("tests/data/inference/sglang_names.json", NULL, &err);
    CHECK(t != NULL);
    if (!t) return;
    CHECK(!tsql_trace_inference_mode(t));
    CHECK_EQ(tsql_trace_inference_prepare(t), 4); /* 3 paged attention ops, fused_1_2 */
    CHECK(tsql_trace_inference_mode(t));
    CHECK(strcmp(name(t, 1), "sglang_profiler::attention_paged_attention_ragged") == 0);
    CHECK(strcmp(name(t, 16), "sglang_profiler::helper_3") == 0); /* first a Python frame */
    CHECK(strcmp(name(t, 17), "sglang_profiler::helper_3") == 0);
    CHECK(strcmp(name(t, 22), "sglang_profiler::_7") == 0);
    CHECK(strcmp(name(t, 27), "sglang_profiler::fused_1") == 0);
    CHECK_EQ(tsql_trace_inference_prepare(t), 0); /* once */
    tsql_trace_free(t);
    /* an analysed trace is refused and left as it is */
    t = tsql_trace_load("tests/data/inference/sglang_names.json", NULL, &err);
    CHECK(t != NULL);
    if (!t) return;
    CHECK(tsql_attrib_get(t) != NULL);
    CHECK_EQ(tsql_trace_inference_prepare(t), -2);
    CHECK(!tsql_trace_inference_mode(t));
    CHECK(strcmp(name(t, 1), "sglang_profiler::attention_paged_attention_ragged_100") == 0);
    tsql_trace_free(t);
}

int main(void)
{
    test_tree();
    test_merged_copies();
    test_strip();
    test_sglang_names();
    return check_report("test_py_tree");
}
