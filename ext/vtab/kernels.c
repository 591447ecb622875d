/*
 * kernels.c — the `kernels` table: one row per GPU activity (kernel, memcpy,
 * memset) with the runtime call that launched it and the CPU ops around that call.
 *
 *   SELECT op_name, count(*), sum(dur) FROM kernels('run.json.gz') GROUP BY op_name;
 *   SELECT * FROM kernels WHERE trace_id = 1 AND correlation = 682852;
 *
 * launcher_uid is the launching runtime/driver call found by flow or correlation id
 * (link_kind says how); tl_runtime_uid / tl_launcher_uid are what TraceLens computes
 * (NULL where TraceLens drops the event). Columns and units: docs/schema.md.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <stdlib.h>
#include <string.h>

#include "tree/tree.h"
#include "text/jsonlex.h"
#include "catalog/registration.h"
#include "vtab/table.h"

#define KERNELS_COLUMNS(X)                                                              \
    X(K_TRACE_ID, "trace_id INTEGER")                                                   \
    X(K_UID, "uid INTEGER")                                                             \
    X(K_KIND, "kind TEXT")                                                              \
    X(K_NAME, "name TEXT")                                                              \
    X(K_PID, "pid")                                                                     \
    X(K_TID, "tid")                                                                     \
    X(K_DEVICE, "device INTEGER")                                                       \
    X(K_STREAM, "stream INTEGER")                                                       \
    X(K_TS, "ts REAL")                                                                  \
    X(K_DUR, "dur REAL")                                                                \
    X(K_TS_NS, "ts_ns INTEGER")                                                         \
    X(K_DUR_NS, "dur_ns INTEGER")                                                       \
    X(K_CORRELATION, "correlation INTEGER")                                             \
    X(K_EXTERNAL_ID, "external_id INTEGER")                                             \
    X(K_LAUNCHER_UID, "launcher_uid INTEGER")                                           \
    X(K_LAUNCHER_NAME, "launcher_name TEXT")                                            \
    X(K_LINK_KIND, "link_kind TEXT")                                                    \
    X(K_OP_UID, "op_uid INTEGER")                                                       \
    X(K_OP_NAME, "op_name TEXT")                                                        \
    X(K_ROOT_OP_UID, "root_op_uid INTEGER")                                             \
    X(K_ROOT_OP_NAME, "root_op_name TEXT")                                              \
    X(K_TL_RUNTIME_UID, "tl_runtime_uid INTEGER")                                       \
    X(K_TL_LAUNCHER_UID, "tl_launcher_uid INTEGER")                                     \
    X(K_IS_COMM, "is_comm INTEGER")                                                     \
    X(K_GRID, "grid TEXT")                                                              \
    X(K_BLOCK, "block TEXT")                                                            \
    X(K_BYTES, "bytes INTEGER")                                                         \
    X(K_REGISTERS, "registers_per_thread INTEGER")                                      \
    X(K_SHARED_MEM, "shared_memory INTEGER")

enum { KERNELS_COLUMNS(TSQL_COL_ENUM) K_TRACE };

static uint32_t kernels_nrows(const tsql_trace *t)
{
    return t->kernels.n;
}

static uint32_t kernels_row_of_uid(const tsql_trace *t, uint32_t uid)
{
    return tsql_kernel_row(t, uid);
}

/* Integer member of the args, e.g. "registers per thread". */
static void result_arg_int(sqlite3_context *ctx, const tsql_trace *t, uint32_t u, const char *key)
{
    size_t n;
    const char *v = tsql_trace_arg_raw(t, u, key, &n);
    int64_t x;
    if (v && tsql_parse_int64(v, n, &x) == 0) sqlite3_result_int64(ctx, x);
}

