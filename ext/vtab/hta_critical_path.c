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
 * instance_id (which of them, from 0; NULL = 0). Times are absolute µs.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <string.h>

#include "analysis/hta.h"
#include "analysis/hta_critical_path.h"
#include "vtab/hta.h"
#include "vtab/table.h"

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

typedef struct cp_scan {
    const tsql_hta_rows *r;
    tsql_hta_cp *cp;
} cp_scan;

static void cp_mat_free(void *p)
{
    cp_scan *s = p;
    if (s) tsql_hta_cp_free(s->cp);
    sqlite3_free(s);
}

/* a 0/1 argument (NULL = def); -1 if it is something else */
static int flag_arg(sqlite3_value *v, int def)
{
    if (!v || sqlite3_value_type(v) == SQLITE_NULL) return def;
    double d = sqlite3_value_double(v);
    if (sqlite3_value_numeric_type(v) != SQLITE_INTEGER || (d != 0 && d != 1)) return -1;
    return d != 0;
}

static long cp_materialize(tsql_cursor *cur, tsql_trace *t, char **err)
{
    int rounding = flag_arg(cur->param[0], 1), kept = flag_arg(cur->param[1], 0);
    if (rounding < 0) {
        *err = sqlite3_mprintf("hta_cp_path: time_rounding must be 1 (HTA's rounding to whole µs) or 0 (none)");
        return -1;
    }
    if (kept < 0) {
        *err = sqlite3_mprintf("hta_cp_path: kept_only must be 1 (rows the last-step cut keeps) or 0 (all)");
        return -1;
    }
    const char *annotation = "ProfilerStep";
    sqlite3_value *a = cur->param[2], *n = cur->param[3];
    if (a && sqlite3_value_type(a) != SQLITE_NULL) {
        if (sqlite3_value_type(a) != SQLITE_TEXT) {
            *err = sqlite3_mprintf("hta_cp_path: annotation must be text (part of an event name, '' = the whole trace)");
            return -1;
        }
        annotation = (const char *)sqlite3_value_text(a);
    }
    sqlite3_int64 instance = 0;
    if (n && sqlite3_value_type(n) != SQLITE_NULL) {
        instance = sqlite3_value_int64(n);
        if (sqlite3_value_numeric_type(n) != SQLITE_INTEGER || instance < 0) {
            *err = sqlite3_mprintf("hta_cp_path: instance_id must be a whole number >= 0 (which annotation, from 0)");
            return -1;
        }
    }
    const tsql_hta_rows *r = tsql_trace_cached(t, rounding ? &tsql_hta_rows_kind : &tsql_hta_rows_unrounded_kind);
    cp_scan *s = sqlite3_malloc(sizeof *s);
    if (!r || !s || !annotation) {
        sqlite3_free(s);
        return -1;
    }
    s->r = r;
    s->cp = NULL;
    char msg[400];
    int rc = tsql_hta_cp_build(t, r, kept, annotation, instance, &s->cp, msg, sizeof msg);
    if (rc) {
        cp_mat_free(s);
        if (rc > 0) *err = sqlite3_mprintf("hta_cp_path: %s", msg);
        return -1;
    }
    cur->mat = s;
    return s->cp->npath;
}

static int cp_column(tsql_cursor *cur, sqlite3_context *ctx, int col)
{
    const cp_scan *s = cur->mat;
    const tsql_hta_rows *r = s->r;
    const tsql_hta_cp_edge *e = &s->cp->path[cur->row];
    tsql_trace *t = cur->e->trace;
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
    case C_GRAPH_NODES: sqlite3_result_int64(ctx, s->cp->ngraph_nodes); break;
    case C_GRAPH_EDGES: sqlite3_result_int64(ctx, s->cp->nedges); break;
    case C_ROUNDING:
        sqlite3_result_int(ctx, tsql_trace_cached(t, &tsql_hta_rows_kind) == r);
        break;
    case C_KEPT:
    case C_ANNOTATION:
    case C_INSTANCE:
        if (cur->param[col - C_ROUNDING]) sqlite3_result_value(ctx, cur->param[col - C_ROUNDING]);
        break;
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

const tsql_table tsql_table_hta_cp_path = {
    .name = "hta_cp_path",
    .risk = TSQL_TOP_LEVEL, /* its trace argument may be a path */
    .schema = "CREATE TABLE x(" HTA_CP_COLUMNS(TSQL_COL_DECL)
              "trace HIDDEN, time_rounding HIDDEN, kept_only HIDDEN, annotation HIDDEN, instance_id HIDDEN)",
    .col_trace = C_TRACE,
    .col_trace_id = C_TRACE_ID,
    .column = cp_column,
    .params = {C_ROUNDING, C_KEPT, C_ANNOTATION, C_INSTANCE},
    .nparams = 4,
    .materialize = cp_materialize,
    .mat_free = cp_mat_free,
    .col_seq = C_POS,
};
