/*
 * module_tree.c — the `module_tree` table: one row per nn.Module instance of a trace
 * recorded with Python stacks, parents before children (by start time), with the GPU
 * time of each. Built when a query first reads a trace and kept with it
 * (core/analysis/module_tree.c: one pass over the tree and the kernels).
 *
 *   SELECT path, gpu_events, gpu_time_us FROM module_tree('run.json.gz') WHERE depth <= 2;
 *
 * Columns and units: docs/analyses.md. The view module_summary
 * (sql/modules/module_summary.sql) builds on it.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include "analysis/module_tree.h"
#include "catalog/registration.h"
#include "vtab/table.h"

#define MT_COLUMNS(X)                                                                   \
    X(M_TRACE_ID, "trace_id INTEGER")                                                   \
    X(M_UID, "uid INTEGER")                                                             \
    X(M_NAME, "name TEXT")                                                              \
    X(M_MODULE, "module TEXT")                                                          \
    X(M_INSTANCE, "instance INTEGER")                                                   \
    X(M_PARENT_UID, "parent_uid INTEGER")                                               \
    X(M_DEPTH, "depth INTEGER")                                                         \
    X(M_PATH, "path TEXT")                                                              \
    X(M_PID, "pid")                                                                     \
    X(M_TID, "tid")                                                                     \
    X(M_TS, "ts REAL")                                                                  \
    X(M_DUR, "dur REAL")                                                                \
    X(M_CHILD_MODULES, "child_modules INTEGER")                                         \
    X(M_GPU_EVENTS, "gpu_events INTEGER")                                               \
    X(M_GPU_TIME, "gpu_time_us REAL")                                                   \
    X(M_SELF_GPU_TIME, "self_gpu_time_us REAL")                                         \
    X(M_PARENT_GPU_TIME, "parent_gpu_time_us REAL")                                     \
    X(M_PCT_OF_PARENT, "pct_of_parent_gpu REAL")

enum { MT_COLUMNS(TSQL_COL_ENUM) M_TRACE };

static int mt_prepare(tsql_trace *t)
{
    return tsql_modules_get(t) ? 0 : -1;
}

static uint32_t mt_nrows(const tsql_trace *t)
{
    const tsql_modules *m = tsql_modules_peek(t);
    return m ? (uint32_t)m->n : 0;
}

static uint32_t mt_uid_of_row(const tsql_trace *t, uint32_t row)
{
    return tsql_modules_peek(t)->rows[row].uid;
}

static int mt_column(tsql_cursor *cur, sqlite3_context *ctx, int col)
{
    const tsql_trace *t = cur->e->trace;
    const tsql_modules *ms = tsql_modules_peek(t);
    const tsql_module *m = &ms->rows[cur->row];
    switch (col) {
    case M_UID: sqlite3_result_int64(ctx, m->uid); break;
    case M_MODULE:
        sqlite3_result_text(ctx, tsql_intern_str(&t->strings, t->name[m->uid]) + m->class_off,
                            (int)m->class_len, SQLITE_STATIC); /* interned: lives with the trace */
        break;
    case M_INSTANCE: tsql_result_i64(ctx, m->instance); break;
    case M_PARENT_UID: tsql_result_uid(ctx, m->parent); break;
    case M_DEPTH: sqlite3_result_int64(ctx, m->depth); break;
    case M_PATH: sqlite3_result_text(ctx, ms->paths + m->path_off, (int)m->path_len, SQLITE_STATIC); break;
    case M_CHILD_MODULES: sqlite3_result_int64(ctx, m->child_modules); break;
    case M_GPU_EVENTS: sqlite3_result_int64(ctx, m->gpu_events); break;
    case M_GPU_TIME: sqlite3_result_double(ctx, m->gpu_time_us); break;
    case M_SELF_GPU_TIME: sqlite3_result_double(ctx, m->self_gpu_time_us); break;
    case M_PARENT_GPU_TIME: tsql_result_real(ctx, m->parent_gpu_time_us); break;
    case M_PCT_OF_PARENT: tsql_result_real(ctx, m->pct_of_parent_gpu); break;
    default: break;
    }
    return SQLITE_OK;
}

static const uint8_t mt_event_fields[M_TRACE] = {
    [M_NAME] = TSQL_EV_NAME, [M_PID] = TSQL_EV_PID, [M_TID] = TSQL_EV_TID,
    [M_TS] = TSQL_EV_TS, [M_DUR] = TSQL_EV_DUR,
};

static const tsql_table tsql_table_module_tree = {
    .name = "module_tree",
    .risk = TSQL_TOP_LEVEL, /* its trace argument may be a path */
    .schema = "CREATE TABLE x(" MT_COLUMNS(TSQL_COL_DECL) "trace HIDDEN)",
    .col_trace = M_TRACE,
    .col_trace_id = M_TRACE_ID,
    .nrows = mt_nrows,
    .column = mt_column,
    .prepare = mt_prepare,
    .uid_of_row = mt_uid_of_row,
    .event_fields = mt_event_fields,
};

const tsql_registration tsql_reg_module_tree = {.what = "module_tree", TSQL_TABLES(&tsql_table_module_tree)};
