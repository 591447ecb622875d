/*
 * compare.c — the comparison functions as table-valued functions over SQL views
 * (docs/compare.md): compare_ops, compare_layers, compare_kernels, compare_fusion,
 * compare_metadata, compare_phases, compare_stacks (gpu_ops streams from ext/vtab/compare_events.c).
 *
 * Each is an eponymous virtual table whose rows are those of one view of
 * sql/compare/ (named in the table below), evaluated with the call's arguments:
 * the views read them with compare_arg('<name>'). A call pushes its arguments, runs
 * the view to the end into a buffer, and pops them, so calls may nest or interleave
 * (the results are a few hundred rows).
 * Also raise_error(msg), which fails the
 * statement with msg (the views use it for a phase that is in neither trace).
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <stdlib.h>
#include <string.h>

#include "catalog/registration.h"
#include "vtab/compare_events.h"

#define CMP_MAX_ARGS 5

typedef struct {
    const char *name, *view;
    int nargs, nrequired;
    const char *args[CMP_MAX_ARGS];
} cmp_fn;

static const cmp_fn cmp_fns[] = {
    {"compare_ops", "compare_ops_v", 3, 2, {"baseline", "variant", "phase"}},
    {"compare_layers", "compare_layers_v", 3, 2, {"baseline", "variant", "phase"}},
    {"compare_kernels", "compare_kernels_v", 3, 2, {"baseline", "variant", "phase"}},
    {"compare_fusion", "compare_fusion_v", 3, 2, {"baseline", "variant", "phase"}},
    {"compare_metadata", "compare_metadata_v", 3, 2, {"baseline", "variant", "phase"}},
    {"compare_phases", "compare_phases_v", 2, 2, {"baseline", "variant"}},
    {"compare_stacks", "compare_stacks_v", 4, 2, {"trace", "operation", "n", "phase"}},
};

/* the arguments of the calls running now, innermost last */
typedef struct cmp_frame {
    const cmp_fn *fn;
    sqlite3_value *argv[CMP_MAX_ARGS];
    struct cmp_frame *up;
} cmp_frame;

typedef struct {
    cmp_frame *top;
    tsql_cmp_current cur; /* the catalog, and the running call's traces (compare_events, ...) */
} cmp_state;

/* the results of one call, collected (a few hundred rows) */
typedef struct {
    int ncols;
    sqlite3_int64 nrows;
    sqlite3_value **cells;
} cmp_rows;

static void cmp_rows_free(cmp_rows *r)
{
    if (!r) return;
    for (sqlite3_int64 i = 0; i < r->nrows * r->ncols; i++) sqlite3_value_free(r->cells[i]);
    sqlite3_free(r->cells);
    sqlite3_free(r);
}

/* Runs stmt to the end into a new cmp_rows; NULL with *rc set on failure. */
static cmp_rows *cmp_rows_collect(sqlite3_stmt *s, int *rc)
{
    cmp_rows *r = sqlite3_malloc(sizeof *r);
    if (!r) {
        *rc = SQLITE_NOMEM;
        return NULL;
    }
    memset(r, 0, sizeof *r);
    r->ncols = sqlite3_column_count(s);
    sqlite3_int64 cap = 0;
    while ((*rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (r->nrows == cap) {
            cap = cap ? cap * 2 : 64;
            sqlite3_value **cells = sqlite3_realloc64(r->cells, (sqlite3_uint64)(cap * r->ncols) * sizeof *cells);
            if (!cells) {
                *rc = SQLITE_NOMEM;
                break;
            }
            r->cells = cells;
        }
        sqlite3_value **row = r->cells + r->nrows * r->ncols;
        int ok = 1;
        for (int i = 0; i < r->ncols; i++)
            if (!(row[i] = sqlite3_value_dup(sqlite3_column_value(s, i)))) ok = 0;
        r->nrows++;
        if (!ok) {
            *rc = SQLITE_NOMEM;
            break;
        }
    }
    if (*rc == SQLITE_DONE) {
        *rc = SQLITE_OK;
        return r;
    }
    cmp_rows_free(r);
    return NULL;
}

typedef struct {
    sqlite3_vtab base;
    sqlite3 *db;
    cmp_state *st;
    const cmp_fn *fn;
    int ncols; /* the view's columns; the arguments follow as hidden columns */
} cmp_vtab;

typedef struct {
    sqlite3_vtab_cursor base;
    cmp_rows *rows; /* this call's result */
    sqlite3_int64 row;
} cmp_cursor;

static int cmp_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                       sqlite3_vtab **out, char **err)
{
    (void)argc;
    cmp_state *st = aux;
    const cmp_fn *fn = NULL;
    for (size_t i = 0; i < sizeof cmp_fns / sizeof *cmp_fns; i++)
        if (sqlite3_stricmp(argv[0], cmp_fns[i].name) == 0) fn = &cmp_fns[i];
    if (!fn) return SQLITE_ERROR;
    const char *view = fn->view;
    char *q = sqlite3_mprintf("SELECT * FROM temp.\"%w\"", view);
    sqlite3_stmt *s = NULL;
    int rc = q ? sqlite3_prepare_v2(db, q, -1, &s, NULL) : SQLITE_NOMEM;
    sqlite3_free(q);
    if (rc != SQLITE_OK) {
        *err = sqlite3_mprintf("%s: view %s: %s", argv[0], view, sqlite3_errmsg(db));
        return rc;
    }
    sqlite3_str *ddl = sqlite3_str_new(db);
    sqlite3_str_appendall(ddl, "CREATE TABLE x(");
    int n = sqlite3_column_count(s);
    for (int i = 0; i < n; i++)
        sqlite3_str_appendf(ddl, "%s\"%w\"", i ? ", " : "", sqlite3_column_name(s, i));
    for (int i = 0; i < fn->nargs; i++)
        sqlite3_str_appendf(ddl, ", \"%w\" HIDDEN", fn->args[i]);
    sqlite3_str_appendall(ddl, ")");
    sqlite3_finalize(s);
    char *sql = sqlite3_str_finish(ddl);
    if (!sql) return SQLITE_NOMEM;
    rc = sqlite3_declare_vtab(db, sql);
    sqlite3_free(sql);
    if (rc != SQLITE_OK) {
        *err = sqlite3_mprintf("%s: %s", argv[0], sqlite3_errmsg(db));
        return rc;
    }
    tsql_vtab_risk(db, TSQL_TOP_LEVEL); /* its arguments may be paths: never from a schema */
    cmp_vtab *v = sqlite3_malloc(sizeof *v);
    if (!v) return SQLITE_NOMEM;
    memset(v, 0, sizeof *v);
    v->db = db;
    v->st = st;
    v->fn = fn;
    v->ncols = n;
    *out = &v->base;
    return SQLITE_OK;
}

