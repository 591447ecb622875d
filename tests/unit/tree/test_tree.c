/* test_tree.c — the call tree and the GPU links of tests/data/tree_rules.json, at the
 * core level (TraceLens's nesting rules, docs/schema.md, tree_edges; link kinds, docs/schema.md,
 * kernel_launchers). */
#include <stdlib.h>

#include "check.h"
#include "load/load.h"
#include "tree/tree.h"

static tsql_trace *load(const char *path)
{
    tsql_error err = {0};
    tsql_trace *t = tsql_trace_load(path, NULL, &err);
    if (!t) fprintf(stderr, "load %s: %s\n", path, err.msg);
    return t;
}

/* CPU nesting: parents, depths, edge kinds, TraceLens's drops */
static void test_nesting(const tsql_trace *t)
{
    CHECK_EQ(t->parent[0], TSQL_NONE);              /* A is a root of the CPU tree */
    CHECK_EQ(t->parent[1], 0);                      /* B [10,30] in A [0,100] */
    CHECK_EQ(t->parent[2], 1);                      /* the launch [15,20] in B */
    CHECK_EQ(t->depth[2], t->depth[1] + 1);
    CHECK_EQ(t->edge[2], TSQL_EDGE_CPU);
    CHECK_EQ(t->parent[4], 0);                      /* D starts where B ends: a sibling */
    CHECK((t->flags[5] & TSQL_F_TL_DROPPED) != 0);  /* E [50,110] overruns A: TraceLens drops it */
    CHECK((t->flags[6] & TSQL_F_TL_DROPPED) == 0);
    CHECK_EQ(t->parent[7], 0);                      /* H bleeds 0.5 µs out of G: not G's child */
    CHECK_EQ(t->parent[11], 10);                    /* execute in aten::foo */
    CHECK_EQ(t->parent[12], 11);                    /* the driver launch in execute */
    CHECK_EQ(t->parent[33], 32);                    /* python frame under its parent frame */
    CHECK_EQ(t->edge[33], TSQL_EDGE_PYTHON);
    /* children index: A's children are exactly those whose parent is A */
    uint32_t nA = 0;
    for (uint32_t u = 0; u < t->n; u++) nA += t->parent[u] == 0;
    CHECK_EQ(t->child_at[1] - t->child_at[0], nA);
    for (uint32_t j = t->child_at[0]; j < t->child_at[1]; j++) CHECK_EQ(t->parent[t->child[j]], 0);
}

/* every way a GPU event meets its launch */
static void test_links(const tsql_trace *t)
{
    const tsql_kernels *K = &t->kernels;
    CHECK_EQ(K->n, 8);
    static const struct {
        uint32_t uid, runtime, op, root_op, tl_runtime, tl_launcher;
        int link, comm;
    } want[] = {
        {20, 2, 1, 0, 2, 1, TSQL_LINK_AC2G, 0},
        {22, 8, 7, 0, 8, 7, TSQL_LINK_AC2G, 0},
        {24, 12, 11, 10, 12, 10, TSQL_LINK_AC2G, 0},         /* "execute" skipped by TraceLens */
        {26, 14, TSQL_NONE, TSQL_NONE, 14, 14, TSQL_LINK_GRAPH, 0}, /* graph launch: own launcher */
        {27, 14, TSQL_NONE, TSQL_NONE, 14, 14, TSQL_LINK_GRAPH, 0},
        {28, 15, TSQL_NONE, TSQL_NONE, TSQL_NONE, TSQL_NONE, TSQL_LINK_CORRELATION, 0},
        {29, 18, 17, 17, 18, TSQL_NONE, TSQL_LINK_AC2G, 1},  /* NCCL: nobody's direct work */
        {31, TSQL_NONE, TSQL_NONE, TSQL_NONE, TSQL_NONE, TSQL_NONE, TSQL_LINK_NONE, 0},
    };
    for (uint32_t k = 0; k < K->n && k < 8; k++) {
        CHECK_EQ(K->uid[k], want[k].uid);
        CHECK_EQ(K->runtime[k], want[k].runtime);
        CHECK_EQ(K->op[k], want[k].op);
        CHECK_EQ(K->root_op[k], want[k].root_op);
        CHECK_EQ(K->tl_runtime[k], want[k].tl_runtime);
        CHECK_EQ(K->tl_launcher[k], want[k].tl_launcher);
        CHECK_EQ(K->link[k], want[k].link);
        CHECK_EQ(K->is_comm[k], want[k].comm);
        CHECK_EQ(tsql_kernel_row(t, want[k].uid), k);
    }
    CHECK_EQ(tsql_kernel_row(t, 0), TSQL_NONE);         /* a CPU op has no kernel row */
    /* a linked kernel hangs under its launch in the tree */
    CHECK_EQ(t->parent[20], 2);
    CHECK_EQ(t->edge[20], TSQL_EDGE_LAUNCH);
    CHECK_EQ(t->link_key_is_external, 0);
}

/* the same trace from gzip, zip and a parallel parse gives the same tree */
static void test_same_tree(const tsql_trace *a, const char *path)
{
    tsql_trace *b = load(path);
    CHECK(b != NULL);
    if (!b) return;
    CHECK_EQ(b->n, a->n);
    int same = 1;
    for (uint32_t u = 0; u < a->n && u < b->n; u++)
        same &= a->parent[u] == b->parent[u] && a->depth[u] == b->depth[u] && a->edge[u] == b->edge[u];
    CHECK(same);
    tsql_trace_free(b);
}

int main(void)
{
    tsql_trace *t = load("tests/data/tree_rules.json");
    CHECK(t != NULL);
    if (t) {
        test_nesting(t);
        test_links(t);
        test_same_tree(t, "tests/data/tree_rules.json.gz");
        test_same_tree(t, "tests/data/tree_rules.zip");
        tsql_trace_free(t);
    }
    return check_report("test_tree");
}
