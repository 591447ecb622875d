/*
 * vtab_timeline.c — the `gpu_timeline_raw` table: TraceLens's gpu_timeline rows per
 * trace, in µs, computed by core/timeline.c.
 *
 *   SELECT * FROM gpu_timeline_raw;                  -- every open trace, TraceLens's way
 *   SELECT * FROM gpu_timeline_raw(1, 0);            -- all GPU work, linked or not
 *   SELECT * FROM gpu_timeline_raw('run.json.gz', 1, 50);  -- idle split at 50 µs
 *
 * Columns: trace_id, seq (row order, 0-based), type, time_us, events (GPU events that
 * went in). HIDDEN arguments, in order: trace (id, label or path), linked_only
 * (1 = only GPU events TraceLens links to a launch, its default; 0 = every GPU event;
 * NULL = 1), micro_idle_thresh_us (NULL = one idle_time row; a value splits idle into
 * micro_idle_time / macro_idle_time). The rows are computed when the scan starts.
 *
 * Also two aggregate sums that add up the way TraceLens's pandas does, so the report's
 * numbers match its digits: pd_sum(x [, order]) is pandas' groupby sum / mean
 * (Kahan-compensated), np_sum(x [, order]) numpy's sum of a column (pairwise),
 * seq_sum(x [, order]) plain left-to-right addition (a running total, numpy's cumsum). Values
 * are added in the order of the optional second argument (ties: arrival order), else
 * in arrival order. NULLs are skipped; all-integer input gives an exact integer.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/timeline.h"
#include "catalog/catalog.h"
#include "util/sort.h"
#include "util/sum.h"
#include "util/vec.h"

enum { C_TRACE_ID, C_SEQ, C_TYPE, C_TIME_US, C_EVENTS, C_TRACE, C_LINKED, C_MICRO, C_N };

static const char schema[] =
    "CREATE TABLE x(trace_id INTEGER, seq INTEGER, type TEXT, time_us REAL, events INTEGER, "
    "trace HIDDEN, linked_only HIDDEN, micro_idle_thresh_us HIDDEN)";

typedef struct tl_vtab {
    sqlite3_vtab base;
    tsql_catalog *catalog;
} tl_vtab;

typedef struct tl_row {
    int64_t trace_id;
    int seq;
    uint8_t kind;
    double us;
    uint32_t events;
} tl_row;

typedef struct tl_cursor {
    sqlite3_vtab_cursor base;
    tl_row *rows;
    int nrows, i;
    int linked_only;
    double micro;            /* NaN = off */
} tl_cursor;

static int tl_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                      sqlite3_vtab **ppVtab, char **pzErr)
{
    (void)argc;
    (void)argv;
    (void)pzErr;
    int rc = sqlite3_declare_vtab(db, schema);
    if (rc != SQLITE_OK) return rc;
    tl_vtab *v = sqlite3_malloc(sizeof *v);
    if (!v) return SQLITE_NOMEM;
    memset(v, 0, sizeof *v);
    v->catalog = aux;
    /* a path argument loads a file: never from a schema someone else wrote */
    sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY);
    *ppVtab = &v->base;
    return SQLITE_OK;
}

static int tl_disconnect(sqlite3_vtab *vt)
{
    sqlite3_free(vt);
    return SQLITE_OK;
}

/* idxNum bits, one argv slot each in this order: 1 trace, 2 trace_id, 4 linked_only,
 * 8 micro_idle_thresh_us */
static int tl_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
    (void)vt;
    static const int cols[4] = {C_TRACE, C_TRACE_ID, C_LINKED, C_MICRO};
    int pick[4] = {-1, -1, -1, -1};
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *c = &info->aConstraint[i];
        if (c->op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
        for (int b = 0; b < 4; b++) {
            if (c->iColumn != cols[b]) continue;
            if (!c->usable) {
                /* a function argument must be usable: ask for another order */
                if (b != 1) return SQLITE_CONSTRAINT;
                continue;
            }
            pick[b] = i;
        }
    }
    int idx = 0, argn = 1;
    for (int b = 0; b < 4; b++) {
        if (pick[b] < 0) continue;
        idx |= 1 << b;
        info->aConstraintUsage[pick[b]].argvIndex = argn++;
        info->aConstraintUsage[pick[b]].omit = 1;
    }
    /* rows come out in (trace_id, seq) order */
    if (info->nOrderBy >= 1 && info->nOrderBy <= 2 && !info->aOrderBy[0].desc &&
        info->aOrderBy[0].iColumn == C_TRACE_ID &&
        (info->nOrderBy == 1 || (!info->aOrderBy[1].desc && info->aOrderBy[1].iColumn == C_SEQ)))
        info->orderByConsumed = 1;
    info->idxNum = idx;
    info->estimatedCost = (idx & 3) ? 10 : 100;
    info->estimatedRows = (idx & 3) ? 9 : 90;
    return SQLITE_OK;
}