static int cmp_disconnect(sqlite3_vtab *vt)
{
    sqlite3_free(vt);
    return SQLITE_OK;
}

/* idxNum: bit i set = argument i is given (an = constraint), in argv order */
static int cmp_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
    cmp_vtab *v = (cmp_vtab *)vt;
    int nargs = v->fn->nargs;
    int slot[CMP_MAX_ARGS];
    for (int i = 0; i < CMP_MAX_ARGS; i++) slot[i] = -1;
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *c = &info->aConstraint[i];
        int a = c->iColumn - v->ncols;
        if (a < 0 || a >= nargs) continue;
        if (c->op != SQLITE_INDEX_CONSTRAINT_EQ || !c->usable) {
            if (c->op == SQLITE_INDEX_CONSTRAINT_EQ) return SQLITE_CONSTRAINT;
            continue;
        }
        slot[a] = i;
    }
    int mask = 0, next = 1;
    for (int a = 0; a < nargs; a++) {
        if (slot[a] < 0) continue;
        info->aConstraintUsage[slot[a]].argvIndex = next++;
        info->aConstraintUsage[slot[a]].omit = 1;
        mask |= 1 << a;
    }
    info->idxNum = mask;
    info->estimatedCost = 1000;
    info->estimatedRows = 100;
    return SQLITE_OK;
}

static int cmp_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
    (void)vt;
    cmp_cursor *c = sqlite3_malloc(sizeof *c);
    if (!c) return SQLITE_NOMEM;
    memset(c, 0, sizeof *c);
    *out = &c->base;
    return SQLITE_OK;
}

static int cmp_close(sqlite3_vtab_cursor *cur)
{
    cmp_cursor *c = (cmp_cursor *)cur;
    cmp_rows_free(c->rows);
    sqlite3_free(c);
    return SQLITE_OK;
}

/* The traces of frame f's trace arguments (baseline, variant, trace), each with its
 * GPU events classified (ext/vtab/compare_events.c). */
static int cmp_sides_of(cmp_state *st, const cmp_frame *f, tsql_cmp_sides **out, char **err)
{
    const char *names[CMP_MAX_ARGS];
    sqlite3_value *specs[CMP_MAX_ARGS], *phase = NULL;
    int n = 0;
    for (int a = 0; a < f->fn->nargs; a++) {
        const char *name = f->fn->args[a];
        if (strcmp(name, "phase") == 0) phase = f->argv[a];
        if (strcmp(name, "baseline") != 0 && strcmp(name, "variant") != 0 && strcmp(name, "trace") != 0) continue;
        names[n] = name;
        specs[n++] = f->argv[a];
    }
    return tsql_cmp_sides_build(st->cur.catalog, names, specs, n, phase, out, err);
}

