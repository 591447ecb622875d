/*
 * hta_critical_path.c — HTA's critical path of one trace (core/analysis/hta_critical_path.c)
 * as the table hta_cp_path, one row per edge of the path in path order; the views
 * hta_critical_path_edges_v and hta_critical_path_summary_v (sql/hta/) read it, and
 * the functions hta_critical_path_edges / hta_critical_path_summary run them
 * (docs/hta.md):
 *
 *   SELECT * FROM hta_cp_path('run.json.gz', 1, 0, 'ProfilerStep', 0);
 *
 * HIDDEN arguments: trace, time_rounding (1 = HTA's rounding, NULL = 1), kept_only
 * (1 = only rows the last-step cut keeps; NULL = 0), annotation (rows whose name
 * contains it mark the window; '' = the whole trace; NULL = 'ProfilerStep') and
 * instance_id (which of them, from 0; NULL = 0), read by the shared shape of the HTA
 * tables (ext/vtab/hta_table.c). Times are absolute µs.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <string.h>

#include "analysis/hta.h"
#include "analysis/hta_critical_path.h"
#include "vtab/hta.h"

#define HTA_CP_COLUMNS(X)                                                               \
    X(C_TRACE_ID, "trace_id INTEGER")                                                   \
    X(C_POS, "path_pos INTEGER")                                                        \
    X(C_BEGIN_NODE, "begin_node INTEGER")                                               \
    X(C_END_NODE, "end_node INTEGER")                                                   \
    X(C_BEGIN_EV, "begin_ev INTEGER")                                                   \
    X(C_END_EV, "end_ev INTEGER")                                                       \
    X(C_BEGIN_TS, "begin_ts REAL")                                                      \
    X(C_END_TS, "end_ts REAL")                                                          \
    X(C_TYPE, "type TEXT")                                                              \
    X(C_WEIGHT, "weight REAL")                                                          \
    X(C_GRAPH_WEIGHT, "graph_weight REAL")                                              \
    X(C_EVENT_IDX, "event_idx INTEGER")                                                 \
    X(C_S_NAME, "s_name TEXT")                                                          \
    X(C_CAT, "cat TEXT")                                                                \
    X(C_PID, "pid")                                                                     \
    X(C_TID, "tid")                                                                     \
    X(C_STREAM, "stream INTEGER")                                                       \
    X(C_BOUND_BY, "bound_by TEXT")                                                      \
    X(C_GRAPH_NODES, "graph_nodes INTEGER")                                             \
    X(C_GRAPH_EDGES, "graph_edges INTEGER")

enum { HTA_CP_COLUMNS(TSQL_COL_ENUM) C_TRACE, C_ROUNDING, C_KEPT, C_ANNOTATION, C_INSTANCE };

static void cp_free(void *cp)
{
    tsql_hta_cp_free(cp);
}

static long cp_fill(tsql_hta_scan *s, char **err)
{
    char msg[400];
    tsql_hta_cp *cp = NULL;
    int rc = tsql_hta_cp_build(s->t, s->r, s->kept, s->text, s->number, &cp, msg, sizeof msg);
    if (rc) {
        if (rc > 0) *err = sqlite3_mprintf("hta_cp_path: %s", msg);
        return -1;
    }
    s->data = cp;
    s->free_data = cp_free;
    return cp->npath;
}

static int cp_column(tsql_cursor *cur, const tsql_hta_scan *s, sqlite3_context *ctx, int col)
{
    const tsql_hta_rows *r = s->r;
    const tsql_hta_cp *cp = s->data;
    const tsql_hta_cp_edge *e = &cp->path[cur->row];
    tsql_trace *t = s->t;
    uint32_t a = e->attributed, u = a != UINT32_MAX ? r->uid[a] : 0;
    switch (col) {
    case C_POS: sqlite3_result_int64(ctx, cur->row); break;
    case C_BEGIN_NODE: sqlite3_result_int64(ctx, e->begin); break;
    case C_END_NODE: sqlite3_result_int64(ctx, e->end); break;
    case C_BEGIN_EV: sqlite3_result_int64(ctx, r->uid[e->begin_row]); break;
    case C_END_EV: sqlite3_result_int64(ctx, r->uid[e->end_row]); break;
    case C_BEGIN_TS: sqlite3_result_double(ctx, e->begin_ts); break;
    case C_END_TS: sqlite3_result_double(ctx, e->end_ts); break;
    case C_TYPE: sqlite3_result_text(ctx, tsql_hta_cp_type_names[e->type], -1, SQLITE_STATIC); break;
    case C_WEIGHT: sqlite3_result_double(ctx, e->weight); break;
    case C_GRAPH_WEIGHT: sqlite3_result_double(ctx, e->graph_weight); break;
    case C_BOUND_BY: sqlite3_result_text(ctx, tsql_hta_cp_bound_names[e->bound], -1, SQLITE_STATIC); break;
    case C_GRAPH_NODES: sqlite3_result_int64(ctx, cp->ngraph_nodes); break;
    case C_GRAPH_EDGES: sqlite3_result_int64(ctx, cp->nedges); break;
    default:
        if (a == UINT32_MAX) break; /* no event: HTA's empty cells */
        switch (col) {
        case C_EVENT_IDX: sqlite3_result_int64(ctx, u); break;
        case C_CAT: tsql_result_str(ctx, t, t->cat[u]); break;
        case C_PID: tsql_result_pidtid(cur, ctx, t->pid[u]); break;
        case C_TID: tsql_result_pidtid(cur, ctx, t->tid[u]); break;
        case C_STREAM: sqlite3_result_int64(ctx, r->stream[a]); break;
        case C_S_NAME: {
            const char *name = tsql_intern_text(&t->strings, t->name[u]);
            size_t len = strlen(name) + 1;
            cur->buf.n = 0;
            if (tsql_buf_reserve(&cur->buf, len)) return SQLITE_NOMEM;
            tsql_hta_short_name(name, cur->buf.p, len);
            sqlite3_result_text(ctx, cur->buf.p, -1, SQLITE_TRANSIENT);
            break;
        }
        default: break;
        }
    }
    return SQLITE_OK;
}

const tsql_hta_table tsql_table_hta_cp_path = {
    .base = {.name = "hta_cp_path",
             .schema = "CREATE TABLE x(" HTA_CP_COLUMNS(TSQL_COL_DECL)
                       "trace HIDDEN, time_rounding HIDDEN, kept_only HIDDEN, annotation HIDDEN, instance_id HIDDEN)",
             .col_trace = C_TRACE,
             .col_trace_id = C_TRACE_ID,
             .params = {C_ROUNDING, C_KEPT, C_ANNOTATION, C_INSTANCE},
             .nparams = 4,
             .col_seq = C_POS,
             TSQL_HTA_TABLE_SHAPE},
    .args = {TSQL_HTA_ARG_KEPT, TSQL_HTA_ARG_ANNOTATION, TSQL_HTA_ARG_INSTANCE},
    .fill = cp_fill,
    .column = cp_column,
};
