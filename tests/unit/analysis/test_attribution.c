/* test_attribution.c — TraceLens's kernel launchers and their busy times (docs/schema.md,
 * kernel_launchers, docs/schema.md, ops_summary) on tests/data/tree_rules.json, at the core level. */
#include <stdlib.h>
#include <string.h>

#include "analysis/attribution.h"
#include "check.h"
#include "load/load.h"

static const char *name_of(const tsql_trace *t, uint32_t u)
{
    return t->name[u] ? tsql_intern_str(&t->strings, t->name[u]) : NULL;
}

int main(void)
{
    tsql_error err = {0};
    tsql_trace *t = tsql_trace_load("tests/data/tree_rules.json", NULL, &err);
    CHECK(t != NULL);
    if (!t) return check_report("test_attribution");
    CHECK(tsql_attrib_peek(t) == NULL);           /* built on first use only */
    const tsql_attrib *a = tsql_attrib_get(t);
    CHECK(a != NULL);
    CHECK(tsql_attrib_peek(t) == a);
    CHECK(tsql_attrib_get(t) == a);               /* once */
    if (a) {
        /* launchers by ts: B, H_bleeds (dropped by TraceLens's tree, still a launcher),
         * aten::foo (above "execute"), the graph launch (no cpu_op above it); not the
         * correlation-only kernel's launch, not the NCCL call */
        static const uint32_t uid[] = {1, 7, 10, 14};
        static const double direct[] = {4.0, 3.0, 6.0, 3.0}; /* graph: [305,307] ∪ [306,308] */
        static const uint32_t ndirect[] = {1, 1, 1, 2};
        CHECK_EQ(a->nl, 4);
        for (uint32_t i = 0; i < a->nl && i < 4; i++) {
            CHECK_EQ(a->uid[i], uid[i]);
            CHECK(a->direct_us[i] == direct[i]);
            CHECK(a->subtree_us[i] == direct[i]);
            CHECK_EQ(a->direct_at[i + 1] - a->direct_at[i], ndirect[i]);
            CHECK_EQ(tsql_attrib_find(a, uid[i]), i);
            CHECK_STR(a->category[i], "other");
        }
        CHECK_EQ(tsql_attrib_find(a, 0), TSQL_NONE);  /* A launches nothing directly */
        CHECK_STR(name_of(t, a->uid[2]), "aten::foo");
        CHECK_EQ(a->direct[a->direct_at[3]], 26);     /* graph kernels by ts */
        CHECK_EQ(a->direct[a->direct_at[3] + 1], 27);
    }
    /* TraceLens's subtree GPU events: A covers B's and H's kernels (linked ones only) */
    u32vec v = {0};
    CHECK_EQ(tsql_tl_subtree_gpu(t, 0, &v), 2);
    if (v.n == 2) {
        CHECK_EQ(v.v[0], 20);
        CHECK_EQ(v.v[1], 22);
    }
    v.n = 0;
    CHECK_EQ(tsql_tl_subtree_gpu(t, 17, &v), 1);      /* the NCCL kernel is in its op's subtree */
    free(v.v);
    /* busy time: the union of closed intervals, touching ones merged */
    uint32_t g[2] = {26, 27};
    double scratch[4];
    CHECK(tsql_busy_us(t, g, 2, scratch) == 3.0);
    tsql_trace_free(t);
    return check_report("test_attribution");
}
