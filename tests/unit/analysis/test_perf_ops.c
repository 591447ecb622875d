/* test_perf_ops.c — perf-model instances (docs/schema.md, perf_ops) of the bundled demo trace:
 * sheets, directions, FLOPs of one GEMM worked out by hand, kernel time, fwd/bwd links. */
#include <stdlib.h>
#include <string.h>

#include "analysis/perf_ops.h"
#include "check.h"
#include "load/load.h"

int main(void)
{
    tsql_error err = {0};
    tsql_trace *t = tsql_trace_load("examples/demo_trace.json.gz", NULL, &err);
    CHECK(t != NULL);
    if (!t) return check_report("test_perf_ops");
    const tsql_perf_ops *p = tsql_perf_ops_get(t);
    CHECK(p != NULL);
    if (p) {
        uint32_t gemm = 0, gemm_bwd = 0;
        const tsql_perf_op *mm = NULL;
        for (uint32_t i = 0; i < p->n; i++) {
            const tsql_perf_op *r = &p->rows[i];
            CHECK(r->sheet < p->nsheets && r->result < p->nresults);
            if (strcmp(p->sheets[r->sheet], "GEMM") == 0) {
                gemm++;
                gemm_bwd += r->bwd;
            }
            if (r->uid == 437) mm = r;
            if (i) CHECK(p->rows[i - 1].uid <= r->uid); /* file order */
        }
        CHECK_EQ(gemm, 39);                     /* the demo report's GEMM sheet */
        CHECK_EQ(gemm_bwd, 0);                  /* GEMM has forward metrics only */
        CHECK(mm != NULL);
        if (mm) {
            const tsql_perf_result *res = &p->results[mm->result];
            /* aten::mm M=1024 N=32000 K=2048: 2·M·N·K FLOPs */
            CHECK(res->perf.flops == 2.0 * 1024 * 32000 * 2048);
            CHECK_NEAR(mm->kernel_us, 287.384, 1e-6);
            CHECK_EQ(mm->bwd, 0);
            CHECK(mm->ngpu >= 1);
            CHECK_HAS(res->params_json, "\"M\":\"1024\",\"N\":\"32000\",\"K\":\"2048\"");
        }
    }
    tsql_trace_free(t);
    return check_report("test_perf_ops");
}
