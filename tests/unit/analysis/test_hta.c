/* test_hta.c — HTA's event table (core/analysis/hta.c) on the hand-made
 * tests/data/hta/edges.json, and its name rules (docs/hta.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/hta.h"
#include "analysis/hta_callgraph.h"
#include "check.h"
#include "load/load.h"

/* row of event uid, or UINT32_MAX */
static uint32_t row_of(const tsql_hta_rows *r, uint32_t uid)
{
    for (uint32_t i = 0; i < r->n; i++)
        if (r->uid[i] == uid) return i;
    return UINT32_MAX;
}

static void names(void)
{
    CHECK_EQ(tsql_hta_kernel_type("ncclKernel_AllReduce"), TSQL_HTA_COMMUNICATION);
    CHECK_EQ(tsql_hta_kernel_type("void foo<ncclKernel>"), TSQL_HTA_COMMUNICATION);
    CHECK_EQ(tsql_hta_kernel_type("hipLaunchKernel"), TSQL_HTA_COMMUNICATION); /* HTA's ^hip rule first */
    CHECK_EQ(tsql_hta_kernel_type("Memcpy DtoH (Device -> Pinned)"), TSQL_HTA_MEMORY);
    CHECK_EQ(tsql_hta_kernel_type("hipMemset"), TSQL_HTA_COMMUNICATION);
    CHECK_EQ(tsql_hta_kernel_type("dma_copy"), TSQL_HTA_MEMORY);
    CHECK_EQ(tsql_hta_kernel_type("my_Memcpy_kernel"), TSQL_HTA_OTHER);
    CHECK_EQ(tsql_hta_kernel_type("Context Sync"), TSQL_HTA_OTHER);
    CHECK_EQ(tsql_hta_kernel_type("cudaLaunchKernel"), TSQL_HTA_OTHER);
    CHECK_EQ(tsql_hta_kernel_type("cuLaunchKernel"), TSQL_HTA_COMPUTATION); /* not cuda...LaunchKernel */
    CHECK_EQ(tsql_hta_kernel_type("Stream Wait Event"), TSQL_HTA_OTHER);
    CHECK_EQ(tsql_hta_kernel_type("triton_poi_fused_0"), TSQL_HTA_COMPUTATION);
    CHECK_EQ(tsql_hta_kernel_type(NULL), TSQL_HTA_COMPUTATION);
    CHECK_EQ(tsql_hta_step_number("ProfilerStep#12"), 12);
    CHECK_EQ(tsql_hta_step_number("ProfilerStep # 7x"), 7);
    CHECK_EQ(tsql_hta_step_number("ProfilerStep"), -1);
    CHECK_EQ(tsql_hta_step_number("ProfilerStep#99999999999999999999"), -1);
    CHECK_EQ(tsql_hta_step_number("Step#1"), -2);
    CHECK(tsql_hta_is_step_name("ProfilerStep#3"));
    CHECK(!tsql_hta_is_step_name("ProfilerStep #3"));
    CHECK(!tsql_hta_is_step_name("ProfilerStep#"));
    CHECK_EQ(tsql_hta_name_flags("cudaLaunchKernel"),
             TSQL_HTA_LAUNCH_STATS | TSQL_HTA_QUEUE_LAUNCH | TSQL_HTA_ATEN_LAUNCH);
    CHECK_EQ(tsql_hta_name_flags("cuLaunchKernel"), TSQL_HTA_QUEUE_LAUNCH | TSQL_HTA_ATEN_LAUNCH);
    CHECK_EQ(tsql_hta_name_flags("cudaMemcpyAsync"), TSQL_HTA_MEM_LAUNCH | TSQL_HTA_QUEUE_LAUNCH);
    CHECK_EQ(tsql_hta_name_flags("hipMemcpyWithStream"), TSQL_HTA_QUEUE_LAUNCH);
    CHECK_EQ(tsql_hta_name_flags("aten::mm"), 0);
}

