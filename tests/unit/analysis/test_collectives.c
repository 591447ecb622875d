/* test_collectives.c — collective calls read from kernel args, record_param_comms and
 * nccl:/gloo: annotations (tests/sql/collectives/coll.json, see rules.sql there). */
#include <math.h>
#include <stdlib.h>

#include "analysis/collectives.h"
#include "check.h"
#include "load/load.h"

int main(void)
{
    tsql_error err = {0};
    tsql_trace *t = tsql_trace_load("tests/sql/collectives/coll.json", NULL, &err);
    CHECK(t != NULL);
    if (!t) return check_report("test_collectives");
    CHECK(tsql_coll_peek(t) == NULL);
    const tsql_coll_list *l = tsql_coll_get(t);
    CHECK(l != NULL);
    CHECK(tsql_coll_peek(t) == l);
    if (l) {
        static const struct {
            uint32_t uid; const char *kind; int64_t in_nelems, out_nelems; int dtype_bytes;
            int64_t seq; uint32_t call, op, annotation; int source;
        } want[] = {
            {4, "allgather", 1024, 4096, 2, 0, 1, 0, 2, TSQL_COLL_KERNEL},
            {9, "allreduce", 4000, 4000, 2, 0, 6, 5, 7, TSQL_COLL_KERNEL},      /* sizes from the annotation */
            {11, "send", 256, 256, 4, 0, TSQL_NONE, TSQL_NONE, TSQL_NONE, TSQL_COLL_KERNEL},
            {12, "allreduce", TSQL_NULL, TSQL_NULL, 0, 1, TSQL_NONE, TSQL_NONE, TSQL_NONE, TSQL_COLL_KERNEL},
            {14, "broadcast", 10, 10, 8, 2, TSQL_NONE, TSQL_NONE, 14, TSQL_COLL_ANNOTATION}, /* gloo: CPU only */
            {16, "reduce_scatter", 4096, 1024, 1, 1, TSQL_NONE, TSQL_NONE, TSQL_NONE, TSQL_COLL_KERNEL},
        };
        CHECK_EQ(l->n, 6);
        for (size_t i = 0; i < l->n && i < 6; i++) {
            const tsql_coll *r = &l->rows[i];
            CHECK_EQ(r->uid, want[i].uid);
            CHECK_STR(r->kind, want[i].kind);
            CHECK_EQ(r->in_nelems, want[i].in_nelems);
            CHECK_EQ(r->out_nelems, want[i].out_nelems);
            CHECK_EQ(r->dtype_bytes, want[i].dtype_bytes);
            CHECK_EQ(r->seq_in_group, want[i].seq);
            CHECK_EQ(r->call, want[i].call);
            CHECK_EQ(r->op, want[i].op);
            CHECK_EQ(r->annotation, want[i].annotation);
            CHECK_EQ(r->source, want[i].source);
        }
        CHECK_STR(l->rows[0].pg_name, "1");
        CHECK_STR(l->rows[0].pg_desc, "tp");
        CHECK_STR(l->rows[0].pg_ranks, "[0,1,2,3]");
        CHECK_EQ(l->rows[0].group_size, 4);
    }
    /* names: kernel, annotation and op spellings of one kind; dtype sizes */
    CHECK_STR(tsql_coll_kind("ncclDevKernel_AllGather_RING_LL"), "allgather");
    CHECK_STR(tsql_coll_kind("nccl:all_reduce"), "allreduce");
    CHECK_STR(tsql_coll_kind("c10d::_allgather_base_"), "allgather");
    CHECK_STR(tsql_coll_kind("aten::mm"), NULL);
    CHECK_EQ(tsql_coll_dtype_bytes("BFloat16"), 2);
    CHECK_EQ(tsql_coll_dtype_bytes("c10::BFloat16"), 2);
    CHECK_EQ(tsql_coll_dtype_bytes("long int"), 8);
    CHECK_EQ(tsql_coll_dtype_bytes("Float8_e4m3fn"), 1);
    CHECK_EQ(tsql_coll_dtype_bytes("nosuch"), 0);
    tsql_trace_free(t);
    return check_report("test_collectives");
}