static int cmp_filter(sqlite3_vtab_cursor *cur, int idxNum, const char *idxStr, int argc,
                      sqlite3_value **argv)
{
    (void)idxStr;
    (void)argc;
    cmp_cursor *c = (cmp_cursor *)cur;
    cmp_vtab *v = (cmp_vtab *)cur->pVtab;
    cmp_rows_free(c->rows);
    c->rows = NULL;
    c->row = 0;
    cmp_frame f = {v->fn, {NULL}, v->st->top};
    int k = 0;
    for (int a = 0; a < v->fn->nargs; a++)
        if (idxNum & (1 << a)) f.argv[a] = argv[k++];
    /* no arguments at all (SELECT * FROM compare_ops): no rows, like an empty listing */
    if (idxNum == 0) return SQLITE_OK;
    for (int a = 0; a < v->fn->nrequired; a++) {
        if (!f.argv[a] || sqlite3_value_type(f.argv[a]) == SQLITE_NULL) {
            sqlite3_free(v->base.zErrMsg);
            v->base.zErrMsg = sqlite3_mprintf("%s: argument %s is required (%s(%s%s%s, ...))",
                                              v->fn->name, v->fn->args[a], v->fn->name,
                                              v->fn->args[0], v->fn->nargs > 1 ? ", " : "",
                                              v->fn->nargs > 1 ? v->fn->args[1] : "");
            return SQLITE_ERROR;
        }
    }
    char *q = sqlite3_mprintf("SELECT * FROM temp.\"%w\"", v->fn->view);
    sqlite3_stmt *s = NULL;
    int rc = q ? sqlite3_prepare_v2(v->db, q, -1, &s, NULL) : SQLITE_NOMEM;
    sqlite3_free(q);
    tsql_cmp_sides *sides = NULL;
    char *err = NULL;
    if (rc == SQLITE_OK) rc = cmp_sides_of(v->st, &f, &sides, &err);
    if (rc == SQLITE_OK) {
        /* the call's arguments and traces are current while its view runs; a call
         * made meanwhile restores them when it ends */
        tsql_cmp_sides *saved = v->st->cur.sides;
        v->st->top = &f;
        v->st->cur.sides = sides;
        c->rows = cmp_rows_collect(s, &rc);
        v->st->top = f.up;
        v->st->cur.sides = saved;
    }
    tsql_cmp_sides_unref(sides);
    if (rc != SQLITE_OK) {
        sqlite3_free(v->base.zErrMsg);
        v->base.zErrMsg = err ? err : sqlite3_mprintf("%s", sqlite3_errmsg(v->db));
    } else {
        sqlite3_free(err);
    }
    sqlite3_finalize(s);
    return rc;
}

static int cmp_next(sqlite3_vtab_cursor *cur)
{
    ((cmp_cursor *)cur)->row++;
    return SQLITE_OK;
}

static int cmp_eof(sqlite3_vtab_cursor *cur)
{
    cmp_cursor *c = (cmp_cursor *)cur;
    return !c->rows || c->row >= c->rows->nrows;
}

static int cmp_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int i)
{
    cmp_cursor *c = (cmp_cursor *)cur;
    if (i < c->rows->ncols) sqlite3_result_value(ctx, c->rows->cells[c->row * c->rows->ncols + i]);
    return SQLITE_OK;
}

static int cmp_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
    *rowid = ((cmp_cursor *)cur)->row;
    return SQLITE_OK;
}

static sqlite3_module cmp_module = {
    .iVersion = 0,
    .xCreate = NULL, /* eponymous-only */
    .xConnect = cmp_connect,
    .xBestIndex = cmp_best_index,
    .xDisconnect = cmp_disconnect,
    .xOpen = cmp_open,
    .xClose = cmp_close,
    .xFilter = cmp_filter,
    .xNext = cmp_next,
    .xEof = cmp_eof,
    .xColumn = cmp_column,
    .xRowid = cmp_rowid,
};

/* compare_arg(name): the named argument of the innermost comparison call running */
static void fn_compare_arg(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    cmp_state *st = sqlite3_user_data(ctx);
    const char *name = (const char *)sqlite3_value_text(argv[0]);
    if (!st->top) return; /* a view read directly: no arguments, no rows */
    for (int a = 0; name && a < st->top->fn->nargs; a++) {
        if (strcmp(name, st->top->fn->args[a]) == 0) {
            if (st->top->argv[a]) sqlite3_result_value(ctx, st->top->argv[a]);
            return;
        }
    }
    /* an argument the running function does not take is NULL */
}

static void fn_raise_error(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const char *msg = (const char *)sqlite3_value_text(argv[0]);
    sqlite3_result_error(ctx, msg ? msg : "raise_error", -1);
}

static int register_compare(sqlite3 *db, tsql_catalog *c)
{
    cmp_state *st = sqlite3_malloc(sizeof *st);
    if (!st) return SQLITE_NOMEM;
    st->cur.catalog = c;
    st->cur.sides = NULL;
    st->top = NULL;
    int rc = sqlite3_create_function_v2(db, "compare_arg", 1, tsql_fn_flags(TSQL_STATE), st, fn_compare_arg,
                                        NULL, NULL, sqlite3_free);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function(db, "raise_error", 1, tsql_fn_flags(TSQL_STATE), NULL,
                                     fn_raise_error, NULL, NULL);
    for (size_t i = 0; rc == SQLITE_OK && i < sizeof cmp_fns / sizeof *cmp_fns; i++)
        rc = sqlite3_create_module(db, cmp_fns[i].name, &cmp_module, st);
    if (rc == SQLITE_OK) rc = tsql_register_compare_tables(db, &st->cur);
    return rc;
}

const tsql_registration tsql_reg_compare = {.what = "comparison functions", .add = register_compare};
