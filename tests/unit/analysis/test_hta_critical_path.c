/* test_hta_critical_path.c — HTA's critical path (core/analysis/hta_critical_path.c) on
 * the hand-made traces of tests/data/hta/make_cp_traces.py; the expected paths are
 * HTA's own output on them (tests/data/hta/cp_oracle/), and its short names. */
#include <stdlib.h>
#include <string.h>

#include "analysis/hta.h"
#include "analysis/hta_critical_path.h"
#include "check.h"
#include "load/load.h"

static void short_names(void)
{
    char b[128];
    CHECK(!strcmp(tsql_hta_short_name("gemm_kernel<float>(float*, int)", b, sizeof b), "gemm_kernel"));
    CHECK(!strcmp(tsql_hta_short_name("void at::native::elementwise_kernel<128, 4>(int)", b, sizeof b),
                  "at::native::elementwise_kernel"));
    CHECK(!strcmp(tsql_hta_short_name("aten::mm", b, sizeof b), "aten::mm"));
    /* memory kernels keep their name; "->" is not a template's end */
    CHECK(!strcmp(tsql_hta_short_name("Memcpy HtoD (Pageable -> Device)", b, sizeof b),
                  "Memcpy HtoD (Pageable -> Device)"));
    CHECK(!strcmp(tsql_hta_short_name("f(a->b) g<x>", b, sizeof b), "g"));
    CHECK(!strcmp(tsql_hta_short_name("abcdef(x)", b, 4), "abc"));
}

static const tsql_hta_rows *rows_of(tsql_trace *t)
{
    return tsql_trace_cached(t, &tsql_hta_rows_kind);
}

static void edges_trace(void)
{
    tsql_error err = {0};
    tsql_trace *t = tsql_trace_load("tests/data/hta/cp_edges.json", NULL, &err);
    CHECK(t != NULL);
    if (!t) return;
    const tsql_hta_rows *r = rows_of(t);
    tsql_hta_cp *cp = NULL;
    char msg[256];
    CHECK(r && tsql_hta_cp_build(t, r, 0, "ProfilerStep", 0, &cp, msg, sizeof msg) == 0);
    if (cp) {
        /* HTA: 12 edges, length 900 = cpu 380 + launch delay 475 + relu 45; the equally
         * long path through the NCCL kernel (launch at 80, 240 + 580) is not taken */
        CHECK_EQ(cp->npath, 12);
        CHECK(cp->length == 900.0);
        CHECK_EQ(cp->path[3].type, TSQL_HTA_CP_DEPENDENCY); /* the lock hand-over to cudaHostAlloc */
        CHECK_EQ(r->uid[cp->path[3].end_row], 6);
        CHECK_EQ(cp->path[8].type, TSQL_HTA_CP_DEPENDENCY); /* forward op -> backward op: one thread */
        CHECK_EQ(cp->path[10].type, TSQL_HTA_CP_LAUNCH_DELAY);
        CHECK(cp->path[10].weight == 475.0);
        CHECK_EQ(cp->path[10].bound, TSQL_HTA_CP_LAUNCH_OVERHEAD);
        CHECK_EQ(cp->path[11].bound, TSQL_HTA_CP_COMPUTE);
        CHECK_EQ(r->uid[cp->path[11].attributed], 13);
        /* the op's remainder after its last launch is attributed to the op (end -> end) */
        CHECK(cp->path[7].weight == 305.0 && r->uid[cp->path[7].attributed] == 1);
        double cpu = 0;
        for (uint32_t k = 0; k < cp->npath; k++)
            if (cp->path[k].bound == TSQL_HTA_CP_CPU) cpu += cp->path[k].weight;
        CHECK(cpu == 380.0);
        CHECK_EQ(cp->path[0].begin, 0);
        CHECK_EQ(cp->path[11].end, 21);
    }
    tsql_hta_cp_free(cp);
    cp = NULL;
    /* the whole trace: the same path here */
    CHECK(tsql_hta_cp_build(t, r, 0, "", 5, &cp, msg, sizeof msg) == 0);
    CHECK(cp && cp->length == 900.0);
    tsql_hta_cp_free(cp);
    cp = NULL;
    CHECK_EQ(tsql_hta_cp_build(t, r, 0, "NoSuchOp", 0, &cp, msg, sizeof msg), 1);
    CHECK(cp == NULL && strstr(msg, "NoSuchOp"));
    /* two rows named ProfilerStep#1 (CPU and GPU copy): instance 2 does not exist */
    CHECK_EQ(tsql_hta_cp_build(t, r, 0, "ProfilerStep", 2, &cp, msg, sizeof msg), 1);
    CHECK(strstr(msg, "only 2") != NULL);
    tsql_trace_free(t);
}

