/*
 * collectives.c — the `collectives` table: one row per collective call of each
 * rank (trace): its kind, process group, dtype, element counts and bytes, and when it
 * ran on the GPU (or, for gloo, on the CPU backend's thread). Built from the trace
 * when a query first reads it and kept with the trace (core/analysis/collectives.c:
 * a scan of the event kinds plus the args of the collective events).
 *
 *   SELECT kind, dtype, in_bytes, dur FROM collectives('rank0.json.gz');
 *   SELECT * FROM collectives WHERE trace_id = 2 ORDER BY ts;
 *
 * Columns and units: docs/analyses.md. The views coll_analysis and coll_analysis_summary
 * read the merged fields; nccl_rank_rows and report_coll_analysis read the tl_* columns,
 * TraceLens's reading of the kernel's own args (sql/collectives/).
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <stdlib.h>
#include <string.h>

#include "analysis/collectives.h"
#include "catalog/registration.h"
#include "vtab/table.h"

#define COLL_COLUMNS(X)                                                                 \
    X(C_TRACE_ID, "trace_id INTEGER")                                                   \
    X(C_RANK, "rank INTEGER")                                                           \
    X(C_UID, "uid INTEGER")                                                             \
    X(C_SOURCE, "source TEXT")                                                          \
    X(C_NAME, "name TEXT")                                                              \
    X(C_KIND, "kind TEXT")                                                              \
    X(C_COLL_NAME, "collective_name TEXT")                                              \
    X(C_PG, "process_group TEXT")                                                       \
    X(C_PG_DESC, "process_group_desc TEXT")                                             \
    X(C_RANKS, "group_ranks TEXT")                                                      \
    X(C_GROUP_SIZE, "group_size INTEGER")                                               \
    X(C_SEQ, "seq_in_group INTEGER")                                                    \
    X(C_DTYPE, "dtype TEXT")                                                            \
    X(C_DTYPE_BYTES, "dtype_bytes INTEGER")                                             \
    X(C_IN_NELEMS, "in_nelems INTEGER")                                                 \
    X(C_OUT_NELEMS, "out_nelems INTEGER")                                               \
    X(C_IN_BYTES, "in_bytes INTEGER")                                                   \
    X(C_OUT_BYTES, "out_bytes INTEGER")                                                 \
    X(C_IN_SPLIT, "in_split_sizes TEXT")                                                \
    X(C_OUT_SPLIT, "out_split_sizes TEXT")                                              \
    X(C_SIZE_SOURCE, "size_source TEXT")                                                \
    X(C_STREAM, "stream INTEGER")                                                       \
    X(C_DEVICE, "device INTEGER")                                                       \
    X(C_TS, "ts REAL")                                                                  \
    X(C_DUR, "dur REAL")                                                                \
    X(C_TS_NS, "ts_ns INTEGER")                                                         \
    X(C_DUR_NS, "dur_ns INTEGER")                                                       \
    X(C_CALL_UID, "call_uid INTEGER")                                                   \
    X(C_OP_UID, "op_uid INTEGER")                                                       \
    X(C_OP_NAME, "op_name TEXT")                                                        \
    X(C_ANN_UID, "annotation_uid INTEGER")                                              \
    X(C_CALL_TS, "call_ts REAL")                                                        \
    X(C_CALL_DUR, "call_dur REAL")                                                      \
    X(C_TL_PG, "tl_process_group")                                                      \
    X(C_TL_RANKS, "tl_group_ranks")                                                     \
    X(C_TL_NAME, "tl_collective_name")                                                  \
    X(C_TL_GROUP_SIZE, "tl_group_size")                                                 \
    X(C_TL_DTYPE, "tl_dtype")                                                           \
    X(C_TL_IN_NELEMS, "tl_in_nelems")                                                   \
    X(C_TL_OUT_NELEMS, "tl_out_nelems")                                                 \
    X(C_TL_IN_SPLIT, "tl_in_split_sizes")                                               \
    X(C_TL_OUT_SPLIT, "tl_out_split_sizes")                                             \
    X(C_TL_STREAM, "tl_stream")                                                         \
    X(C_TL_SEQ, "tl_seq")

enum { COLL_COLUMNS(TSQL_COL_ENUM) C_TRACE };
_Static_assert(C_TL_SEQ - C_TL_PG == TSQL_COLL_TL_SEQ - TSQL_COLL_TL_PG, "tl_* columns follow tsql_coll_tl_field");

static int coll_prepare(tsql_trace *t)
{
    return tsql_coll_get(t) ? 0 : -1;
}

static uint32_t coll_nrows(const tsql_trace *t)
{
    const tsql_coll_list *l = tsql_coll_peek(t);
    return l ? (uint32_t)l->n : 0;
}

static uint32_t coll_uid_of_row(const tsql_trace *t, uint32_t row)
{
    return tsql_coll_peek(t)->rows[row].uid;
}

static void result_bytes(sqlite3_context *ctx, int64_t n, int bpe)
{
    /* nelems × bytes per element, when both are known and the product fits */
    if (n == TSQL_NULL || bpe <= 0 || n < 0 || n > INT64_MAX / bpe) return;
    sqlite3_result_int64(ctx, n * bpe);
}

