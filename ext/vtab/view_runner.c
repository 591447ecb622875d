/* view_runner.c — table-valued functions over a view, streamed; see view_runner.h. */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <string.h>

#include "catalog/risk.h"
#include "vtab/view_runner.h"

typedef struct {
    tsql_view_family fam;
    tsql_view_fn fn;        /* fn.view points at view below */
    char view[];
} vr_aux;

typedef struct {
    sqlite3_vtab base;
    sqlite3 *db;
    const vr_aux *aux;
    int ncols;              /* the view's columns; the arguments follow as hidden columns */
} vr_vtab;

typedef struct {
    sqlite3_vtab_cursor base;
    sqlite3_stmt *stmt;     /* the view's statement while rows remain */
    void *frame;            /* the call's arguments */
    int eof;
    sqlite3_int64 row;
} vr_cursor;

static int vr_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
                      char **err)
{
    (void)argc;
    (void)argv;
    const vr_aux *a = aux;
    const tsql_view_fn *fn = &a->fn;
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
    for (int i = 0; i < n; i++) sqlite3_str_appendf(ddl, "%s\"%w\"", i ? ", " : "", sqlite3_column_name(s, i));
    for (int i = 0; i < fn->nargs; i++) sqlite3_str_appendf(ddl, ", \"%w\" HIDDEN", fn->args[i]);
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
    tsql_vtab_risk(db, TSQL_TOP_LEVEL); /* its arguments may be paths: never from a schema */
    vr_vtab *v = sqlite3_malloc(sizeof *v);
    if (!v) return SQLITE_NOMEM;
    memset(v, 0, sizeof *v);
    v->db = db;
    v->aux = a;
    v->ncols = n;
    *out = &v->base;
    return SQLITE_OK;
}

static int vr_disconnect(sqlite3_vtab *vt)
{
    sqlite3_free(vt);
    return SQLITE_OK;
}

/* idxNum: bit i set = argument i is given (an = constraint), in argv order */
static int vr_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
    vr_vtab *v = (vr_vtab *)vt;
    int nargs = v->aux->fn.nargs;
    int slot[TSQL_VIEW_MAX_ARGS];
    for (int i = 0; i < TSQL_VIEW_MAX_ARGS; i++) slot[i] = -1;
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *c = &info->aConstraint[i];
        int a = c->iColumn - v->ncols;
        if (a < 0 || a >= nargs || c->op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
        if (!c->usable) return SQLITE_CONSTRAINT; /* wait for the argument's value */
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
    info->estimatedCost = v->aux->fam.cost;
    info->estimatedRows = (sqlite3_int64)v->aux->fam.rows;
    return SQLITE_OK;
}

static int vr_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
    (void)vt;
    vr_cursor *c = sqlite3_malloc(sizeof *c);
    if (!c) return SQLITE_NOMEM;
    memset(c, 0, sizeof *c);
    c->eof = 1;
    *out = &c->base;
    return SQLITE_OK;
}

/* Ends the cursor's call: its statement and its frame. */
static void vr_reset(vr_cursor *c)
{
    const vr_aux *a = ((vr_vtab *)c->base.pVtab)->aux;
    sqlite3_finalize(c->stmt);
    c->stmt = NULL;
    if (c->frame) a->fam.end(c->frame);
    c->frame = NULL;
    c->eof = 1;
    c->row = 0;
}

static int vr_close(sqlite3_vtab_cursor *cur)
{
    vr_reset((vr_cursor *)cur);
    sqlite3_free(cur);
    return SQLITE_OK;
}

/* Steps the view once with the call's frame current; on an error, the message. */
static int vr_step(vr_cursor *c)
{
    vr_vtab *v = (vr_vtab *)c->base.pVtab;
    const tsql_view_family *fam = &v->aux->fam;
    /* the call's arguments are current while its view runs; a call made meanwhile
     * restores them when it ends */
    fam->enter(fam->state, c->frame);
    int rc = sqlite3_step(c->stmt);
    fam->leave(fam->state, c->frame);
    if (rc == SQLITE_ROW) return SQLITE_OK;
    c->eof = 1;
    if (rc == SQLITE_DONE) return SQLITE_OK;
    sqlite3_free(v->base.zErrMsg);
    v->base.zErrMsg = fam->name_errors ? sqlite3_mprintf("%s: %s", v->aux->fn.name, sqlite3_errmsg(v->db))
                                       : sqlite3_mprintf("%s", sqlite3_errmsg(v->db));
    /* the statement's own code (sqlite3_step's is the generic one of an old interface) */
    int code = sqlite3_reset(c->stmt);
    return code != SQLITE_OK ? code : rc;
}