static void ns_trace(void)
{
    tsql_error err = {0};
    tsql_trace *t = tsql_trace_load("tests/data/hta/cp_ns.json", NULL, &err);
    CHECK(t != NULL);
    if (!t) return;
    const tsql_hta_rows *r = rows_of(t);
    tsql_hta_cp *cp = NULL;
    char msg[256];
    /* instance 0 is the step's GPU copy (listed first), the filter on: HTA's 9 edges,
     * 199 µs, all CPU (kernels of 0 and -1 µs never lead) */
    CHECK(r && tsql_hta_cp_build(t, r, 1, "ProfilerStep", 0, &cp, msg, sizeof msg) == 0);
    if (cp) {
        CHECK_EQ(cp->npath, 9);
        CHECK(cp->length == 199.0);
        CHECK(cp->path[5].weight == 19.0); /* cudaMemcpyAsync's span: a lock call */
        CHECK_EQ(r->uid[cp->path[5].attributed], 6);
        CHECK(r->ts[cp->path[0].begin_row] == 111.0); /* ceil(110.3) */
    }
    tsql_hta_cp_free(cp);
    cp = NULL;
    /* the filter leaves ProfilerStep#1's two rows: the second step is no instance */
    CHECK_EQ(tsql_hta_cp_build(t, r, 1, "ProfilerStep", 2, &cp, msg, sizeof msg), 1);
    /* without it, the second step's window holds aten::add and its launch */
    CHECK(tsql_hta_cp_build(t, r, 0, "ProfilerStep#2", 0, &cp, msg, sizeof msg) == 0);
    CHECK(cp && cp->npath >= 1);
    tsql_hta_cp_free(cp);
    tsql_trace_free(t);
}

/* CUDA events (cp_sync.json): HTA's path and graph, its sync edges in path order */
static void sync_trace(void)
{
    tsql_error err = {0};
    tsql_trace *t = tsql_trace_load("tests/data/hta/cp_sync.json", NULL, &err);
    CHECK(t != NULL);
    if (!t) return;
    const tsql_hta_rows *r = rows_of(t);
    tsql_hta_cp *cp = NULL;
    char msg[256];
    CHECK(r && tsql_hta_cp_build(t, r, 0, "ProfilerStep", 0, &cp, msg, sizeof msg) == 0);
    if (cp) {
        CHECK_EQ(cp->ngraph_nodes, 34);
        CHECK_EQ(cp->nedges, 37);
        CHECK_EQ(cp->npath, 14);
        CHECK(cp->length == 1073.0);
        /* Event Sync: kernel_a's end (uid 4) -> cudaEventSynchronize's end (uid 5) */
        CHECK_EQ(cp->path[3].type, TSQL_HTA_CP_SYNC);
        CHECK_EQ(r->uid[cp->path[3].begin_row], 4);
        CHECK_EQ(r->uid[cp->path[3].end_row], 5);
        CHECK(cp->path[3].end_ts == 560.0);
        /* Stream Wait Event: kernel_c's end (uid 12) -> kernel_d's start (uid 17) */
        CHECK_EQ(cp->path[12].type, TSQL_HTA_CP_SYNC);
        CHECK_EQ(r->uid[cp->path[12].begin_row], 12);
        CHECK_EQ(r->uid[cp->path[12].end_row], 17);
        CHECK(cp->path[12].begin_ts == 1040.0 && cp->path[12].end_ts == 1045.0);
    }
    tsql_hta_cp_free(cp);
    cp = NULL;
    /* op_b's window: kernel_a has no nodes, so only the stream wait's edge (HTA: 17
     * edges, a path of 5 and 540 µs) */
    CHECK(r && tsql_hta_cp_build(t, r, 0, "aten::op_b", 0, &cp, msg, sizeof msg) == 0);
    if (cp) {
        CHECK_EQ(cp->nedges, 17);
        CHECK_EQ(cp->npath, 5);
        CHECK(cp->length == 540.0);
        CHECK_EQ(cp->path[3].type, TSQL_HTA_CP_SYNC);
    }
    tsql_hta_cp_free(cp);
    tsql_trace_free(t);
}

int main(void)
{
    short_names();
    edges_trace();
    ns_trace();
    sync_trace();
    return check_report("test_hta_critical_path");
}