/* a value of the kernel's args as TraceLens holds it (core/analysis/collectives.h) */
static void result_pycell(sqlite3_context *ctx, const tsql_pycell *c)
{
    switch (c->type) {
    case TSQL_PYCELL_INT: sqlite3_result_int64(ctx, c->v.i); break;
    case TSQL_PYCELL_REAL: sqlite3_result_double(ctx, c->v.r); break;
    case TSQL_PYCELL_TEXT: sqlite3_result_text(ctx, c->v.s, -1, SQLITE_TRANSIENT); break;
    default: break;
    }
}

static int coll_column(tsql_cursor *cur, sqlite3_context *ctx, int col)
{
    const tsql_trace *t = cur->e->trace;
    const tsql_coll *r = &tsql_coll_peek(t)->rows[cur->row];
    uint32_t u = r->uid;
    uint32_t host = r->call != TSQL_NONE ? r->call : r->op;
    switch (col) {
    case C_RANK: tsql_result_i64(ctx, t->rank); break;
    case C_UID: sqlite3_result_int64(ctx, u); break;
    case C_SOURCE:
        sqlite3_result_text(ctx, r->source == TSQL_COLL_KERNEL ? "kernel" : "annotation", -1, SQLITE_STATIC);
        break;
    case C_KIND: sqlite3_result_text(ctx, r->kind, -1, SQLITE_STATIC); break;
    case C_COLL_NAME: tsql_result_text(ctx, r->coll_name); break;
    case C_PG: tsql_result_text(ctx, r->pg_name); break;
    case C_PG_DESC: tsql_result_text(ctx, r->pg_desc); break;
    case C_RANKS: tsql_result_text(ctx, r->pg_ranks); break;
    case C_GROUP_SIZE: tsql_result_i64(ctx, r->group_size); break;
    case C_SEQ: sqlite3_result_int64(ctx, r->seq_in_group); break;
    case C_DTYPE: tsql_result_text(ctx, r->dtype); break;
    case C_DTYPE_BYTES:
        if (r->dtype_bytes) sqlite3_result_int(ctx, r->dtype_bytes);
        break;
    case C_IN_NELEMS: tsql_result_i64(ctx, r->in_nelems); break;
    case C_OUT_NELEMS: tsql_result_i64(ctx, r->out_nelems); break;
    case C_IN_BYTES: result_bytes(ctx, r->in_nelems, r->dtype_bytes); break;
    case C_OUT_BYTES: result_bytes(ctx, r->out_nelems, r->dtype_bytes); break;
    case C_IN_SPLIT: tsql_result_text(ctx, r->in_split); break;
    case C_OUT_SPLIT: tsql_result_text(ctx, r->out_split); break;
    case C_SIZE_SOURCE:
        if (tsql_coll_size_source_names[r->size_source])
            sqlite3_result_text(ctx, tsql_coll_size_source_names[r->size_source], -1, SQLITE_STATIC);
        break;
    case C_CALL_UID: tsql_result_uid(ctx, r->call); break;
    case C_OP_UID: tsql_result_uid(ctx, r->op); break;
    case C_OP_NAME:
        if (r->op != TSQL_NONE) tsql_result_str(ctx, t, t->name[r->op]);
        break;
    case C_ANN_UID: tsql_result_uid(ctx, r->annotation); break;
    case C_CALL_TS:
        if (host != TSQL_NONE && t->ts_ns[host] != TSQL_NULL) sqlite3_result_double(ctx, tsql_trace_ts_us(t, host));
        break;
    case C_CALL_DUR:
        if (host != TSQL_NONE && t->dur_ns[host] != TSQL_NULL)
            sqlite3_result_double(ctx, tsql_trace_dur_us(t, host));
        break;
    default:
        if (col >= C_TL_PG && col <= C_TL_SEQ) result_pycell(ctx, &r->tl[TSQL_COLL_TL_PG + (col - C_TL_PG)]);
        break;
    }
    return SQLITE_OK;
}

static const uint8_t coll_event_fields[C_TRACE] = {
    [C_NAME] = TSQL_EV_NAME, [C_STREAM] = TSQL_EV_STREAM, [C_DEVICE] = TSQL_EV_DEVICE,
    [C_TS] = TSQL_EV_TS, [C_DUR] = TSQL_EV_DUR, [C_TS_NS] = TSQL_EV_TS_NS, [C_DUR_NS] = TSQL_EV_DUR_NS,
};

static const tsql_table tsql_table_collectives = {
    .name = "collectives",
    .risk = TSQL_TOP_LEVEL, /* its trace argument may be a path */
    .schema = "CREATE TABLE x(" COLL_COLUMNS(TSQL_COL_DECL) "trace HIDDEN)",
    .col_trace = C_TRACE,
    .col_trace_id = C_TRACE_ID,
    .col_uid = C_UID,
    .nrows = coll_nrows,
    .column = coll_column,
    .prepare = coll_prepare,
    .uid_of_row = coll_uid_of_row,
    .rows_by_uid = 1,
    .event_fields = coll_event_fields,
};

const tsql_registration tsql_reg_collectives = {.what = "collectives", TSQL_TABLES(&tsql_table_collectives)};
