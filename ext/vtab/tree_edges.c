/*
 * tree_edges.c — the `tree_edges` table: one row per parent -> child edge.
 *
 *   SELECT e.name FROM tree_edges('run.json.gz') t JOIN events e
 *     ON e.trace_id = t.trace_id AND e.uid = t.child_uid WHERE t.parent_uid = 214;
 *
 * kind: 'cpu' (nesting by time on one thread), 'launch' (runtime call -> GPU work),
 * 'python' (Python frame -> frame by Python parent id). tl = 1 when TraceLens's tree
 * has the same edge.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include "catalog/registration.h"
#include "vtab/table.h"

#define EDGES_COLUMNS(X)                                                                \
    X(TE_TRACE_ID, "trace_id INTEGER")                                                  \
    X(TE_PARENT_UID, "parent_uid INTEGER")                                              \
    X(TE_CHILD_UID, "child_uid INTEGER")                                                \
    X(TE_KIND, "kind TEXT")                                                             \
    X(TE_TL, "tl INTEGER")

enum { EDGES_COLUMNS(TSQL_COL_ENUM) TE_TRACE };

static uint32_t edges_nrows(const tsql_trace *t)
{
    return t->n;
}

static uint32_t edges_row_of_uid(const tsql_trace *t, uint32_t uid)
{
    return uid < t->n && t->parent[uid] != TSQL_NONE ? uid : UINT32_MAX;
}

/* 1 if TraceLens has this edge. */
static int tl_has_edge(const tsql_trace *t, uint32_t child)
{
    if (t->edge[child] == TSQL_EDGE_PYTHON) return 0; /* python frames off by default */
    if ((t->flags[child] | t->flags[t->parent[child]]) & TSQL_F_OLD_SPELLING) return 0;
    if (t->edge[child] == TSQL_EDGE_CPU) return !(t->flags[child] & TSQL_F_TL_DROPPED);
    /* launch edge: TraceLens links it only by flow or graph launch */
    uint32_t lo = 0, hi = t->kernels.n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (t->kernels.uid[mid] < child) lo = mid + 1; else hi = mid;
    }
    return lo < t->kernels.n && t->kernels.tl_runtime[lo] == t->parent[child];
}

static int edges_column(tsql_cursor *cur, sqlite3_context *ctx, int col)
{
    const tsql_trace *t = cur->e->trace;
    uint32_t u = cur->row;
    switch (col) {
    case TE_PARENT_UID: sqlite3_result_int64(ctx, t->parent[u]); break;
    case TE_CHILD_UID: sqlite3_result_int64(ctx, u); break;
    case TE_KIND:
        sqlite3_result_text(ctx, tsql_edge_names[t->edge[u]], -1, SQLITE_STATIC);
        break;
    case TE_TL: sqlite3_result_int(ctx, tl_has_edge(t, u)); break;
    default: break;
    }
    return SQLITE_OK;
}

static int edges_skip_row(const tsql_trace *t, uint32_t row)
{
    return t->parent[row] == TSQL_NONE;
}

static const tsql_table tsql_table_tree_edges = {
    .name = "tree_edges",
    .risk = TSQL_TOP_LEVEL, /* its trace argument may be a path */
    .schema = "CREATE TABLE x(" EDGES_COLUMNS(TSQL_COL_DECL) "trace HIDDEN)",
    .col_trace = TE_TRACE,
    .col_trace_id = TE_TRACE_ID,
    .col_uid = TE_CHILD_UID,
    .col_parent = TE_PARENT_UID,
    .nrows = edges_nrows,
    .row_of_uid = edges_row_of_uid,
    .column = edges_column,
    .skip_row = edges_skip_row,
    .uid_of_row = tsql_row_is_uid,
    .rows_by_uid = 1,
};

const tsql_registration tsql_reg_tree_edges = {.what = "tree_edges", TSQL_TABLES(&tsql_table_tree_edges)};
