/*
 * events.c — the `events` table: one row per trace event, in file order.
 *
 *   SELECT name, dur FROM events('run.json.gz') WHERE kind = 'cpu_op' ORDER BY dur DESC;
 *   SELECT * FROM events WHERE trace_id = 1 AND uid = 215;          -- index lookup
 *   SELECT * FROM events WHERE trace_id = 1 AND parent_uid = 214;   -- children
 *
 * Columns and units: docs/schema.md.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include "catalog/registration.h"
#include "vtab/table.h"

#define EVENTS_COLUMNS(X)                                                               \
    X(EV_TRACE_ID, "trace_id INTEGER")                                                  \
    X(EV_UID, "uid INTEGER")                                                            \
    X(EV_PH, "ph TEXT")                                                                 \
    X(EV_CAT, "cat TEXT")                                                               \
    X(EV_KIND, "kind TEXT")                                                             \
    X(EV_NAME, "name TEXT")                                                             \
    X(EV_PID, "pid")                                                                    \
    X(EV_TID, "tid")                                                                    \
    X(EV_TS, "ts REAL")                                                                 \
    X(EV_DUR, "dur REAL")                                                               \
    X(EV_TS_NS, "ts_ns INTEGER")                                                        \
    X(EV_DUR_NS, "dur_ns INTEGER")                                                      \
    X(EV_END_NS, "end_ns INTEGER")                                                      \
    X(EV_STREAM, "stream INTEGER")                                                      \
    X(EV_DEVICE, "device INTEGER")                                                      \
    X(EV_CORRELATION, "correlation INTEGER")                                            \
    X(EV_EXTERNAL_ID, "external_id INTEGER")                                            \
    X(EV_FLOW_ID, "flow_id INTEGER")                                                    \
    X(EV_FLOW_BP, "flow_bp TEXT")                                                       \
    X(EV_SEQ, "seq INTEGER")                                                            \
    X(EV_PYTHON_ID, "python_id INTEGER")                                                \
    X(EV_PYTHON_PARENT_ID, "python_parent_id INTEGER")                                  \
    X(EV_PARENT_UID, "parent_uid INTEGER")                                              \
    X(EV_DEPTH, "depth INTEGER")                                                        \
    X(EV_TL_DROPPED, "tl_dropped INTEGER")                                              \
    X(EV_TL_ROOT, "tl_root INTEGER")                                                    \
    X(EV_INPUT_DIMS, "input_dims TEXT")                                                 \
    X(EV_INPUT_TYPE, "input_type TEXT")                                                 \
    X(EV_INPUT_STRIDES, "input_strides TEXT")                                           \
    X(EV_CONCRETE_INPUTS, "concrete_inputs TEXT")                                       \
    X(EV_ARGS, "args TEXT")

enum { EVENTS_COLUMNS(TSQL_COL_ENUM) EV_TRACE };

static uint32_t events_nrows(const tsql_trace *t)
{
    return t->n;
}

static uint32_t events_row_of_uid(const tsql_trace *t, uint32_t uid)
{
    return uid < t->n ? uid : UINT32_MAX;
}

static int events_column(tsql_cursor *cur, sqlite3_context *ctx, int col)
{
    const tsql_trace *t = cur->e->trace;
    uint32_t u = cur->row;
    switch (col) {
    case EV_UID: sqlite3_result_int64(ctx, u); break;
    case EV_PH:
        if (t->ph[u]) sqlite3_result_text(ctx, (const char *)&t->ph[u], 1, SQLITE_TRANSIENT);
        break;
    case EV_END_NS:
        if (t->ts_ns[u] != TSQL_NULL && t->dur_ns[u] != TSQL_NULL) {
            int64_t e;
            if (!__builtin_add_overflow(t->ts_ns[u], t->dur_ns[u], &e)) sqlite3_result_int64(ctx, e);
        }
        break;
    case EV_FLOW_ID: tsql_result_i64(ctx, tsql_icol_get(&t->flow_id, u)); break;
    case EV_FLOW_BP:
        if (t->flags[u] & TSQL_F_BP_E) sqlite3_result_text(ctx, "e", 1, SQLITE_STATIC);
        break;
    case EV_SEQ: tsql_result_i64(ctx, tsql_icol_get(&t->seq, u)); break;
    case EV_PYTHON_ID: tsql_result_i64(ctx, tsql_icol_get(&t->python_id, u)); break;
    case EV_PYTHON_PARENT_ID: tsql_result_i64(ctx, tsql_icol_get(&t->python_parent, u)); break;
    case EV_PARENT_UID: tsql_result_uid(ctx, t->parent[u]); break;
    case EV_DEPTH: sqlite3_result_int(ctx, t->depth[u]); break;
    case EV_TL_DROPPED: sqlite3_result_int(ctx, (t->flags[u] & TSQL_F_TL_DROPPED) != 0); break;
    case EV_TL_ROOT: sqlite3_result_int(ctx, (t->flags[u] & TSQL_F_TL_ROOT) != 0); break;
    case EV_ARGS:
        if (t->args[u]) {
            cur->buf.n = 0;
            long n = tsql_trace_args_json(t, u, &cur->buf);
            if (n < 0) return SQLITE_NOMEM;
            sqlite3_result_text(ctx, cur->buf.p, (int)n, SQLITE_TRANSIENT);
        }
        break;
    default: break;
    }
    return SQLITE_OK;
}

static const uint8_t events_event_fields[EV_TRACE] = {
    [EV_CAT] = TSQL_EV_CAT, [EV_KIND] = TSQL_EV_KIND, [EV_NAME] = TSQL_EV_NAME,
    [EV_PID] = TSQL_EV_PID, [EV_TID] = TSQL_EV_TID, [EV_TS] = TSQL_EV_TS,
    [EV_DUR] = TSQL_EV_DUR, [EV_TS_NS] = TSQL_EV_TS_NS, [EV_DUR_NS] = TSQL_EV_DUR_NS,
    [EV_STREAM] = TSQL_EV_STREAM, [EV_DEVICE] = TSQL_EV_DEVICE,
    [EV_CORRELATION] = TSQL_EV_CORRELATION, [EV_EXTERNAL_ID] = TSQL_EV_EXTERNAL_ID,
    [EV_INPUT_DIMS] = TSQL_EV_INPUT_DIMS, [EV_INPUT_TYPE] = TSQL_EV_INPUT_TYPE,
    [EV_INPUT_STRIDES] = TSQL_EV_INPUT_STRIDES, [EV_CONCRETE_INPUTS] = TSQL_EV_CONCRETE_INPUTS,
};

static const tsql_table tsql_table_events = {
    .name = "events",
    .risk = TSQL_TOP_LEVEL, /* its trace argument may be a path */
    .schema = "CREATE TABLE x(" EVENTS_COLUMNS(TSQL_COL_DECL) "trace HIDDEN)",
    .col_trace = EV_TRACE,
    .col_trace_id = EV_TRACE_ID,
    .col_uid = EV_UID,
    .col_parent = EV_PARENT_UID,
    .col_corr = EV_CORRELATION,
    .nrows = events_nrows,
    .row_of_uid = events_row_of_uid,
    .column = events_column,
    .uid_of_row = tsql_row_is_uid,
    .rows_by_uid = 1,
    .event_fields = events_event_fields,
};

const tsql_registration tsql_reg_events = {.what = "events", TSQL_TABLES(&tsql_table_events)};
