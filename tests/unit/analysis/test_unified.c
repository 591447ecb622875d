/* test_unified.c — unified_perf_summary's instances (leaf launchers and synthetic
 * "parent->kernel (Synthetic Op)" rows) on tests/data/tree_rules.json. */
#include <stdlib.h>

#include "analysis/unified.h"
#include "check.h"
#include "load/load.h"

int main(void)
{
    tsql_error err = {0};
    tsql_trace *t = tsql_trace_load("tests/data/tree_rules.json", NULL, &err);
    CHECK(t != NULL);
    if (!t) return check_report("test_unified");
    const tsql_unified *U = tsql_unified_get(t);
    CHECK(U != NULL);
    if (U) {
        /* B and H_bleeds are leaves; the graph launch gives one synthetic row per kernel;
         * a driver call (cuLaunchKernelEx under "execute") makes no leaf, so its kernel
         * is a synthetic row of "execute". Synthetic uids follow the events (36, 37, ...). */
        static const struct { uint32_t uid, node; const char *name; double kernel_us; uint32_t gpu; } want[] = {
            {1, 1, NULL, 4.0, 20},
            {7, 7, NULL, 3.0, 22},
            {36, 14, "cudaGraphLaunch->graph_k1 (Synthetic Op)", 2.0, 26},
            {37, 14, "cudaGraphLaunch->graph_k2 (Synthetic Op)", 2.0, 27},
            {38, 11, "execute->kernel_exec (Synthetic Op)", 6.0, 24},
        };
        CHECK_EQ(U->n, 5);
        for (uint32_t i = 0; i < U->n && i < 5; i++) {
            const tsql_unified_op *o = &U->rows[i];
            CHECK_EQ(o->uid, want[i].uid);
            CHECK_EQ(o->node, want[i].node);
            CHECK_STR(o->name, want[i].name);
            CHECK(o->kernel_us == want[i].kernel_us);
            CHECK_EQ(o->ngpu, 1);
            if (o->ngpu) CHECK_EQ(U->gpu[o->gpu_at], want[i].gpu);
            CHECK_STR(o->category, "other");
            CHECK_EQ(o->has_model, 0);
        }
    }
    tsql_trace_free(t);
    return check_report("test_unified");
}
