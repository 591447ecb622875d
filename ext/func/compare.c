/*
 * compare.c — the comparison functions as table-valued functions over SQL views
 * (docs/compare.md): compare_ops, compare_layers, compare_kernels, compare_fusion,
 * compare_metadata, compare_stacks, gpu_ops.
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

#include "catalog/catalog.h"

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
    {"compare_stacks", "compare_stacks_v", 4, 2, {"trace", "operation", "n", "phase"}},
    {"gpu_ops", "gpu_ops_v", 1, 1, {"trace"}},
};

/* the arguments of the calls running now, innermost last */
typedef struct cmp_frame {
    const cmp_fn *fn;
    sqlite3_value *argv[CMP_MAX_ARGS];
    struct cmp_frame *up;
} cmp_frame;

typedef struct {
    cmp_frame *top;
} cmp_state;

typedef struct {
    sqlite3_vtab base;
    sqlite3 *db;
    cmp_state *st;
    const cmp_fn *fn;
    int ncols; /* the view's columns; the arguments follow as hidden columns */
} cmp_vtab;

typedef struct {
    sqlite3_vtab_cursor base;
    sqlite3_value **cells; /* nrows * ncols */
    sqlite3_int64 nrows, row;
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
    char *q = sqlite3_mprintf("SELECT * FROM temp.\"%w\"", fn->view);
    sqlite3_stmt *s = NULL;
    int rc = q ? sqlite3_prepare_v2(db, q, -1, &s, NULL) : SQLITE_NOMEM;
    sqlite3_free(q);
    if (rc != SQLITE_OK) {
        *err = sqlite3_mprintf("%s: view %s: %s", fn->name, fn->view, sqlite3_errmsg(db));
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
        *err = sqlite3_mprintf("%s: %s", fn->name, sqlite3_errmsg(db));
        return rc;
    }
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
    int slot[CMP_MAX_ARGS];
    for (int i = 0; i < CMP_MAX_ARGS; i++) slot[i] = -1;
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *c = &info->aConstraint[i];
        int a = c->iColumn - v->ncols;
        if (a < 0 || a >= v->fn->nargs) continue;
        if (c->op != SQLITE_INDEX_CONSTRAINT_EQ || !c->usable) {
            if (c->op == SQLITE_INDEX_CONSTRAINT_EQ) return SQLITE_CONSTRAINT;
            continue;
        }
        slot[a] = i;
    }
    int mask = 0, next = 1;
    for (int a = 0; a < v->fn->nargs; a++) {
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

static void cmp_clear(cmp_cursor *c, int ncols)
{
    for (sqlite3_int64 i = 0; i < c->nrows * ncols; i++) sqlite3_value_free(c->cells[i]);
    sqlite3_free(c->cells);
    c->cells = NULL;
    c->nrows = c->row = 0;
}

static int cmp_close(sqlite3_vtab_cursor *cur)
{
    cmp_cursor *c = (cmp_cursor *)cur;
    cmp_clear(c, ((cmp_vtab *)cur->pVtab)->ncols);
    sqlite3_free(c);
    return SQLITE_OK;
}

static int cmp_filter(sqlite3_vtab_cursor *cur, int idxNum, const char *idxStr, int argc,
                      sqlite3_value **argv)
{
    (void)idxStr;
    (void)argc;
    cmp_cursor *c = (cmp_cursor *)cur;
    cmp_vtab *v = (cmp_vtab *)cur->pVtab;
    cmp_clear(c, v->ncols);
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
    if (rc != SQLITE_OK) goto fail;
    v->st->top = &f;
    sqlite3_int64 cap = 0;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        if (c->nrows == cap) {
            cap = cap ? cap * 2 : 64;
            sqlite3_value **cells = sqlite3_realloc64(c->cells, (sqlite3_uint64)(cap * v->ncols) * sizeof *cells);
            if (!cells) {
                rc = SQLITE_NOMEM;
                break;
            }
            c->cells = cells;
        }
        sqlite3_value **row = c->cells + c->nrows * v->ncols;
        int ok = 1;
        for (int i = 0; i < v->ncols; i++) {
            row[i] = sqlite3_value_dup(sqlite3_column_value(s, i));
            if (!row[i]) ok = 0;
        }
        c->nrows++;
        if (!ok) {
            rc = SQLITE_NOMEM;
            break;
        }
    }
    v->st->top = f.up;
    if (rc == SQLITE_DONE) rc = SQLITE_OK;
    if (rc != SQLITE_OK) cmp_clear(c, v->ncols);
fail:
    if (rc != SQLITE_OK) {
        sqlite3_free(v->base.zErrMsg);
        v->base.zErrMsg = sqlite3_mprintf("%s", sqlite3_errmsg(v->db));
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
    return c->row >= c->nrows;
}

static int cmp_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int i)
{
    cmp_cursor *c = (cmp_cursor *)cur;
    cmp_vtab *v = (cmp_vtab *)cur->pVtab;
    if (i < v->ncols) sqlite3_result_value(ctx, c->cells[c->row * v->ncols + i]);
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

static void cmp_state_free(void *p)
{
    cmp_state *st = p;
    sqlite3_free(st);
}

int tsql_register_compare(sqlite3 *db, tsql_catalog *c)
{
    (void)c;
    cmp_state *st = sqlite3_malloc(sizeof *st);
    if (!st) return SQLITE_NOMEM;
    st->top = NULL;
    int rc = sqlite3_create_function_v2(db, "compare_arg", 1, SQLITE_UTF8, st, fn_compare_arg,
                                        NULL, NULL, cmp_state_free);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function(db, "raise_error", 1, SQLITE_UTF8 | SQLITE_INNOCUOUS, NULL,
                                     fn_raise_error, NULL, NULL);
    for (size_t i = 0; rc == SQLITE_OK && i < sizeof cmp_fns / sizeof *cmp_fns; i++)
        rc = sqlite3_create_module(db, cmp_fns[i].name, &cmp_module, st);
    return rc;
}
