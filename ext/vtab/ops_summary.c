/*
 * vtab_ops_summary.c — the `ops_summary` table: TraceLens's ops_summary sheet
 * (reference-semantics §6.4). One row per launcher name: the direct and subtree GPU
 * busy time summed over its launcher instances, how many there are, their op
 * categories, and the share of all direct kernel time. Rows in the sheet's order
 * (direct time descending; ties by name).
 *
 *   SELECT name, total_direct_kernel_time_ms, percentage FROM ops_summary(1) LIMIT 10;
 *
 * Per-instance rows are in `kernel_launchers`. Columns and units: docs/schema.md.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include "analysis/attribution.h"
#include "vtab/table.h"

#define OPS_COLUMNS(X)                                                                  \
    X(O_TRACE_ID, "trace_id INTEGER")                                                   \
    X(O_RANK, "rank INTEGER")                                                           \
    X(O_NAME, "name TEXT")                                                              \
    X(O_DIRECT_SUM, "total_direct_kernel_time_sum REAL")                                \
    X(O_SUBTREE_SUM, "total_subtree_kernel_time_sum REAL")                              \
    X(O_DIRECT_MS, "total_direct_kernel_time_ms REAL")                                  \
    X(O_SUBTREE_MS, "total_subtree_kernel_time_ms REAL")                                \
    X(O_COUNT, "count INTEGER")                                                         \
    X(O_CATEGORIES, "categories TEXT")                                                  \
    X(O_PCT, "percentage REAL")                                                         \
    X(O_CUM_PCT, "cumulative_percentage REAL")                                          \
    X(O_EX_UID, "ex_uid INTEGER")

enum { OPS_COLUMNS(TSQL_COL_ENUM) O_TRACE };

static int ops_prepare(tsql_trace *t)
{
    return tsql_attrib_get(t) ? 0 : -1;
}

static uint32_t ops_nrows(const tsql_trace *t)
{
    const tsql_attrib *a = tsql_attrib_peek(t);
    return a ? a->ng : 0;
}

static uint32_t ops_row_of_uid(const tsql_trace *t, uint32_t uid)
{
    (void)t;
    (void)uid;
    return UINT32_MAX;
}

static int ops_column(tsql_cursor *cur, sqlite3_context *ctx, int col)
{
    const tsql_trace *t = cur->e->trace;
    const tsql_attrib *a = tsql_attrib_peek(t);
    uint32_t r = cur->row;
    switch (col) {
    case O_RANK: sqlite3_result_int64(ctx, r + 1); break;
    case O_NAME: tsql_result_str(ctx, t, a->g_name[r]); break;
    case O_DIRECT_SUM: sqlite3_result_double(ctx, a->g_direct_sum[r]); break;
    case O_SUBTREE_SUM: sqlite3_result_double(ctx, a->g_subtree_sum[r]); break;
    case O_DIRECT_MS: sqlite3_result_double(ctx, a->g_direct_sum[r] / 1000.0); break;
    case O_SUBTREE_MS: sqlite3_result_double(ctx, a->g_subtree_sum[r] / 1000.0); break;
    case O_COUNT: sqlite3_result_int64(ctx, a->g_count[r]); break;
    case O_CATEGORIES: sqlite3_result_text(ctx, a->g_categories[r], -1, SQLITE_STATIC); break;
    case O_PCT:
        if (a->g_direct_total > 0)
            sqlite3_result_double(ctx, a->g_direct_sum[r] / 1000.0 / a->g_direct_total * 100.0);
        break;
    case O_CUM_PCT: sqlite3_result_double(ctx, a->g_cum_pct[r]); break;
    case O_EX_UID: sqlite3_result_int64(ctx, a->uid[a->g_first[r]]); break;
    default: break;
    }
    return SQLITE_OK;
}

static const tsql_table ops_table = {
    .schema = "CREATE TABLE x(" OPS_COLUMNS(TSQL_COL_DECL) "trace HIDDEN)",
    .col_trace = O_TRACE,
    .col_trace_id = O_TRACE_ID,
    .col_uid = -1,
    .col_parent = -1,
    .col_corr = -1,
    .nrows = ops_nrows,
    .row_of_uid = ops_row_of_uid,
    .column = ops_column,
    .prepare = ops_prepare,
};

int tsql_register_ops_summary(sqlite3 *db, tsql_catalog *c)
{
    return tsql_register_table(db, "ops_summary", &ops_table, c);
}