int main(void)
{
    names();
    tsql_error err = {0};
    tsql_trace *t = tsql_trace_load("tests/data/hta/edges.json", NULL, &err);
    CHECK(t != NULL);
    if (!t) return check_report("test_hta");
    CHECK(tsql_hta_needs_rounding(t));
    const tsql_hta_rows *r = tsql_trace_cached(t, &tsql_hta_rows_kind);
    const tsql_hta_rows *u = tsql_trace_cached(t, &tsql_hta_rows_unrounded_kind);
    CHECK(r && u);
    if (r && u) {
        CHECK(r->rounded && !u->rounded);
        CHECK_EQ(r->n, 41);                 /* 42 events: the Trace span is the one dropped */
        CHECK_EQ(row_of(r, 0), UINT32_MAX); /* cat Trace */
        CHECK(r->min_ts == 1001.0);         /* ceil(1000.25) */
        /* elementwise_tiny: ts 1041.5, dur 0.3 -> ceil 1042, floor(1041.8) = 1041 -> -1 */
        uint32_t k = row_of(r, 12);
        CHECK(k != UINT32_MAX && r->ts[k] == 1042.0 && r->dur[k] == -1.0);
        CHECK(u->ts[k] == 1041.5 && fabs(u->dur[k] - 0.3) < 1e-12);
        /* the launch and its kernel point at each other; the orphan kernel has no partner */
        uint32_t l = row_of(r, 11);
        CHECK_EQ(r->index_corr[k], 11);
        CHECK_EQ(r->index_corr[l], 12);
        CHECK_EQ(r->partner[k], l);
        uint32_t o = row_of(r, 35);
        CHECK_EQ(r->index_corr[o], 0);
        CHECK_EQ(r->partner[o], row_of(r, 0)); /* HTA's quirk: uid 0, not a row here */
        CHECK(!(r->flags[o] & TSQL_HTA_KEEP));
        /* iteration: CPU rows by step, GPU rows by their launch; the stream-0 cpu_op too */
        CHECK_EQ(r->iteration[l], 1);
        CHECK_EQ(r->iteration[k], 1);
        CHECK_EQ(r->iteration[row_of(r, 34)], 2);
        CHECK_EQ(r->iteration[o], -1);
        /* the cut: the last ProfilerStep#N start on the CPU side is the GPU copy of #3
         * (1641); the CPU step #3 (1601) and its first launch (1610) are kept, the
         * second (1700) and its kernel are not */
        CHECK(r->flags[row_of(r, 3)] & TSQL_HTA_KEEP);
        CHECK(r->flags[row_of(r, 37)] & TSQL_HTA_KEEP);
        CHECK(r->flags[row_of(r, 38)] & TSQL_HTA_KEEP);
        CHECK(!(r->flags[row_of(r, 6)] & TSQL_HTA_KEEP)); /* the GPU copy itself */
        CHECK(!(r->flags[row_of(r, 40)] & TSQL_HTA_KEEP));
        CHECK(!(r->flags[row_of(r, 41)] & TSQL_HTA_KEEP));
        CHECK_EQ(r->nstep_names, 3);
        CHECK_EQ(r->nsteps, 6);
        /* device rows: the kernels, the memcpy, the stream-0 cpu_op */
        CHECK_EQ(r->ndev, 13);
        /* the call graph: steps at the top, each kernel under its launch, every kernel
         * of step 1 (7, the memcpy and the NCCL one included) below ProfilerStep#1 */
        tsql_hta_callgraph *g = tsql_hta_callgraph_build(t, r, 1);
        CHECK(g != NULL);
        if (g) {
            CHECK_EQ(g->depth[row_of(r, 1)], 0);
            CHECK_EQ(g->parent[k], l);
            CHECK_EQ(g->depth[k], g->depth[l] + 1);
            CHECK_EQ(g->nkernels[row_of(r, 1)], 7);
            CHECK(g->kernel_dur[row_of(r, 1)] == 9 - 1 - 1 + 20 + 3 + 60 + 8);
            CHECK_EQ(g->depth[o], -1); /* filtered out */
            CHECK_EQ(g->max_kernels, 7);
            uint32_t ks[8];
            tsql_hta_cg_scratch sc;
            CHECK(tsql_hta_cg_scratch_init(&sc, g) == 0);
            CHECK_EQ(tsql_hta_callgraph_kernels(g, r, row_of(r, 1), ks, &sc), 7);
            CHECK_EQ(r->uid[ks[0]], 9);
            CHECK_EQ(r->uid[ks[1]], 12);
            tsql_hta_cg_scratch_free(&sc);
            /* the kernel sequences of 'ProfilerStep#': the steps are the shallowest
             * rows with the name (depth 0); with 7 kernels only step 1 has 3 or more */
            tsql_hta_kseq *q = tsql_hta_kseq_build(t, r, g, "ProfilerStep#", 13, 3);
            CHECK(q != NULL);
            if (q) {
                CHECK_EQ(q->n, 1);
                CHECK_EQ(q->root[0], row_of(r, 1));
                CHECK_EQ(q->kernel_at[1], 7);
                CHECK_EQ(r->uid[q->kernel[0]], 9);
                tsql_hta_kseq_free(q);
            }
            /* text no name contains: no roots; '' is in every name (SQL's instr) */
            q = tsql_hta_kseq_build(t, r, g, "no such op", 10, 0);
            CHECK(q && q->n == 0);
            tsql_hta_kseq_free(q);
            q = tsql_hta_kseq_build(t, r, g, "", 0, 7);
            CHECK(q && q->n == 1 && q->root[0] == row_of(r, 1));
            tsql_hta_kseq_free(q);
            tsql_hta_callgraph_free(g);
        }
        tsql_buf b = {0};
        CHECK(tsql_hta_memory_bw(t, 21, &b) == 12.5);
        CHECK(tsql_hta_memory_bw(t, 9, &b) == 0.0);
        free(b.p);
    }
    tsql_trace_free(t);
    /* a B/E pair, an instant and a cat-less X event are not rows; integer ts: no rounding */
    t = tsql_trace_load("tests/data/hta/pairs.json", NULL, &err);
    CHECK(t != NULL);
    if (t) {
        CHECK(!tsql_hta_needs_rounding(t));
        const tsql_hta_rows *p = tsql_trace_cached(t, &tsql_hta_rows_kind);
        CHECK(p && p->n == 2 && p->uid[0] == 4 && p->uid[1] == 5 && !p->rounded && p->ts[0] == 14.0 && p->dur[0] == 2.0);
        tsql_trace_free(t);
    }
    return check_report("test_hta");
}
