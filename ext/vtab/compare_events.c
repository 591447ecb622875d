/*
 * compare_events.c — compare_events and the group tables: the GPU events of the traces
 * of the comparison call running now, served from the arrays of
 * core/analysis/compare_events.c (columns: docs/compare.md).
 *
 *   compare_events  one row per GPU event and side: side, trace_id, uid, kind, name, ts,
 *                   dur (µs), dur_ns, device, stream, op, cpu_op, op_uid, launcher_uid,
 *                   t_probe (µs), phase, step, layer, pass
 *   compare_event_groups  one row per side and (op, phase, layer, name, cpu_op): n events,
 *                   ndur of them with a duration, dur_ns their exact sum
 *   compare_pass_groups   one row per side, phase and forward pass: n events
 *   compare_kernel_groups the kernel pairs' groups under the call's phase filter: per side
 *                   and (layer, op, k, name), computed when a read starts
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
#include "catalog/kernel_op_rules.h"
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
    int phase; /* the call's phase filter: -1 none, TSQL_PHASE_* or -2 (a value no event has) */
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

/* The phase filter of a phase argument, as SQL's phase = argument would compare. */
static int phase_filter(sqlite3_value *v)
{
    if (!v || sqlite3_value_type(v) == SQLITE_NULL) return -1;
    if (sqlite3_value_type(v) != SQLITE_TEXT) return -2;
    const char *p = (const char *)sqlite3_value_text(v);
    for (int i = 1; p && i < 4; i++)
        if (strcmp(p, tsql_cmp_phase_names[i]) == 0) return i;
    return -2;
}