static int vr_filter(sqlite3_vtab_cursor *cur, int idxNum, const char *idxStr, int argc, sqlite3_value **argv)
{
    (void)idxStr;
    (void)argc;
    vr_cursor *c = (vr_cursor *)cur;
    vr_vtab *v = (vr_vtab *)cur->pVtab;
    const tsql_view_fn *fn = &v->aux->fn;
    const tsql_view_family *fam = &v->aux->fam;
    vr_reset(c);
    sqlite3_value *args[TSQL_VIEW_MAX_ARGS] = {NULL};
    int k = 0;
    for (int a = 0; a < fn->nargs; a++)
        if (idxNum & (1 << a)) args[a] = argv[k++];
    char *err = NULL;
    int rc = fam->begin(fam->state, fn, args, &c->frame, &err);
    if (rc == SQLITE_DONE) return SQLITE_OK; /* no rows */
    if (rc == SQLITE_OK) {
        char *q = sqlite3_mprintf("SELECT * FROM temp.\"%w\"", fn->view);
        rc = q ? sqlite3_prepare_v2(v->db, q, -1, &c->stmt, NULL) : SQLITE_NOMEM;
        sqlite3_free(q);
        if (rc != SQLITE_OK) {
            sqlite3_free(v->base.zErrMsg);
            v->base.zErrMsg = fam->name_errors ? sqlite3_mprintf("%s: %s", fn->name, sqlite3_errmsg(v->db))
                                               : sqlite3_mprintf("%s", sqlite3_errmsg(v->db));
        }
    } else {
        sqlite3_free(v->base.zErrMsg);
        v->base.zErrMsg = err ? err : sqlite3_mprintf("%s: %s", fn->name, sqlite3_errstr(rc));
        err = NULL;
    }
    sqlite3_free(err);
    if (rc != SQLITE_OK) {
        vr_reset(c);
        return rc;
    }
    c->eof = 0;
    return vr_step(c);
}

static int vr_next(sqlite3_vtab_cursor *cur)
{
    vr_cursor *c = (vr_cursor *)cur;
    c->row++;
    return vr_step(c);
}

static int vr_eof(sqlite3_vtab_cursor *cur)
{
    return ((vr_cursor *)cur)->eof;
}

static int vr_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int i)
{
    vr_cursor *c = (vr_cursor *)cur;
    if (i < ((vr_vtab *)cur->pVtab)->ncols) sqlite3_result_value(ctx, sqlite3_column_value(c->stmt, i));
    return SQLITE_OK;
}

static int vr_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
    *rowid = ((vr_cursor *)cur)->row;
    return SQLITE_OK;
}

static sqlite3_module vr_module = {
    .iVersion = 0,
    .xCreate = NULL, /* eponymous-only */
    .xConnect = vr_connect,
    .xBestIndex = vr_best_index,
    .xDisconnect = vr_disconnect,
    .xOpen = vr_open,
    .xClose = vr_close,
    .xFilter = vr_filter,
    .xNext = vr_next,
    .xEof = vr_eof,
    .xColumn = vr_column,
    .xRowid = vr_rowid,
};

int tsql_view_fn_register(sqlite3 *db, const tsql_view_fn *fn, const tsql_view_family *family)
{
    size_t n = strlen(fn->view) + 1;
    vr_aux *a = sqlite3_malloc64(sizeof *a + n);
    if (!a) return SQLITE_NOMEM;
    a->fam = *family;
    a->fn = *fn;
    memcpy(a->view, fn->view, n);
    a->fn.view = a->view;
    return sqlite3_create_module_v2(db, fn->name, &vr_module, a, sqlite3_free);
}