static int kernels_column(tsql_cursor *cur, sqlite3_context *ctx, int col)
{
    const tsql_trace *t = cur->e->trace;
    const tsql_kernels *K = &t->kernels;
    uint32_t k = cur->row, u = K->uid[k];
    switch (col) {
    case K_UID: sqlite3_result_int64(ctx, u); break;
    case K_LAUNCHER_UID: tsql_result_uid(ctx, K->runtime[k]); break;
    case K_LAUNCHER_NAME:
        if (K->runtime[k] != TSQL_NONE) tsql_result_str(ctx, t, t->name[K->runtime[k]]);
        break;
    case K_LINK_KIND:
        if (K->link[k]) sqlite3_result_text(ctx, tsql_link_names[K->link[k]], -1, SQLITE_STATIC);
        break;
    case K_OP_UID: tsql_result_uid(ctx, K->op[k]); break;
    case K_OP_NAME:
        if (K->op[k] != TSQL_NONE) tsql_result_str(ctx, t, t->name[K->op[k]]);
        break;
    case K_ROOT_OP_UID: tsql_result_uid(ctx, K->root_op[k]); break;
    case K_ROOT_OP_NAME:
        if (K->root_op[k] != TSQL_NONE) tsql_result_str(ctx, t, t->name[K->root_op[k]]);
        break;
    case K_TL_RUNTIME_UID: tsql_result_uid(ctx, K->tl_runtime[k]); break;
    case K_TL_LAUNCHER_UID: tsql_result_uid(ctx, K->tl_launcher[k]); break;
    case K_IS_COMM: sqlite3_result_int(ctx, K->is_comm[k]); break;
    case K_GRID: tsql_result_arg(ctx, t, u, "grid"); break;
    case K_BLOCK: tsql_result_arg(ctx, t, u, "block"); break;
    case K_BYTES: {
        /* "bytes" is pooled (it varies per copy): expand the args to read it */
        cur->buf.n = 0;
        if (!t->args[u]) break;
        if (tsql_trace_args_json(t, u, &cur->buf) < 0) return SQLITE_NOMEM;
        size_t n;
        const char *v = tsql_template_member(cur->buf.p, cur->buf.n, "bytes", &n);
        int64_t x;
        if (v && tsql_parse_int64(v, n, &x) == 0) sqlite3_result_int64(ctx, x);
        break;
    }
    case K_REGISTERS: result_arg_int(ctx, t, u, "registers per thread"); break;
    case K_SHARED_MEM: result_arg_int(ctx, t, u, "shared memory"); break;
    default: break;
    }
    return SQLITE_OK;
}

static uint32_t kernels_uid_of_row(const tsql_trace *t, uint32_t row)
{
    return t->kernels.uid[row];
}

/* kernels by launching runtime call, and by innermost cpu_op of the launch */
static int64_t launcher_of_row(const tsql_trace *t, uint32_t row)
{
    uint32_t u = t->kernels.runtime[row];
    return u == TSQL_NONE ? TSQL_NULL : u;
}
static int64_t op_of_row(const tsql_trace *t, uint32_t row)
{
    uint32_t u = t->kernels.op[row];
    return u == TSQL_NONE ? TSQL_NULL : u;
}
static void *build_launcher_index(tsql_trace *t) { return tsql_key_index_build(t, t->kernels.n, launcher_of_row); }
static void *build_op_index(tsql_trace *t) { return tsql_key_index_build(t, t->kernels.n, op_of_row); }
static const tsql_cache_kind launcher_index = {"kernels.launcher_uid", build_launcher_index, tsql_key_index_free};
static const tsql_cache_kind op_index = {"kernels.op_uid", build_op_index, tsql_key_index_free};

static const uint8_t kernels_event_fields[K_TRACE] = {
    [K_KIND] = TSQL_EV_KIND, [K_NAME] = TSQL_EV_NAME, [K_PID] = TSQL_EV_PID,
    [K_TID] = TSQL_EV_TID, [K_DEVICE] = TSQL_EV_DEVICE, [K_STREAM] = TSQL_EV_STREAM,
    [K_TS] = TSQL_EV_TS, [K_DUR] = TSQL_EV_DUR, [K_TS_NS] = TSQL_EV_TS_NS,
    [K_DUR_NS] = TSQL_EV_DUR_NS, [K_CORRELATION] = TSQL_EV_CORRELATION,
    [K_EXTERNAL_ID] = TSQL_EV_EXTERNAL_ID,
};

static const tsql_table tsql_table_kernels = {
    .name = "kernels",
    .risk = TSQL_TOP_LEVEL, /* its trace argument may be a path */
    .schema = "CREATE TABLE x(" KERNELS_COLUMNS(TSQL_COL_DECL) "trace HIDDEN)",
    .col_trace = K_TRACE,
    .col_trace_id = K_TRACE_ID,
    .col_uid = K_UID,
    .col_corr = K_CORRELATION,
    .nrows = kernels_nrows,
    .row_of_uid = kernels_row_of_uid,
    .column = kernels_column,
    .uid_of_row = kernels_uid_of_row,
    .rows_by_uid = 1,
    .keys = {{K_LAUNCHER_UID, &launcher_index}, {K_OP_UID, &op_index}},
    .event_fields = kernels_event_fields,
};

const tsql_registration tsql_reg_kernels = {.what = "kernels", TSQL_TABLES(&tsql_table_kernels)};
