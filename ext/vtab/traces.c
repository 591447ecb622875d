/*
 * traces.c — the `traces` table: one row per trace open on the connection.
 *
 *   SELECT trace_id, label, path, events FROM traces;
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include "catalog/registration.h"
#include "vtab/table.h"

#define TRACES_COLUMNS(X)                                                               \
    X(TRACE_ID, "trace_id INTEGER")                                                     \
    X(LABEL, "label TEXT")                                                              \
    X(PATH, "path TEXT")                                                                \
    X(FORMAT, "format TEXT")                                                            \
    X(BYTES, "bytes INTEGER")                                                           \
    X(JSON_BYTES, "json_bytes INTEGER")                                                 \
    X(EVENTS, "events INTEGER")                                                         \
    X(GPU_EVENTS, "gpu_events INTEGER")                                                 \
    X(RANK, "rank INTEGER")                                                             \
    X(WORLD_SIZE, "world_size INTEGER")                                                 \
    X(DEVICES, "devices INTEGER")                                                       \
    X(GPU_NAME, "gpu_name TEXT")                                                        \
    X(BASE_TIME_NS, "base_time_ns INTEGER")                                             \
    X(LOAD_SECONDS, "load_seconds REAL")                                                \
    X(MEMORY_BYTES, "memory_bytes INTEGER")                                             \
    X(WARNINGS, "warnings INTEGER")                                                     \
    X(LINK_KEY, "link_key TEXT")                                                        \
    X(TL_COMPATIBLE, "tl_compatible INTEGER")                                           \
    X(WHOLE_US, "whole_us INTEGER")

enum { TRACES_COLUMNS(TSQL_COL_ENUM) METADATA };

/* one row per open trace: the shared machinery iterates the traces */
static uint32_t traces_nrows(const tsql_trace *t)
{
    (void)t;
    return 1;
}

static int traces_column(tsql_cursor *cur, sqlite3_context *ctx, int col)
{
    const tsql_entry *e = cur->e;
    const tsql_trace *t = e->trace;
    static const char *const formats[] = {"json", "gzip", "zip"};
    switch (col) {
    case LABEL: sqlite3_result_text(ctx, e->label, -1, SQLITE_TRANSIENT); break;
    case PATH: sqlite3_result_text(ctx, t->path, -1, SQLITE_TRANSIENT); break;
    case FORMAT: sqlite3_result_text(ctx, formats[t->format], -1, SQLITE_STATIC); break;
    case BYTES: sqlite3_result_int64(ctx, t->file_bytes); break;
    case JSON_BYTES: sqlite3_result_int64(ctx, t->json_bytes); break;
    case EVENTS: sqlite3_result_int64(ctx, t->n); break;
    case GPU_EVENTS: sqlite3_result_int64(ctx, t->kernels.n); break;
    case RANK: tsql_result_i64(ctx, t->rank); break;
    case WORLD_SIZE: tsql_result_i64(ctx, t->world_size); break;
    case DEVICES: tsql_result_i64(ctx, t->devices); break;
    case GPU_NAME:
        if (t->gpu_name) sqlite3_result_text(ctx, t->gpu_name, -1, SQLITE_TRANSIENT);
        break;
    case BASE_TIME_NS: tsql_result_i64(ctx, t->base_time_ns); break;
    case LOAD_SECONDS: sqlite3_result_double(ctx, t->load_seconds); break;
    case MEMORY_BYTES: sqlite3_result_int64(ctx, (sqlite3_int64)t->mem_used); break;
    case WARNINGS: sqlite3_result_int64(ctx, (sqlite3_int64)t->warnings_total); break;
    case LINK_KEY:
        sqlite3_result_text(ctx, t->link_key_is_external ? "External id" : "correlation", -1,
                            SQLITE_STATIC);
        break;
    case TL_COMPATIBLE: sqlite3_result_int(ctx, !t->bare_array && !t->old_spelling); break;
    case WHOLE_US: {
        /* pandas holds TraceLens's kernel durations as integers then (docs/report.md) */
        int whole = tsql_trace_whole_us(e->trace);
        if (whole < 0) return SQLITE_NOMEM;
        sqlite3_result_int(ctx, whole);
        break;
    }
    case METADATA: sqlite3_result_text(ctx, t->metadata, -1, SQLITE_TRANSIENT); break;
    default: break;
    }
    return SQLITE_OK;
}

static sqlite3_int64 traces_rowid(tsql_cursor *cur)
{
    return cur->e->id;
}

/* no trace parameter (it reads no file), but its paths show where the user's files
 * are: a schema reads it only while trusted_schema is ON */
static const tsql_table traces_table = {
    .name = "traces",
    .risk = TSQL_TRUSTED,
    .schema = "CREATE TABLE x(" TRACES_COLUMNS(TSQL_COL_DECL) "metadata TEXT)",
    .col_trace = -1,
    .col_trace_id = TRACE_ID,
    .nrows = traces_nrows,
    .column = traces_column,
    .rowid = traces_rowid,
};

const tsql_registration tsql_reg_traces = {.what = "traces", TSQL_TABLES(&traces_table)};
