/*
 * launchers.c — the `kernel_launchers` table: one row per op that GPU time is
 * charged to, TraceLens's way (docs/schema.md, kernel_launchers): for each GPU event the
 * nearest cpu_op above its launching runtime call (skipping cpu_ops named "execute"),
 * or the runtime call itself. Rows in TraceLens's launcher order (by ts, stable).
 *
 *   SELECT name, total_direct_kernel_time FROM kernel_launchers(1) ORDER BY 2 DESC;
 *
 * This is TraceLens's df_kernel_launchers: the input of ops_summary,
 * ops_summary_by_category and ops_unique_args. Columns and units: docs/schema.md.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/attribution.h"
#include "catalog/registration.h"
#include "vtab/table.h"

#define LAUNCHERS_COLUMNS(X)                                                            \
    X(L_TRACE_ID, "trace_id INTEGER")                                                   \
    X(L_UID, "uid INTEGER")                                                             \
    X(L_SEQ, "seq INTEGER")                                                             \
    X(L_NAME, "name TEXT")                                                              \
    X(L_KIND, "kind TEXT")                                                              \
    X(L_PID, "pid")                                                                     \
    X(L_TID, "tid")                                                                     \
    X(L_TS, "ts REAL")                                                                  \
    X(L_DUR, "dur REAL")                                                                \
    X(L_OP_CATEGORY, "op_category TEXT")                                                \
    X(L_DIRECT, "total_direct_kernel_time REAL")                                        \
    X(L_SUBTREE, "total_subtree_kernel_time REAL")                                      \
    X(L_COUNT, "direct_kernel_count INTEGER")                                           \
    X(L_KERNEL_DETAILS, "kernel_details TEXT")                                          \
    X(L_FIRST_KERNEL, "first_kernel_name TEXT")                                         \
    X(L_INPUT_DIMS, "input_dims TEXT")                                                  \
    X(L_INPUT_TYPE, "input_type TEXT")                                                  \
    X(L_INPUT_STRIDES, "input_strides TEXT")                                            \
    X(L_CONCRETE_INPUTS, "concrete_inputs TEXT")                                        \
    X(L_PROCESS_NAME, "process_name TEXT")                                              \
    X(L_PROCESS_LABEL, "process_label TEXT")                                            \
    X(L_THREAD_NAME, "thread_name TEXT")                                                \
    X(L_EXTERNAL_ID, "external_id INTEGER")

enum { LAUNCHERS_COLUMNS(TSQL_COL_ENUM) L_TRACE };

static int launchers_prepare(tsql_trace *t)
{
    return tsql_attrib_get(t) ? 0 : -1;
}

static uint32_t launchers_nrows(const tsql_trace *t)
{
    const tsql_attrib *a = tsql_attrib_peek(t);
    return a ? a->nl : 0;
}

static uint32_t launchers_row_of_uid(const tsql_trace *t, uint32_t uid)
{
    const tsql_attrib *a = tsql_attrib_peek(t);
    return a ? tsql_attrib_find(a, uid) : UINT32_MAX;
}


static uint32_t launchers_uid_of_row(const tsql_trace *t, uint32_t row)
{
    return tsql_attrib_peek(t)->uid[row];
}

static int launchers_column(tsql_cursor *cur, sqlite3_context *ctx, int col)
{
    tsql_trace *t = cur->e->trace;
    const tsql_attrib *a = tsql_attrib_peek(t);
    uint32_t i = cur->row, u = a->uid[i];
    switch (col) {
    case L_UID: sqlite3_result_int64(ctx, u); break;
    case L_SEQ: sqlite3_result_int64(ctx, i); break;
    case L_OP_CATEGORY: sqlite3_result_text(ctx, a->category[i], -1, SQLITE_STATIC); break;
    case L_DIRECT: sqlite3_result_double(ctx, a->direct_us[i]); break;
    case L_SUBTREE: sqlite3_result_double(ctx, a->subtree_us[i]); break;
    case L_COUNT: sqlite3_result_int64(ctx, a->direct_at[i + 1] - a->direct_at[i]); break;
    case L_KERNEL_DETAILS:
        if (tsql_kernel_details_json(t, a->direct + a->direct_at[i], a->direct_at[i + 1] - a->direct_at[i], 0, &cur->buf)) return SQLITE_NOMEM;
        sqlite3_result_text(ctx, cur->buf.p, (int)cur->buf.n, SQLITE_TRANSIENT);
        break;
    case L_FIRST_KERNEL:
        if (a->direct_at[i] < a->direct_at[i + 1]) tsql_result_str(ctx, t, t->name[a->direct[a->direct_at[i]]]);
        break;
    default: break;
    }
    return SQLITE_OK;
}

static const uint8_t launchers_event_fields[L_TRACE] = {
    [L_NAME] = TSQL_EV_NAME, [L_KIND] = TSQL_EV_KIND, [L_PID] = TSQL_EV_PID,
    [L_TID] = TSQL_EV_TID, [L_TS] = TSQL_EV_TS, [L_DUR] = TSQL_EV_DUR,
    [L_INPUT_DIMS] = TSQL_EV_INPUT_DIMS, [L_INPUT_TYPE] = TSQL_EV_INPUT_TYPE,
    [L_INPUT_STRIDES] = TSQL_EV_INPUT_STRIDES, [L_CONCRETE_INPUTS] = TSQL_EV_CONCRETE_INPUTS,
    [L_PROCESS_NAME] = TSQL_EV_PROCESS_NAME, [L_PROCESS_LABEL] = TSQL_EV_PROCESS_LABEL,
    [L_THREAD_NAME] = TSQL_EV_THREAD_NAME, [L_EXTERNAL_ID] = TSQL_EV_EXTERNAL_ID,
};

static const tsql_table tsql_table_kernel_launchers = {
    .name = "kernel_launchers",
    .risk = TSQL_TOP_LEVEL, /* its trace argument may be a path */
    .schema = "CREATE TABLE x(" LAUNCHERS_COLUMNS(TSQL_COL_DECL) "trace HIDDEN)",
    .col_trace = L_TRACE,
    .col_trace_id = L_TRACE_ID,
    .col_uid = L_UID,
    .nrows = launchers_nrows,
    .row_of_uid = launchers_row_of_uid,
    .column = launchers_column,
    .prepare = launchers_prepare,
    .uid_of_row = launchers_uid_of_row,
    .event_fields = launchers_event_fields,
};

const tsql_registration tsql_reg_launchers = {.what = "kernel_launchers", TSQL_TABLES(&tsql_table_kernel_launchers)};
