/*
 * compare_events.c — compare_events and compare_event_groups: the GPU events of the traces
 * of the comparison call running now, served from the arrays of
 * core/analysis/compare_events.c (columns: docs/compare.md).
 *
 *   compare_events  one row per GPU event and side: side, trace_id, uid, kind, name, ts,
 *                   dur (µs), dur_ns, device, stream, op, cpu_op, op_uid, launcher_uid,
 *                   t_probe (µs), phase, step, layer, pass
 *   compare_event_groups  one row per side and (op, phase, layer, name, cpu_op): n events,
 *                   ndur of them with a duration, dur_ns their exact sum
 *
 * A trace's arrays are kept in its cache slot and computed again only when the
 * kernel_op rules' content changes; the sides of a call hold references to their
 * traces and arrays, so a trace closed or a rule changed meanwhile leaves a running
 * read its rows.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <stdlib.h>
#include <string.h>

#include "analysis/compare_events.h"
#include "vtab/compare_events.h"
#include "vtab/table.h"

/* one trace's events under one version of the rules */
typedef struct cmp_snapshot {
    int refs;
    uint64_t rules_key;
    tsql_cmp_events ev;
} cmp_snapshot;

static void snapshot_unref(cmp_snapshot *s)
{
    if (!s || --s->refs > 0) return;
    tsql_cmp_events_free(&s->ev);
    free(s);
}

/* the trace's cache slot: its latest snapshot */
typedef struct {
    cmp_snapshot *latest;
} cmp_holder;

static void *holder_build(tsql_trace *t)
{
    (void)t;
    return calloc(1, sizeof(cmp_holder));
}

static void holder_free(void *p)
{
    cmp_holder *h = p;
    if (h) snapshot_unref(h->latest);
    free(h);
}

static const tsql_cache_kind holder_kind = {"compare.events", holder_build, holder_free};

/* t's events under the rules (referenced), computed when the rules differ; NULL on OOM */
static cmp_snapshot *snapshot_get(tsql_trace *t, tsql_kop_rules *rules, uint64_t key)
{
    cmp_holder *h = tsql_trace_cached(t, &holder_kind);
    if (!h) return NULL;
    if (!h->latest || h->latest->rules_key != key) {
        cmp_snapshot *s = calloc(1, sizeof *s);
        if (!s) return NULL;
        s->refs = 1;
        s->rules_key = key;
        if (tsql_cmp_events_build(t, rules, &s->ev)) {
            free(s);
            return NULL;
        }
        snapshot_unref(h->latest);
        h->latest = s;
    }
    h->latest->refs++;
    return h->latest;
}

#define CMP_MAX_SIDES 3

struct tsql_cmp_sides {
    int refs, n;
    struct cmp_side {
        const char *name; /* static */
        tsql_entry *entry; /* referenced */
        cmp_snapshot *snap; /* referenced */
    } side[CMP_MAX_SIDES];
};

void tsql_cmp_sides_ref(tsql_cmp_sides *s)
{
    if (s) s->refs++;
}

void tsql_cmp_sides_unref(tsql_cmp_sides *s)
{
    if (!s || --s->refs > 0) return;
    for (int i = 0; i < s->n; i++) {
        snapshot_unref(s->side[i].snap);
        tsql_entry_unref(s->side[i].entry);
    }
    sqlite3_free(s);
}

int tsql_cmp_sides_build(tsql_catalog *c, const char *const *names, sqlite3_value *const *specs, int n,
                         tsql_cmp_sides **out, char **err)
{
    *out = NULL;
    *err = NULL;
    tsql_kop_rules *rules = NULL;
    uint64_t key = 0;
    int rc = tsql_kernel_op_rules(c, &rules, &key, err);
    if (rc != SQLITE_OK) return rc;
    tsql_cmp_sides *s = sqlite3_malloc(sizeof *s);
    if (!s) return SQLITE_NOMEM;
    memset(s, 0, sizeof *s);
    s->refs = 1;
    for (int i = 0; i < n && s->n < CMP_MAX_SIDES; i++) {
        if (!specs[i] || sqlite3_value_type(specs[i]) == SQLITE_NULL) continue;
        tsql_entry *e = tsql_catalog_resolve(c, specs[i], 1, err);
        if (!e) {
            tsql_cmp_sides_unref(s);
            return *err ? SQLITE_ERROR : SQLITE_NOMEM;
        }
        struct cmp_side *sd = &s->side[s->n++];
        sd->name = names[i];
        sd->entry = e;
        sd->snap = snapshot_get(e->trace, rules, key);
        if (!sd->snap) {
            tsql_cmp_sides_unref(s);
            return SQLITE_NOMEM;
        }
    }
    *out = s;
    return SQLITE_OK;
}