static int tl_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **pp)
{
    (void)vt;
    tl_cursor *cur = sqlite3_malloc(sizeof *cur);
    if (!cur) return SQLITE_NOMEM;
    memset(cur, 0, sizeof *cur);
    *pp = &cur->base;
    return SQLITE_OK;
}

static void reset(tl_cursor *cur)
{
    sqlite3_free(cur->rows);
    cur->rows = NULL;
    cur->nrows = cur->i = 0;
}

static int tl_close(sqlite3_vtab_cursor *p)
{
    tl_cursor *cur = (tl_cursor *)p;
    reset(cur);
    sqlite3_free(cur);
    return SQLITE_OK;
}

static int set_error(sqlite3_vtab_cursor *p, char *msg)
{
    sqlite3_free(p->pVtab->zErrMsg);
    p->pVtab->zErrMsg = msg;
    return SQLITE_ERROR;
}

/* Appends the rows of one trace. */
static int add_trace(tl_cursor *cur, tsql_entry *e)
{
    tsql_timeline tl;
    if (tsql_timeline_of_trace(e->trace, cur->linked_only, cur->micro, &tl)) return SQLITE_NOMEM;
    if (tl.nrows == 0) return SQLITE_OK;
    tl_row *nr = sqlite3_realloc64(cur->rows, (sqlite3_uint64)(cur->nrows + tl.nrows) * sizeof *nr);
    if (!nr) return SQLITE_NOMEM;
    cur->rows = nr;
    for (int r = 0; r < tl.nrows; r++) {
        tl_row *row = &cur->rows[cur->nrows++];
        row->trace_id = e->id;
        row->seq = r;
        row->kind = tl.kind[r];
        row->us = tl.us[r];
        row->events = tl.nevents;
    }
    return SQLITE_OK;
}

static int tl_filter(sqlite3_vtab_cursor *p, int idxNum, const char *idxStr, int argc,
                     sqlite3_value **argv)
{
    (void)idxStr;
    (void)argc;
    tl_cursor *cur = (tl_cursor *)p;
    tsql_catalog *c = ((tl_vtab *)p->pVtab)->catalog;
    reset(cur);
    int a = 0;
    sqlite3_value *v_trace = (idxNum & 1) ? argv[a++] : NULL;
    sqlite3_value *v_id = (idxNum & 2) ? argv[a++] : NULL;
    sqlite3_value *v_linked = (idxNum & 4) ? argv[a++] : NULL;
    sqlite3_value *v_micro = (idxNum & 8) ? argv[a++] : NULL;

    cur->linked_only = 1;
    if (v_linked && sqlite3_value_type(v_linked) != SQLITE_NULL) {
        int t = sqlite3_value_numeric_type(v_linked);
        if (t != SQLITE_INTEGER && t != SQLITE_FLOAT)
            return set_error(p, sqlite3_mprintf("gpu_timeline_raw: linked_only must be 0 or 1"));
        cur->linked_only = sqlite3_value_double(v_linked) != 0;
    }
    cur->micro = NAN;
    if (v_micro && sqlite3_value_type(v_micro) != SQLITE_NULL) {
        int t = sqlite3_value_numeric_type(v_micro);
        double m = sqlite3_value_double(v_micro);
        if ((t != SQLITE_INTEGER && t != SQLITE_FLOAT) || !(m >= 0))
            return set_error(p, sqlite3_mprintf("gpu_timeline_raw: micro_idle_thresh_us must be "
                                                "a number >= 0 (µs) or NULL"));
        cur->micro = m;
    }
    int has_id = v_id != NULL;
    int64_t want_id = has_id && sqlite3_value_type(v_id) == SQLITE_INTEGER ? sqlite3_value_int64(v_id) : -1;

    int rc = SQLITE_OK;
    if (v_trace) {
        char *zErr = NULL;
        tsql_entry *e = tsql_catalog_resolve(c, v_trace, 1, &zErr);
        if (!e) return set_error(p, zErr);
        if (!has_id || want_id == e->id) rc = add_trace(cur, e);
        tsql_entry_unref(e);
    } else {
        for (int i = 0; i < c->nopen && rc == SQLITE_OK; i++) {
            tsql_entry *e = c->open[i];
            if (has_id && e->id != want_id) continue;
            tsql_entry_ref(e);
            rc = add_trace(cur, e);
            tsql_entry_unref(e);
        }
    }
    return rc;
}

static int tl_next(sqlite3_vtab_cursor *p)
{
    ((tl_cursor *)p)->i++;
    return SQLITE_OK;
}

static int tl_eof(sqlite3_vtab_cursor *p)
{
    tl_cursor *cur = (tl_cursor *)p;
    return cur->i >= cur->nrows;
}