int tsql_cmp_sides_build(tsql_catalog *c, const char *const *names, sqlite3_value *const *specs, int n,
                         sqlite3_value *phase, tsql_cmp_sides **out, char **err)
{
    *out = NULL;
    *err = NULL;
    tsql_kop_rules *rules = NULL;
    uint64_t key = 0;
    int rc = tsql_catalog_kop_rules(c, &rules, &key, err);
    if (rc != SQLITE_OK) return rc;
    tsql_cmp_sides *s = sqlite3_malloc(sizeof *s);
    if (!s) return SQLITE_NOMEM;
    memset(s, 0, sizeof *s);
    s->refs = 1;
    s->phase = phase_filter(phase);
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

/* ---- the tables ---- */

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
    X(G_PHASE_SOURCE, "phase_source TEXT")                                              \
    X(G_LAYER, "layer INTEGER")                                                         \
    X(G_NAME, "name TEXT")                                                              \
    X(G_CPU_OP, "cpu_op TEXT")                                                          \
    X(G_N, "n INTEGER")                                                                 \
    X(G_NDUR, "ndur INTEGER")                                                           \
    X(G_DUR_NS, "dur_ns INTEGER")

#define PA_COLUMNS(X)                                                                   \
    X(P_SIDE, "side TEXT")                                                              \
    X(P_TRACE_ID, "trace_id INTEGER")                                                   \
    X(P_PHASE, "phase TEXT")                                                            \
    X(P_PASS, "pass INTEGER")                                                           \
    X(P_N, "n INTEGER")

#define KG_COLUMNS(X)                                                                   \
    X(KG_SIDE, "side TEXT")                                                             \
    X(KG_TRACE_ID, "trace_id INTEGER")                                                  \
    X(KG_LAYER, "layer INTEGER")                                                        \
    X(KG_OP, "op TEXT")                                                                 \
    X(KG_K, "k INTEGER")                                                                \
    X(KG_NAME, "name TEXT")                                                             \
    X(KG_N, "n INTEGER")                                                                \
    X(KG_NDUR, "ndur INTEGER")                                                          \
    X(KG_DUR_NS, "dur_ns INTEGER")                                                      \
    X(KG_POS, "pos INTEGER")

/* gpu_ops(trace): the events of one trace; the trace argument is a hidden column */
#define GO_COLUMNS(X)                                                                   \
    X(GO_TRACE_ID, "trace_id INTEGER")                                                  \
    X(GO_UID, "uid INTEGER")                                                            \
    X(GO_KIND, "kind TEXT")                                                             \
    X(GO_NAME, "name TEXT")                                                             \
    X(GO_TS, "ts REAL")                                                                 \
    X(GO_DUR, "dur REAL")                                                               \
    X(GO_DEVICE, "device INTEGER")                                                      \
    X(GO_STREAM, "stream INTEGER")                                                      \
    X(GO_OP, "op TEXT")                                                                 \
    X(GO_CPU_OP, "cpu_op TEXT")                                                         \
    X(GO_PHASE, "phase TEXT")                                                           \
    X(GO_STEP, "step INTEGER")                                                          \
    X(GO_LAYER, "layer INTEGER")                                                        \
    X(GO_PASS, "pass INTEGER")                                                          \
    X(GO_TRACE, "trace HIDDEN")

#define CMP_ENUM(id, decl) id,
#define CMP_DECL(id, decl) ", " decl
enum { EV_COLUMNS(CMP_ENUM) E_NCOLS };
enum { GR_COLUMNS(CMP_ENUM) G_NCOLS };
enum { PA_COLUMNS(CMP_ENUM) P_NCOLS };
enum { KG_COLUMNS(CMP_ENUM) KG_NCOLS };
enum { GO_COLUMNS(CMP_ENUM) GO_NCOLS };
/* a gpu_ops column as the compare_events column that has its value */
static const int go_event_column[GO_TRACE] = {E_TRACE_ID, E_UID, E_KIND, E_NAME, E_TS, E_DUR, E_DEVICE,
                                              E_STREAM, E_OP, E_CPU_OP, E_PHASE, E_STEP, E_LAYER, E_PASS};

/* the tables: their names and columns (each declaration after ", ") */
enum cmpt_kind { T_EVENTS, T_GROUPS, T_PASSES, T_KERNELS, T_GPU_OPS, T_KINDS };
static const struct {
    const char *name, *columns;
    double rows;
} cmpt_tables[T_KINDS] = {
    {"compare_events", EV_COLUMNS(CMP_DECL), 1e6},
    {"compare_event_groups", GR_COLUMNS(CMP_DECL), 1e3},
    {"compare_pass_groups", PA_COLUMNS(CMP_DECL), 1e2},
    {"compare_kernel_groups", KG_COLUMNS(CMP_DECL), 1e3},
    {"gpu_ops", GO_COLUMNS(CMP_DECL), 1e5},
};

typedef struct {
    sqlite3_vtab base;
    tsql_cmp_current *current;
    enum cmpt_kind kind;
} cmpt_vtab;

typedef struct {
    sqlite3_vtab_cursor base;
    tsql_cmp_sides *sides; /* referenced; NULL: no rows */
    int side;
    size_t row;
    /* compare_kernel_groups: each side's groups, computed when the read starts */
    tsql_cmp_kernel_group *kg[CMP_MAX_SIDES];
    size_t nkg[CMP_MAX_SIDES];
} cmpt_cursor;

static int cmpt_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                        sqlite3_vtab **out, char **err)
{
    (void)argc;
    (void)err;
    enum cmpt_kind kind = T_EVENTS;
    for (int k = 0; k < T_KINDS; k++)
        if (strcmp(argv[0], cmpt_tables[k].name) == 0) kind = (enum cmpt_kind)k;
    char *sql = sqlite3_mprintf("CREATE TABLE x(%s)", cmpt_tables[kind].columns + 2);
    if (!sql) return SQLITE_NOMEM;
    int rc = sqlite3_declare_vtab(db, sql);
    sqlite3_free(sql);
    if (rc != SQLITE_OK) return rc;
    tsql_vtab_risk(db, TSQL_TOP_LEVEL); /* its arguments may be paths: never from a schema */
    cmpt_vtab *v = sqlite3_malloc(sizeof *v);
    if (!v) return SQLITE_NOMEM;
    memset(v, 0, sizeof *v);
    v->current = aux;
    v->kind = kind;
    *out = &v->base;
    return SQLITE_OK;
}

static int cmpt_disconnect(sqlite3_vtab *vt)
{
    sqlite3_free(vt);
    return SQLITE_OK;
}

/* gpu_ops: idxNum 1 when the trace argument is given (an = constraint on the hidden
 * column), 0 when not (no rows) */