/* ---- the two tables ---- */

#define EV_COLUMNS(X)                                                                   \
    X(E_SIDE, "side TEXT")                                                              \
    X(E_TRACE_ID, "trace_id INTEGER")                                                   \
    X(E_UID, "uid INTEGER")                                                             \
    X(E_KIND, "kind TEXT")                                                              \
    X(E_NAME, "name TEXT")                                                              \
    X(E_TS, "ts REAL")                                                                  \
    X(E_DUR, "dur REAL")                                                                \
    X(E_DUR_NS, "dur_ns INTEGER")                                                       \
    X(E_DEVICE, "device INTEGER")                                                       \
    X(E_STREAM, "stream INTEGER")                                                       \
    X(E_OP, "op TEXT")                                                                  \
    X(E_CPU_OP, "cpu_op TEXT")                                                          \
    X(E_OP_UID, "op_uid INTEGER")                                                       \
    X(E_LAUNCHER_UID, "launcher_uid INTEGER")                                           \
    X(E_T_PROBE, "t_probe REAL")                                                        \
    X(E_PHASE, "phase TEXT")                                                            \
    X(E_STEP, "step INTEGER")                                                           \
    X(E_LAYER, "layer INTEGER")                                                         \
    X(E_PASS, "pass INTEGER")

#define GR_COLUMNS(X)                                                                   \
    X(G_SIDE, "side TEXT")                                                              \
    X(G_TRACE_ID, "trace_id INTEGER")                                                   \
    X(G_OP, "op TEXT")                                                                  \
    X(G_PHASE, "phase TEXT")                                                            \
    X(G_LAYER, "layer INTEGER")                                                         \
    X(G_NAME, "name TEXT")                                                              \
    X(G_CPU_OP, "cpu_op TEXT")                                                          \
    X(G_N, "n INTEGER")                                                                 \
    X(G_NDUR, "ndur INTEGER")                                                           \
    X(G_DUR_NS, "dur_ns INTEGER")

#define CMP_ENUM(id, decl) id,
#define CMP_DECL(id, decl) ", " decl
enum { EV_COLUMNS(CMP_ENUM) E_NCOLS };
enum { GR_COLUMNS(CMP_ENUM) G_NCOLS };
/* each column declaration after ", " (the first one's is skipped) */
static const char ev_columns[] = EV_COLUMNS(CMP_DECL);
static const char gr_columns[] = GR_COLUMNS(CMP_DECL);

typedef struct {
    sqlite3_vtab base;
    tsql_cmp_sides **current;
    int groups; /* 1: compare_event_groups, 0: compare_events */
} cmpt_vtab;

typedef struct {
    sqlite3_vtab_cursor base;
    tsql_cmp_sides *sides; /* referenced; NULL: no rows */
    int side;
    size_t row;
} cmpt_cursor;

static int cmpt_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                        sqlite3_vtab **out, char **err)
{
    (void)argc;
    (void)err;
    int groups = strcmp(argv[0], "compare_event_groups") == 0;
    char *sql = sqlite3_mprintf("CREATE TABLE x(%s)", (groups ? gr_columns : ev_columns) + 2);
    if (!sql) return SQLITE_NOMEM;
    int rc = sqlite3_declare_vtab(db, sql);
    sqlite3_free(sql);
    if (rc != SQLITE_OK) return rc;
    cmpt_vtab *v = sqlite3_malloc(sizeof *v);
    if (!v) return SQLITE_NOMEM;
    memset(v, 0, sizeof *v);
    v->current = aux;
    v->groups = groups;
    *out = &v->base;
    return SQLITE_OK;
}

