/*
 * warnings.c — the `trace_warnings` table: the recoveries made while loading.
 *
 *   SELECT code, count(*) FROM trace_warnings('run.json.gz') GROUP BY code;
 *
 * One row per warning the core recorded (core/store/store.c tsql_trace_warn), in the order
 * they were found: seq counts from 0 per trace. The core keeps the first 1000 of a
 * trace (traces.warnings counts them all). Messages are written "code: text" by the
 * core; code is that stable short word (ts_string, dur_negative, flow_unpaired, ...;
 * docs/schema.md lists them) and message the text after it.
 * byte_offset is where the event starts in the (uncompressed) JSON text, NULL for
 * warnings found after reading (tree building: use uid); uid is NULL when the warning
 * is about the whole file.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <string.h>

#include "catalog/registration.h"
#include "vtab/table.h"

#define WARN_COLUMNS(X)                                                                 \
    X(TW_TRACE_ID, "trace_id INTEGER")                                                  \
    X(TW_SEQ, "seq INTEGER")                                                            \
    X(TW_OFFSET, "byte_offset INTEGER")                                                 \
    X(TW_UID, "uid INTEGER")                                                            \
    X(TW_CODE, "code TEXT")                                                             \
    X(TW_MESSAGE, "message TEXT")

enum { WARN_COLUMNS(TSQL_COL_ENUM) TW_TRACE };

static uint32_t warn_nrows(const tsql_trace *t)
{
    return t->nwarnings;
}

static int64_t warn_uid(const tsql_trace *t, uint32_t row)
{
    return t->warnings[row].uid >= 0 ? t->warnings[row].uid : TSQL_NULL;
}
static uint32_t warn_uid_of_row(const tsql_trace *t, uint32_t row)
{
    return t->warnings[row].uid >= 0 ? (uint32_t)t->warnings[row].uid : UINT32_MAX;
}
static void *build_uid_index(tsql_trace *t) { return tsql_key_index_build(t, t->nwarnings, warn_uid); }
static const tsql_cache_kind uid_index = {"trace_warnings.uid", build_uid_index, tsql_key_index_free};

/* Length of the "code" prefix of msg (lowercase letters, digits, '_', then ": "),
 * or 0 when the message has none. */
static size_t code_len(const char *msg)
{
    size_t n = 0;
    while ((msg[n] >= 'a' && msg[n] <= 'z') || (msg[n] >= '0' && msg[n] <= '9') || msg[n] == '_')
        n++;
    return n > 0 && msg[n] == ':' && msg[n + 1] == ' ' ? n : 0;
}

static int warn_column(tsql_cursor *cur, sqlite3_context *ctx, int col)
{
    const tsql_warning *w = &cur->e->trace->warnings[cur->row];
    size_t k = code_len(w->msg);
    switch (col) {
    case TW_SEQ: sqlite3_result_int64(ctx, cur->row); break;
    case TW_OFFSET:
        if (w->offset >= 0) sqlite3_result_int64(ctx, w->offset);
        break;
    case TW_UID:
        if (w->uid >= 0) sqlite3_result_int64(ctx, w->uid);
        break;
    case TW_CODE:
        if (k) sqlite3_result_text(ctx, w->msg, (int)k, SQLITE_TRANSIENT);
        else sqlite3_result_text(ctx, "other", -1, SQLITE_STATIC);
        break;
    case TW_MESSAGE:
        sqlite3_result_text(ctx, w->msg + (k ? k + 2 : 0), -1, SQLITE_TRANSIENT);
        break;
    default: break;
    }
    return SQLITE_OK;
}

static const tsql_table tsql_table_trace_warnings = {
    .name = "trace_warnings",
    .risk = TSQL_TOP_LEVEL, /* its trace argument may be a path */
    .schema = "CREATE TABLE x(" WARN_COLUMNS(TSQL_COL_DECL) "trace HIDDEN)",
    .col_trace = TW_TRACE,
    .col_trace_id = TW_TRACE_ID,
    .col_uid = TW_UID,
    .nrows = warn_nrows,
    .column = warn_column,
    .uid_of_row = warn_uid_of_row,
    .keys = {{TW_UID, &uid_index}},
};

const tsql_registration tsql_reg_warnings = {.what = "trace_warnings", TSQL_TABLES(&tsql_table_trace_warnings)};