static int tl_column(sqlite3_vtab_cursor *p, sqlite3_context *ctx, int col)
{
    tl_cursor *cur = (tl_cursor *)p;
    const tl_row *r = &cur->rows[cur->i];
    switch (col) {
    case C_TRACE_ID: sqlite3_result_int64(ctx, r->trace_id); break;
    case C_SEQ: sqlite3_result_int(ctx, r->seq); break;
    case C_TYPE:
        sqlite3_result_text(ctx, tsql_timeline_row_names[r->kind], -1, SQLITE_STATIC);
        break;
    case C_TIME_US: sqlite3_result_double(ctx, r->us); break;
    case C_EVENTS: sqlite3_result_int64(ctx, r->events); break;
    case C_TRACE: sqlite3_result_int64(ctx, r->trace_id); break; /* the id, as every table */
    case C_LINKED: sqlite3_result_int(ctx, cur->linked_only); break;
    case C_MICRO:
        if (!isnan(cur->micro)) sqlite3_result_double(ctx, cur->micro);
        break;
    default: break;
    }
    return SQLITE_OK;
}

static int tl_rowid(sqlite3_vtab_cursor *p, sqlite3_int64 *rowid)
{
    *rowid = ((tl_cursor *)p)->i;
    return SQLITE_OK;
}

static const sqlite3_module tl_module = {
    .xConnect = tl_connect,
    .xBestIndex = tl_best_index,
    .xDisconnect = tl_disconnect,
    .xOpen = tl_open,
    .xClose = tl_close,
    .xFilter = tl_filter,
    .xNext = tl_next,
    .xEof = tl_eof,
    .xColumn = tl_column,
    .xRowid = tl_rowid,
};

/* ---------- pd_sum(x [, order]), np_sum(x [, order]) ---------- */

/* Values of one group, kept until the end so they can be added in a given order. */
typedef struct sum_ctx {
    dvec v, key;           /* key: empty without an order argument */
    int64_t isum;          /* exact sum while every value is an integer */
    int not_int, overflow;
} sum_ctx;

static void sum_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    int t = sqlite3_value_numeric_type(argv[0]);
    if (t != SQLITE_INTEGER && t != SQLITE_FLOAT) return; /* NULL (or text) is skipped */
    sum_ctx *p = sqlite3_aggregate_context(ctx, sizeof *p);
    /* keys stay aligned with values: a value is kept only once its key is */
    if (!p || (argc > 1 && dvec_push(&p->key, sqlite3_value_double(argv[1]))) ||
        dvec_push(&p->v, sqlite3_value_double(argv[0]))) {
        if (p && argc > 1 && p->key.n > p->v.n) p->key.n--;
        sqlite3_result_error_nomem(ctx);
        return;
    }
    if (t == SQLITE_INTEGER) {
        sqlite3_int64 x = sqlite3_value_int64(argv[0]);
        if (__builtin_add_overflow(p->isum, x, &p->isum)) p->overflow = 1;
    } else {
        p->not_int = 1;
    }
}

static void sum_final(sqlite3_context *ctx, double (*add)(const double *, size_t))
{
    sum_ctx *p = sqlite3_aggregate_context(ctx, 0);
    size_t n = p ? p->v.n : 0;
    if (!n) {
        sqlite3_result_double(ctx, 0.0); /* pandas: the sum of nothing is 0 */
    } else if (!p->not_int && !p->overflow) {
        sqlite3_result_int64(ctx, p->isum);
    } else if (p->key.n != n) {
        sqlite3_result_double(ctx, add(p->v.v, n));
    } else if (n > UINT32_MAX) {
        sqlite3_result_error_toobig(ctx);
    } else {
        /* the order argument decides, ties keep the order rows came in */
        tsql_keyed *o = malloc(n * sizeof *o);
        double *w = malloc(n * sizeof *w);
        if (o && w) {
            for (size_t i = 0; i < n; i++) o[i] = (tsql_keyed){p->key.v[i], (uint32_t)i, (uint32_t)i};
            tsql_keyed_sort(o, n);
            for (size_t i = 0; i < n; i++) w[i] = p->v.v[o[i].v];
            sqlite3_result_double(ctx, add(w, n));
        } else {
            sqlite3_result_error_nomem(ctx);
        }
        free(o);
        free(w);
    }
    if (p) {
        free(p->v.v);
        free(p->key.v);
        p->v = p->key = (dvec){0};
    }
}

static void pd_sum_final(sqlite3_context *ctx) { sum_final(ctx, tsql_kahan_sum); }
static void np_sum_final(sqlite3_context *ctx) { sum_final(ctx, tsql_pairwise_sum); }
static void seq_sum_final(sqlite3_context *ctx) { sum_final(ctx, tsql_seq_sum); }

int tsql_register_timeline(sqlite3 *db, tsql_catalog *c)
{
    int rc = sqlite3_create_module_v2(db, "gpu_timeline_raw", &tl_module, c, NULL);
    const int pure = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
    for (int nargs = 1; nargs <= 2 && rc == SQLITE_OK; nargs++) {
        rc = sqlite3_create_function(db, "pd_sum", nargs, pure, NULL, NULL, sum_step, pd_sum_final);
        if (rc == SQLITE_OK)
            rc = sqlite3_create_function(db, "np_sum", nargs, pure, NULL, NULL, sum_step, np_sum_final);
        if (rc == SQLITE_OK)
            rc = sqlite3_create_function(db, "seq_sum", nargs, pure, NULL, NULL, sum_step, seq_sum_final);
    }
    return rc;
}