static int cmpt_disconnect(sqlite3_vtab *vt)
{
    sqlite3_free(vt);
    return SQLITE_OK;
}

static int cmpt_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
    cmpt_vtab *v = (cmpt_vtab *)vt;
    info->estimatedCost = v->groups ? 1e3 : 1e6;
    info->estimatedRows = v->groups ? 1000 : 1000000;
    return SQLITE_OK;
}

static int cmpt_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
    (void)vt;
    cmpt_cursor *c = sqlite3_malloc(sizeof *c);
    if (!c) return SQLITE_NOMEM;
    memset(c, 0, sizeof *c);
    *out = &c->base;
    return SQLITE_OK;
}

static int cmpt_close(sqlite3_vtab_cursor *cur)
{
    cmpt_cursor *c = (cmpt_cursor *)cur;
    tsql_cmp_sides_unref(c->sides);
    sqlite3_free(c);
    return SQLITE_OK;
}

static size_t side_rows(const cmpt_cursor *c, int side)
{
    const tsql_cmp_events *ev = &c->sides->side[side].snap->ev;
    return ((cmpt_vtab *)c->base.pVtab)->groups ? ev->ngroups : ev->n;
}

/* moves past sides without rows */
static void skip_empty(cmpt_cursor *c)
{
    while (c->sides && c->side < c->sides->n && c->row >= side_rows(c, c->side)) {
        c->side++;
        c->row = 0;
    }
}

static int cmpt_filter(sqlite3_vtab_cursor *cur, int idxNum, const char *idxStr, int argc,
                       sqlite3_value **argv)
{
    (void)idxNum;
    (void)idxStr;
    (void)argc;
    (void)argv;
    cmpt_cursor *c = (cmpt_cursor *)cur;
    cmpt_vtab *v = (cmpt_vtab *)cur->pVtab;
    tsql_cmp_sides_unref(c->sides);
    c->sides = *v->current;
    tsql_cmp_sides_ref(c->sides);
    c->side = 0;
    c->row = 0;
    skip_empty(c);
    return SQLITE_OK;
}

static int cmpt_next(sqlite3_vtab_cursor *cur)
{
    cmpt_cursor *c = (cmpt_cursor *)cur;
    c->row++;
    skip_empty(c);
    return SQLITE_OK;
}

static int cmpt_eof(sqlite3_vtab_cursor *cur)
{
    cmpt_cursor *c = (cmpt_cursor *)cur;
    return !c->sides || c->side >= c->sides->n;
}

static void result_op(sqlite3_context *ctx, uint8_t op)
{
    if (op != TSQL_CMP_NO_OP) sqlite3_result_text(ctx, tsql_kop_labels[op], -1, SQLITE_STATIC);
}

static void result_phase(sqlite3_context *ctx, uint8_t phase)
{
    if (phase) sqlite3_result_text(ctx, tsql_cmp_phase_names[phase], -1, SQLITE_STATIC);
}

static void group_column(sqlite3_context *ctx, const tsql_trace *t, const tsql_cmp_group *g, int col)
{
    switch (col) {
    case G_OP: result_op(ctx, g->op); break;
    case G_PHASE: result_phase(ctx, g->phase); break;
    case G_LAYER:
        if (g->layer != TSQL_CMP_NO_LAYER) sqlite3_result_int64(ctx, g->layer);
        break;
    case G_NAME: tsql_result_str(ctx, t, g->name); break;
    case G_CPU_OP: tsql_result_str(ctx, t, g->cpu_op); break;
    case G_N: sqlite3_result_int64(ctx, g->n); break;
    case G_NDUR: sqlite3_result_int64(ctx, g->ndur); break;
    case G_DUR_NS: sqlite3_result_int64(ctx, g->dur_ns); break;
    default: break;
    }
}

