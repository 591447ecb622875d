/* test_tree_diff.c — TraceDiff at the core level (docs/diff.md): name
 * normalisation, the merge of tests/data/diff/base.json with inserted.json, the uid
 * map, the merged-tree text and the cache per pair. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/tree_diff.h"
#include "analysis/tree_diff_names.h"
#include "analysis/tree_diff_pyset.h"
#include "check.h"
#include "load/load.h"
#include "output/tree_diff_text.h"

static tsql_buf normed;

static const char *norm(const char *s, int strip)
{
    if (tsql_diff_norm_name(s, strlen(s), strip, &normed)) return "(oom)";
    return normed.p;
}

int main(void)
{
    /* docs/diff.md, How the trees are merged (Names) */
    CHECK_STR(norm("foo 0xDEADbeef bar 0x1", 0), "foo 0xXXXX bar 0xXXXX");
    CHECK_STR(norm("0x", 0), "0x");
    CHECK_STR(norm("/src/train.py(128): forward", 0), "/src/train.py: forward");
    CHECK_STR(norm("/src/train.py(12a): forward", 0), "/src/train.py(12a): forward");
    CHECK_STR(norm("/home/u/proj/layer.py(99): matmul", 1), "layer.py");
    CHECK_STR(norm("/proj/layer.py(42): matmul : extra", 1), "/proj/layer.py: matmul ");
    CHECK_STR(norm("hipModuleLaunchKernel", 0), "__kernel_launch__");
    CHECK_STR(norm("cuLaunchKernel", 1), "__kernel_launch__");
    CHECK_STR(norm("hipLaunchKernel", 0), "hipLaunchKernel");
    CHECK_STR(norm("", 0), "");
    free(normed.p);

    /* the disambiguation's matches in CPython's set order (orders printed by Python 3.11:
     * s = set(); s.add(p) for p in the first list; list(s) is the second) */
    {
        int32_t p[6][2] = {{289, 63}, {114, 298}, {31, 295}, {299, 203}, {25, 113}, {23, 285}};
        static const int32_t want[6][2] = {
            {25, 113}, {299, 203}, {31, 295}, {23, 285}, {289, 63}, {114, 298}};
        CHECK_EQ(tsql_diff_py_set_order(p, 6), 0);
        CHECK(memcmp(p, want, sizeof want) == 0);
    }
    {
        int32_t p[12][2] = {
            {190, 49}, {280, 32}, {288, 30}, {105, 254}, {272, 218}, {160, 238},
            {299, 232}, {185, 153}, {127, 92}, {124, 41}, {294, 153}, {268, 253}};
        static const int32_t want[12][2] = {
            {185, 153}, {272, 218}, {160, 238}, {299, 232}, {190, 49}, {280, 32},
            {105, 254}, {124, 41}, {127, 92}, {294, 153}, {288, 30}, {268, 253}};
        CHECK_EQ(tsql_diff_py_set_order(p, 12), 0);
        CHECK(memcmp(p, want, sizeof want) == 0);
    }

    tsql_error err = {0};
    tsql_trace *a = tsql_trace_load("tests/data/diff/base.json", NULL, &err);
    tsql_trace *b = tsql_trace_load("tests/data/diff/inserted.json", NULL, &err);
    CHECK(a && b);
    if (!a || !b) return check_report("test_tree_diff");
    const char *why = NULL;
    tsql_tree_diff *d = tsql_tree_diff_get(a, b, 2, &why);
    CHECK(d != NULL);
    CHECK(tsql_tree_diff_get(a, b, 2, &why) == d); /* kept with the baseline */
    if (d) {
        /* linear(addmm(launch(gemm)), relu(launch(relu_k)), +dropout(launch(dropout_k))),
         * add(launch(add_k)), empty: 14 merged nodes, three roots */
        CHECK_EQ(d->n, 14);
        CHECK_EQ(d->nroots, 3);
        CHECK_EQ(d->roots[1], 10);
        CHECK_EQ(d->type[7], TSQL_DIFF_VARIANT);
        CHECK_EQ(d->uid1[7], TSQL_NONE);
        CHECK_EQ(d->uid2[7], 7);
        CHECK_EQ(d->parent[7], 0);
        CHECK_EQ(d->depth[9], 3);
        CHECK_EQ(d->pod[7], 1);
        CHECK_EQ(d->pod[4], 0);
        CHECK_EQ(d->is_lca[0], 1);   /* aten::linear: the variant's dropout below it */
        CHECK_EQ(d->is_lca[3], 1);   /* each kernel matched to a kernel */
        CHECK_EQ(d->kid_n[0], 3);
        CHECK_EQ(d->kids[d->kid_at[0] + 2], 7);
        /* get_corresponding_uid */
        CHECK_EQ(tsql_tree_diff_corresponding(d, 1, 4), 4);
        CHECK_EQ(tsql_tree_diff_corresponding(d, 2, 7), -1);
        CHECK_EQ(tsql_tree_diff_corresponding(d, 1, 3), -2);
        CHECK_EQ(tsql_tree_diff_find(d, 2, 20), 9);
        /* subtree GPU busy time: 10.5 + 5.25 in the baseline, + 7 in the variant */
        CHECK(tsql_tree_diff_gpu_us(d, 0, 1) == 15.75);
        CHECK(tsql_tree_diff_gpu_us(d, 0, 2) == 22.75);
        CHECK(isnan(tsql_tree_diff_gpu_us(d, 7, 1)));
        /* diff_stats: the dropout kernel under the LCA aten::linear first */
        CHECK_EQ(d->nrows, 7);
        CHECK_EQ(d->rows[0].side, 2);
        CHECK_EQ(d->rows[0].gpu, 20);
        CHECK_EQ(d->rows[0].op, 7);
        CHECK_EQ(d->rows[0].lca, 0);
        CHECK(d->rows[0].busy_us == 7.0);
        CHECK_STR(tsql_intern_str(&d->names, d->rows[0].lca_name), "aten::linear");
        CHECK_EQ(d->identical, 0);
        tsql_buf t = {0};
        CHECK_EQ(tsql_tree_diff_text(d, 4, 0, &t), 0);
        CHECK_STR(t.p, "└── aten::relu\n    └── cudaLaunchKernel\n        └── relu_k\n");
        free(t.p);
    }
    /* the same trace on both sides: identical rows */
    tsql_tree_diff *s = tsql_tree_diff_build(a, a, &why);
    CHECK(s != NULL);
    if (s) {
        CHECK_EQ(s->identical, 1);
        CHECK_EQ(s->nrows, 6);
        tsql_tree_diff_free(s);
    }
    tsql_trace_free(a);
    tsql_trace_free(b);
    return check_report("test_tree_diff");
}