static int cmpt_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
    cmpt_vtab *v = (cmpt_vtab *)vt;
    info->estimatedCost = cmpt_tables[v->kind].rows;
    info->estimatedRows = (sqlite3_int64)cmpt_tables[v->kind].rows;
    info->idxNum = 0;
    for (int i = 0; v->kind == T_GPU_OPS && i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *c = &info->aConstraint[i];
        if (c->iColumn != GO_TRACE || c->op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
        if (!c->usable) return SQLITE_CONSTRAINT; /* the argument exists but cannot be used in this order */
        info->aConstraintUsage[i].argvIndex = 1;
        info->aConstraintUsage[i].omit = 1;
        info->idxNum = 1;
        info->estimatedCost = 1e4;
    }
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

static void cursor_reset(cmpt_cursor *c)
{
    for (int i = 0; i < CMP_MAX_SIDES; i++) {
        free(c->kg[i]);
        c->kg[i] = NULL;
        c->nkg[i] = 0;
    }
    tsql_cmp_sides_unref(c->sides);
    c->sides = NULL;
}

static int cmpt_close(sqlite3_vtab_cursor *cur)
{
    cmpt_cursor *c = (cmpt_cursor *)cur;
    cursor_reset(c);
    sqlite3_free(c);
    return SQLITE_OK;
}

static size_t side_rows(const cmpt_cursor *c, int side)
{
    const tsql_cmp_events *ev = &c->sides->side[side].snap->ev;
    switch (((cmpt_vtab *)c->base.pVtab)->kind) {
    case T_GROUPS: return ev->ngroups;
    case T_PASSES: return ev->npasses;
    case T_KERNELS: return c->nkg[side];
    default: return ev->n;
    }
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
    cursor_reset(c);
    if (v->kind == T_GPU_OPS) {
        c->side = 0;
        c->row = 0;
        if (idxNum == 0 || argc < 1) return SQLITE_OK; /* SELECT * FROM gpu_ops: no rows */
        if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
            sqlite3_free(v->base.zErrMsg);
            v->base.zErrMsg = sqlite3_mprintf("gpu_ops: argument trace is required (gpu_ops(trace))");
            return SQLITE_ERROR;
        }
        static const char *const names[1] = {"trace"};
        char *err = NULL;
        int rc = tsql_cmp_sides_build(v->current->catalog, names, argv, 1, NULL, &c->sides, &err);
        if (rc != SQLITE_OK) {
            sqlite3_free(v->base.zErrMsg);
            v->base.zErrMsg = err;
            return rc;
        }
        skip_empty(c);
        return SQLITE_OK;
    }
    c->sides = v->current->sides;
    tsql_cmp_sides_ref(c->sides);
    c->side = 0;
    c->row = 0;
    if (v->kind == T_KERNELS && c->sides && c->sides->phase != -2) {
        for (int i = 0; i < c->sides->n; i++) {
            const struct cmp_side *sd = &c->sides->side[i];
            if (tsql_cmp_kernel_groups(sd->entry->trace, &sd->snap->ev, c->sides->phase, &c->kg[i], &c->nkg[i]))
                return SQLITE_NOMEM;
        }
    }
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

static void result_layer(sqlite3_context *ctx, int32_t layer)
{
    if (layer != TSQL_CMP_NO_LAYER) sqlite3_result_int64(ctx, layer);
}

static void group_column(sqlite3_context *ctx, const tsql_trace *t, const tsql_cmp_group *g, int col)
{
    switch (col) {
    case G_OP: result_op(ctx, g->op); break;
    case G_PHASE: result_phase(ctx, g->phase); break;
    case G_PHASE_SOURCE:
        if (g->phase_src) sqlite3_result_text(ctx, tsql_cmp_phase_src_names[g->phase_src], -1, SQLITE_STATIC);
        break;
    case G_LAYER: result_layer(ctx, g->layer); break;
    case G_NAME: tsql_result_str(ctx, t, g->name); break;
    case G_CPU_OP: tsql_result_str(ctx, t, g->cpu_op); break;
    case G_N: sqlite3_result_int64(ctx, g->n); break;
    case G_NDUR: sqlite3_result_int64(ctx, g->ndur); break;
    case G_DUR_NS: sqlite3_result_int64(ctx, g->dur_ns); break;
    default: break;
    }
}

static void pass_column(sqlite3_context *ctx, const tsql_cmp_pass *p, int col)
{
    switch (col) {
    case P_PHASE: result_phase(ctx, p->phase); break;
    case P_PASS: sqlite3_result_int64(ctx, p->pass); break;
    case P_N: sqlite3_result_int64(ctx, p->n); break;
    default: break;
    }
}

static void kernel_group_column(sqlite3_context *ctx, const tsql_trace *t, const tsql_cmp_kernel_group *g, int col)
{
    switch (col) {
    case KG_LAYER: result_layer(ctx, g->layer); break;
    case KG_OP: result_op(ctx, g->op); break;
    case KG_K: sqlite3_result_int64(ctx, g->k); break;
    case KG_NAME: tsql_result_str(ctx, t, g->name); break;
    case KG_N: sqlite3_result_int64(ctx, g->n); break;
    case KG_NDUR: sqlite3_result_int64(ctx, g->ndur); break;
    case KG_DUR_NS: sqlite3_result_int64(ctx, g->dur_ns); break;
    case KG_POS: sqlite3_result_int64(ctx, g->pos); break;
    default: break;
    }
}

/* the compare_events columns that are fields of the event itself (table.h) */
static const int event_field[E_NCOLS] = {
    [E_KIND] = TSQL_EV_KIND, [E_NAME] = TSQL_EV_NAME, [E_TS] = TSQL_EV_TS, [E_DUR] = TSQL_EV_DUR,
    [E_DUR_NS] = TSQL_EV_DUR_NS, [E_DEVICE] = TSQL_EV_DEVICE, [E_STREAM] = TSQL_EV_STREAM,
};

static void event_column(sqlite3_context *ctx, const tsql_trace *t, const tsql_cmp_events *ev, size_t i,
                         int col)
{
    const tsql_kernels *K = &t->kernels;
    uint32_t u = K->uid[i];
    if (event_field[col]) {
        tsql_result_event_field(ctx, t, u, event_field[col]);
        return;
    }
    switch (col) {
    case E_UID: sqlite3_result_int64(ctx, u); break;
    case E_OP: result_op(ctx, ev->op[i]); break;
    case E_CPU_OP: tsql_result_str(ctx, t, ev->cpu_op[i]); break;
    case E_OP_UID: tsql_result_uid(ctx, K->op[i]); break;
    case E_LAUNCHER_UID: tsql_result_uid(ctx, K->runtime[i]); break;
    case E_T_PROBE: tsql_result_real(ctx, ev->t_probe[i]); break;
    case E_PHASE: result_phase(ctx, ev->phase[i]); break;
    case E_STEP:
        if (ev->step[i]) sqlite3_result_int64(ctx, ev->step[i]);
        break;
    case E_LAYER: result_layer(ctx, ev->layer[i]); break;
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
    const tsql_trace *t = sd->entry->trace;
    const tsql_cmp_events *ev = &sd->snap->ev;
    if (((cmpt_vtab *)cur->pVtab)->kind == T_GPU_OPS) {
        if (col < GO_TRACE) col = go_event_column[col];
        else return SQLITE_OK; /* the hidden argument */
    }
    /* side and trace_id are the first two columns of every table */
    if (col == 0) {
        sqlite3_result_text(ctx, sd->name, -1, SQLITE_STATIC);
        return SQLITE_OK;
    }
    if (col == 1) {
        sqlite3_result_int64(ctx, sd->entry->id);
        return SQLITE_OK;
    }
    switch (((cmpt_vtab *)cur->pVtab)->kind) {
    case T_GROUPS: group_column(ctx, t, &ev->groups[c->row], col); break;
    case T_PASSES: pass_column(ctx, &ev->passes[c->row], col); break;
    case T_KERNELS: kernel_group_column(ctx, t, &c->kg[c->side][c->row], col); break;
    default: event_column(ctx, t, ev, c->row, col); break;
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

int tsql_register_compare_tables(sqlite3 *db, tsql_cmp_current *current)
{
    int rc = SQLITE_OK;
    for (int k = 0; rc == SQLITE_OK && k < T_KINDS; k++)
        rc = sqlite3_create_module(db, cmpt_tables[k].name, &cmpt_module, current);
    return rc;
}