static void event_column(sqlite3_context *ctx, const tsql_trace *t, const tsql_cmp_events *ev, size_t i,
                         int col)
{
    const tsql_kernels *K = &t->kernels;
    uint32_t u = K->uid[i];
    switch (col) {
    case E_UID: sqlite3_result_int64(ctx, u); break;
    case E_KIND:
        if (t->cat[u] || t->kind[u]) sqlite3_result_text(ctx, tsql_kind_names[t->kind[u]], -1, SQLITE_STATIC);
        break;
    case E_NAME: tsql_result_str(ctx, t, t->name[u]); break;
    case E_TS:
        if (t->ts_ns[u] != TSQL_NULL) sqlite3_result_double(ctx, tsql_trace_ts_us(t, u));
        break;
    case E_DUR:
        if (t->dur_ns[u] != TSQL_NULL) sqlite3_result_double(ctx, tsql_trace_dur_us(t, u));
        break;
    case E_DUR_NS: tsql_result_i64(ctx, t->dur_ns[u]); break;
    case E_DEVICE: tsql_result_i64(ctx, tsql_icol_get(&t->device, u)); break;
    case E_STREAM: tsql_result_i64(ctx, tsql_icol_get(&t->stream, u)); break;
    case E_OP: result_op(ctx, ev->op[i]); break;
    case E_CPU_OP: tsql_result_str(ctx, t, ev->cpu_op[i]); break;
    case E_OP_UID: tsql_result_uid(ctx, K->op[i]); break;
    case E_LAUNCHER_UID: tsql_result_uid(ctx, K->runtime[i]); break;
    case E_T_PROBE: tsql_result_real(ctx, ev->t_probe[i]); break;
    case E_PHASE: result_phase(ctx, ev->phase[i]); break;
    case E_STEP:
        if (ev->step[i]) sqlite3_result_int64(ctx, ev->step[i]);
        break;
    case E_LAYER:
        if (ev->layer[i] != TSQL_CMP_NO_LAYER) sqlite3_result_int64(ctx, ev->layer[i]);
        break;
    case E_PASS:
        if (ev->pass[i] != TSQL_CMP_NO_PASS) sqlite3_result_int64(ctx, ev->pass[i]);
        break;
    default: break;
    }
}

static int cmpt_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
    cmpt_cursor *c = (cmpt_cursor *)cur;
    const struct cmp_side *sd = &c->sides->side[c->side];
    /* side and trace_id are the first two columns of both tables */
    if (col == 0) {
        sqlite3_result_text(ctx, sd->name, -1, SQLITE_STATIC);
    } else if (col == 1) {
        sqlite3_result_int64(ctx, sd->entry->id);
    } else if (((cmpt_vtab *)cur->pVtab)->groups) {
        group_column(ctx, sd->entry->trace, &sd->snap->ev.groups[c->row], col);
    } else {
        event_column(ctx, sd->entry->trace, &sd->snap->ev, c->row, col);
    }
    return SQLITE_OK;
}

static int cmpt_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
    cmpt_cursor *c = (cmpt_cursor *)cur;
    *rowid = (sqlite3_int64)c->side << 40 | (sqlite3_int64)c->row;
    return SQLITE_OK;
}

static sqlite3_module cmpt_module = {
    .iVersion = 0,
    .xCreate = NULL, /* eponymous-only */
    .xConnect = cmpt_connect,
    .xBestIndex = cmpt_best_index,
    .xDisconnect = cmpt_disconnect,
    .xOpen = cmpt_open,
    .xClose = cmpt_close,
    .xFilter = cmpt_filter,
    .xNext = cmpt_next,
    .xEof = cmpt_eof,
    .xColumn = cmpt_column,
    .xRowid = cmpt_rowid,
};

int tsql_register_compare_tables(sqlite3 *db, tsql_cmp_sides **current)
{
    int rc = sqlite3_create_module(db, "compare_events", &cmpt_module, current);
    if (rc == SQLITE_OK) rc = sqlite3_create_module(db, "compare_event_groups", &cmpt_module, current);
    return rc;
}
