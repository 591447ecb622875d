/* table.c — the shared machinery of per-trace tables; see table.h. */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text/jsonlex.h"
#include "vtab/table.h"

#include "store/names.h"

/* what a module is registered with */
typedef struct pt_aux {
    tsql_catalog *catalog;
    const tsql_table *table;
    void *data;
    void (*destroy)(void *);
} pt_aux;

static int pt_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                      sqlite3_vtab **ppVtab, char **pzErr)
{
    (void)argc;
    (void)argv;
    (void)pzErr;
    const pt_aux *pa = aux;
    const tsql_table *tab = pa->table;
    int rc = sqlite3_declare_vtab(db, tab->schema);
    if (rc != SQLITE_OK) return rc;
    tsql_vtab *v = sqlite3_malloc(sizeof *v);
    if (!v) return SQLITE_NOMEM;
    memset(v, 0, sizeof *v);
    v->catalog = pa->catalog;
    v->table = tab;
    v->data = pa->data;
    tsql_vtab_risk(db, tab->risk); /* checked against the table's shape at registration */
    *ppVtab = &v->base;
    return SQLITE_OK;
}

int tsql_vtab_disconnect(sqlite3_vtab *vt)
{
    sqlite3_free(vt);
    return SQLITE_OK;
}

/* Which lookup a constraint can drive. */
enum { LK_TRACE, LK_TRACE_ID, LK_UID, LK_PARENT, LK_CORR, LK_KEY, LK_MIN, LK_MAX, LK_N };

static int is_eq(int op) { return op == SQLITE_INDEX_CONSTRAINT_EQ; }
static int is_min(int op) { return op == SQLITE_INDEX_CONSTRAINT_GT || op == SQLITE_INDEX_CONSTRAINT_GE; }
/* column want of a table, where 0 means the table has none (column 0 is trace_id) */
static int is_col(int want, int col) { return want > 0 && col == want; }
static int is_max(int op) { return op == SQLITE_INDEX_CONSTRAINT_LT || op == SQLITE_INDEX_CONSTRAINT_LE; }

static int pt_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
    const tsql_table *tab = ((tsql_vtab *)vt)->table;
    int uid_filter = tab->uid_of_row != NULL; /* uid bounds can narrow a scan */
    int pick[LK_N + TSQL_TABLE_PARAMS];
    int key = -1;
    for (int b = 0; b < LK_N + TSQL_TABLE_PARAMS; b++) pick[b] = -1;
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *c = &info->aConstraint[i];
        int col = c->iColumn, op = c->op;
        int is_arg = col >= 0 && col == tab->col_trace; /* not rowid (-1) of a table without one */
        for (int k = 0; k < tab->nparams; k++) is_arg |= col == tab->params[k];
        if (is_arg && is_eq(op) && !c->usable)
            return SQLITE_CONSTRAINT; /* the argument exists but cannot be used in this order */
        if (!c->usable || col < 0) continue;
        int b = -1;
        if (col == tab->col_trace && is_eq(op)) b = LK_TRACE;
        else if (col == tab->col_trace_id && is_eq(op)) b = LK_TRACE_ID;
        else if (is_col(tab->col_parent, col) && is_eq(op)) b = LK_PARENT;
        else if (is_col(tab->col_corr, col) && is_eq(op)) b = LK_CORR;
        else if (is_col(tab->col_uid, col) && is_eq(op) && tab->row_of_uid) b = LK_UID;
        if (b < 0 && is_eq(op))
            for (int k = 0; k < TSQL_TABLE_KEYS && tab->keys[k].col; k++)
                if (tab->keys[k].col == col && (key < 0 || key == k)) b = LK_KEY, key = k;
        if (b < 0 && is_col(tab->col_uid, col) && uid_filter)
            b = is_min(op) || is_eq(op) ? LK_MIN : is_max(op) ? LK_MAX : -1;
        if (b < 0 && is_eq(op))
            for (int k = 0; k < tab->nparams; k++)
                if (tab->params[k] == col) {
                    if (pick[LK_N + k] < 0) pick[LK_N + k] = i;
                    b = -2;
                }
        if (b >= 0 && pick[b] < 0) pick[b] = i;
        /* uid = ? on a table scanned with a uid filter bounds both ends */
        if (b == LK_MIN && is_eq(op) && pick[LK_MAX] < 0) pick[LK_MAX] = i;
    }
    /* one lookup, the most selective: uid, parent, correlation, key, then a uid range */
    int lookup = pick[LK_UID] >= 0 ? LK_UID : pick[LK_PARENT] >= 0 ? LK_PARENT
               : pick[LK_CORR] >= 0 ? LK_CORR : pick[LK_KEY] >= 0 ? LK_KEY : -1;
    int idx = 0, argn = 1;
    for (int b = 0; b < LK_N; b++) {
        if (pick[b] < 0) continue;
        if (b >= LK_UID && b <= LK_KEY && b != lookup) continue;
        if (b >= LK_MIN && lookup >= 0) continue;
        if (b == LK_MAX && pick[LK_MAX] == pick[LK_MIN]) {
            idx |= TSQL_PLAN_UID_MAX | TSQL_PLAN_UID_SAME; /* uid = ?: one value, both bounds */
            continue;
        }
        idx |= 1 << b;
        info->aConstraintUsage[pick[b]].argvIndex = argn++;
        /* equality is decided here exactly; range bounds are widened to integers, so
         * SQLite checks them again */
        info->aConstraintUsage[pick[b]].omit = b < LK_MIN;
    }
    for (int k = 0; k < tab->nparams; k++)
        if (pick[LK_N + k] >= 0) {
            idx |= TSQL_PLAN_PARAM << k;
            info->aConstraintUsage[pick[LK_N + k]].argvIndex = argn++;
            info->aConstraintUsage[pick[LK_N + k]].omit = 1;
        }
    if (idx & TSQL_PLAN_KEY) idx |= key << TSQL_PLAN_KEY_SHIFT;
    /* traces come in trace_id order and, without an index lookup, rows in row order */
    if (tab->col_seq > 0 && !(idx & (TSQL_PLAN_PARENT | TSQL_PLAN_CORR | TSQL_PLAN_KEY)) &&
        info->nOrderBy >= 1 && info->nOrderBy <= 2 && !info->aOrderBy[0].desc &&
        info->aOrderBy[0].iColumn == tab->col_trace_id &&
        (info->nOrderBy == 1 || (!info->aOrderBy[1].desc && info->aOrderBy[1].iColumn == tab->col_seq)))
        info->orderByConsumed = 1;
    double cost = 1e9, rows = 1e6;
    if (idx & (TSQL_PLAN_TRACE | TSQL_PLAN_TRACE_ID)) cost /= 50, rows /= 50;
    if (idx & TSQL_PLAN_UID) {
        cost = 5, rows = 1;
        /* unique only within one trace: several open traces each have a uid 5 */
        if (idx & (TSQL_PLAN_TRACE | TSQL_PLAN_TRACE_ID)) info->idxFlags |= SQLITE_INDEX_SCAN_UNIQUE;
    } else if (idx & (TSQL_PLAN_PARENT | TSQL_PLAN_CORR | TSQL_PLAN_KEY)) {
        cost = 20, rows = 10;
    } else if ((idx & TSQL_PLAN_UID_MIN) && (idx & TSQL_PLAN_UID_MAX)) {
        cost /= tab->rows_by_uid ? 1000 : 4, rows /= 1000;
    } else if (idx & (TSQL_PLAN_UID_MIN | TSQL_PLAN_UID_MAX)) {
        cost /= tab->rows_by_uid ? 3 : 2, rows /= 3;
    }
    /* traces and gpu_specs hold a row per open trace or GPU model: a few */
    if (tab->col_trace < 0) cost = rows = (idx & TSQL_PLAN_TRACE_ID) ? 1 : 10;
    info->idxNum = idx;
    info->estimatedCost = cost;
    info->estimatedRows = (sqlite3_int64)rows;
    return SQLITE_OK;
}

/* The integer an INTEGER column would equal: v after numeric affinity ('5' -> 5),
 * and exact (5.0 -> 5). 0 with *out, or -1 when no integer equals v. */
static int int_key(sqlite3_value *v, int64_t *out)
{
    int type = sqlite3_value_type(v);
    if (type == SQLITE_INTEGER) {
        *out = sqlite3_value_int64(v);
        return 0;
    }
    if (type != SQLITE_FLOAT && type != SQLITE_TEXT) return -1;
    sqlite3_value *w = sqlite3_value_dup(v); /* numeric_type may convert in place */
    if (!w) return -1;
    int rc = -1;
    type = sqlite3_value_numeric_type(w);
    if (type == SQLITE_INTEGER) {
        *out = sqlite3_value_int64(w);
        rc = 0;
    } else if (type == SQLITE_FLOAT) {
        double d = sqlite3_value_double(w);
        if (d >= -9223372036854775808.0 && d < 9223372036854775808.0 && d == (double)(int64_t)d) {
            *out = (int64_t)d;
            rc = 0;
        }
    }
    sqlite3_value_free(w);
    return rc;
}

/* A bound for uid > / >= / < / <= v, widened to an integer (SQLite re-checks it):
 * lower = 1 rounds up, else down. Values that are not numbers do not narrow. */
static int64_t int_bound(sqlite3_value *v, int lower)
{
    int type = sqlite3_value_type(v);
    if (type == SQLITE_INTEGER) return sqlite3_value_int64(v);
    if (type != SQLITE_FLOAT && type != SQLITE_TEXT) return lower ? INT64_MIN : INT64_MAX;
    sqlite3_value *w = sqlite3_value_dup(v);
    if (!w) return lower ? INT64_MIN : INT64_MAX;
    int64_t r = lower ? INT64_MIN : INT64_MAX;
    type = sqlite3_value_numeric_type(w);
    if (type == SQLITE_INTEGER) r = sqlite3_value_int64(w);
    else if (type == SQLITE_FLOAT) {
        double d = lower ? ceil(sqlite3_value_double(w)) : floor(sqlite3_value_double(w));
        if (d != d) r = lower ? INT64_MIN : INT64_MAX;
        else if (d <= -9223372036854775808.0) r = INT64_MIN;
        else if (d >= 9223372036854775808.0) r = INT64_MAX;
        else r = (int64_t)d;
    }
    sqlite3_value_free(w);
    return r;
}

static int pt_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **pp)
{
    tsql_cursor *cur = sqlite3_malloc(sizeof *cur);
    if (!cur) return SQLITE_NOMEM;
    memset(cur, 0, sizeof *cur);
    cur->table = ((tsql_vtab *)vt)->table;
    *pp = &cur->base;
    return SQLITE_OK;
}

/* the materialised rows, released the table's way (mat_free) or with sqlite3_free */
static void free_mat(tsql_cursor *cur)
{
    if (cur->mat && cur->table->mat_free) cur->table->mat_free(cur->mat);
    else sqlite3_free(cur->mat);
    cur->mat = NULL;
}

static void release_entries(tsql_cursor *cur)
{
    for (int k = 0; k < TSQL_TABLE_PARAMS; k++) {
        sqlite3_value_free(cur->param[k]);
        cur->param[k] = NULL;
    }
    free_mat(cur);
    for (int i = 0; i < cur->nentries; i++) tsql_entry_unref(cur->entries[i]);
    sqlite3_free(cur->entries);
    cur->entries = NULL;
    cur->nentries = cur->ientry = 0;
    cur->e = NULL;
}

static int pt_close(sqlite3_vtab_cursor *p)
{
    tsql_cursor *cur = (tsql_cursor *)p;
    release_entries(cur);
    free(cur->buf.p);
    sqlite3_free(cur);
    return SQLITE_OK;
}

/* Positions the cursor on the first row of entry ientry (or further ones). */
static int start_entry(tsql_cursor *cur);

/* 1 if the scan's uid filter keeps row. */
static int uid_in_range(const tsql_cursor *cur, const tsql_trace *t, uint32_t row)
{
    if (!cur->table->uid_of_row) return 1;
    int64_t u = cur->table->uid_of_row(t, row);
    return u >= cur->uid_lo && u <= cur->uid_hi;
}

/* Advances within the current trace to the next row that exists; 1 if found. */
static int settle(tsql_cursor *cur)
{
    const tsql_trace *t = cur->e->trace;
    const tsql_table *tab = cur->table;
    if (!cur->cand) {
        while (cur->row < cur->nrows &&
               ((tab->skip_row && tab->skip_row(t, cur->row)) || !uid_in_range(cur, t, cur->row)))
            cur->row++;
        return cur->row < cur->nrows;
    }
    while (cur->icand < cur->ncand) {
        uint32_t c = cur->cand[cur->icand];
        uint32_t r = cur->cand_rows ? c : tab->row_of_uid(t, c);
        if (r != UINT32_MAX && !(cur->cand_rows && tab->skip_row && tab->skip_row(t, r))) {
            cur->row = r;
            return 1;
        }
        cur->icand++;
    }
    return 0;
}

/* First row whose uid is >= u, in a table whose rows ascend by uid. */
static uint32_t first_row_from_uid(const tsql_cursor *cur, const tsql_trace *t, int64_t u)
{
    uint32_t lo = 0, hi = cur->nrows;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if ((int64_t)cur->table->uid_of_row(t, mid) < u) lo = mid + 1; else hi = mid;
    }
    return lo;
}

/* The candidates of an index lookup on trace t; 0 or SQLITE_NOMEM. */
static int lookup(tsql_cursor *cur, tsql_trace *t)
{
    const tsql_table *tab = cur->table;
    cur->cand = &cur->one;
    cur->ncand = 0;
    cur->cand_rows = 0;
    if (cur->idxNum & TSQL_PLAN_UID) {
        if (cur->key_uid >= 0 && cur->key_uid < t->n) {
            cur->one = (uint32_t)cur->key_uid;
            cur->ncand = 1;
        }
    } else if (cur->idxNum & TSQL_PLAN_PARENT) {
        if (cur->key_parent >= 0 && cur->key_parent < t->n) {
            uint32_t p = (uint32_t)cur->key_parent;
            cur->cand = t->child + t->child_at[p];
            cur->ncand = t->child_at[p + 1] - t->child_at[p];
        }
    } else if (cur->idxNum & TSQL_PLAN_CORR) {
        uint32_t cnt = 0;
        long at = tsql_trace_find_correlation(t, cur->key_corr, &cnt);
        if (at < 0) return SQLITE_NOMEM;
        cur->cand = t->by_corr + at;
        cur->ncand = cnt;
    } else if (cur->idxNum & TSQL_PLAN_KEY) {
        const tsql_key_index *ix = tsql_trace_cached(t, tab->keys[cur->idxNum >> TSQL_PLAN_KEY_SHIFT].index);
        if (!ix) return SQLITE_NOMEM;
        uint32_t lo = 0, hi = ix->n;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (ix->key[mid] < cur->key_col) lo = mid + 1; else hi = mid;
        }
        uint32_t end = lo;
        while (end < ix->n && ix->key[end] == cur->key_col) end++;
        cur->cand = ix->row + lo;
        cur->ncand = end - lo;
        cur->cand_rows = 1;
    } else {
        cur->cand = NULL; /* a scan, perhaps of a uid range */
        if (tab->rows_by_uid && tab->uid_of_row && cur->uid_lo > 0)
            cur->row = first_row_from_uid(cur, t, cur->uid_lo);
        if (tab->rows_by_uid && tab->uid_of_row && cur->uid_hi < INT64_MAX)
            cur->nrows = first_row_from_uid(cur, t, cur->uid_hi + 1);
        if (cur->nrows < cur->row) cur->nrows = cur->row;
    }
    return SQLITE_OK;
}

static int start_entry(tsql_cursor *cur)
{
    for (; cur->ientry < cur->nentries; cur->ientry++) {
        cur->e = cur->entries[cur->ientry];
        tsql_trace *t = cur->e->trace;
        if (cur->table->prepare && cur->table->prepare(t)) return SQLITE_NOMEM;
        cur->row = 0;
        if (cur->table->materialize) {
            free_mat(cur);
            char *err = NULL;
            long n = cur->table->materialize(cur, t, &err);
            if (n < 0) {
                if (!err) return SQLITE_NOMEM;
                sqlite3_free(cur->base.pVtab->zErrMsg);
                cur->base.pVtab->zErrMsg = err;
                return SQLITE_ERROR;
            }
            cur->nrows = (uint32_t)n;
        } else {
            cur->nrows = cur->table->nrows(t);
        }
        cur->icand = 0;
        int rc = lookup(cur, t);
        if (rc != SQLITE_OK) return rc;
        if (settle(cur)) return SQLITE_OK;
    }
    cur->e = NULL;
    return SQLITE_OK;
}

static int pt_filter(sqlite3_vtab_cursor *p, int idxNum, const char *idxStr, int argc,
                     sqlite3_value **argv)
{
    (void)idxStr;
    (void)argc;
    tsql_cursor *cur = (tsql_cursor *)p;
    tsql_catalog *c = ((tsql_vtab *)p->pVtab)->catalog;
    release_entries(cur);
    cur->idxNum = idxNum;
    int a = 0, nomatch = 0;
    tsql_entry *only = NULL;
    if (idxNum & TSQL_PLAN_TRACE) {
        char *zErr = NULL;
        only = tsql_catalog_resolve(c, argv[a++], 1, &zErr);
        if (!only) {
            sqlite3_free(p->pVtab->zErrMsg);
            p->pVtab->zErrMsg = zErr;
            return SQLITE_ERROR;
        }
    }
    int64_t want_id = -1;
    int has_id = 0;
    if (idxNum & TSQL_PLAN_TRACE_ID) {
        has_id = 1;
        if (int_key(argv[a++], &want_id)) nomatch = 1;
    }
    cur->key_uid = cur->key_parent = -1;
    cur->key_corr = cur->key_col = 0;
    cur->uid_lo = INT64_MIN;
    cur->uid_hi = INT64_MAX;
    if ((idxNum & TSQL_PLAN_UID) && int_key(argv[a++], &cur->key_uid)) nomatch = 1;
    if ((idxNum & TSQL_PLAN_PARENT) && int_key(argv[a++], &cur->key_parent)) nomatch = 1;
    if ((idxNum & TSQL_PLAN_CORR) && int_key(argv[a++], &cur->key_corr)) nomatch = 1;
    if ((idxNum & TSQL_PLAN_KEY) && int_key(argv[a++], &cur->key_col)) nomatch = 1;
    if (idxNum & TSQL_PLAN_UID_MIN) {
        cur->uid_lo = int_bound(argv[a], 1);
        if (idxNum & TSQL_PLAN_UID_SAME) cur->uid_hi = int_bound(argv[a], 0); /* uid = ? */
        a++;
    }
    if ((idxNum & TSQL_PLAN_UID_MAX) && !(idxNum & TSQL_PLAN_UID_SAME)) cur->uid_hi = int_bound(argv[a++], 0);
    for (int k = 0; k < TSQL_TABLE_PARAMS; k++)
        if ((idxNum & (TSQL_PLAN_PARAM << k)) && !(cur->param[k] = sqlite3_value_dup(argv[a++])))
            return SQLITE_NOMEM;
    if (cur->table->own_nrows) {
        /* one pass over the table's own rows (it has no trace columns to resolve) */
        cur->row = 0;
        cur->nrows = cur->table->own_nrows(cur);
        return SQLITE_OK;
    }
    /* which traces */
    int n = only ? 1 : c->nopen;
    cur->entries = sqlite3_malloc64((sqlite3_uint64)(n ? n : 1) * sizeof *cur->entries);
    if (!cur->entries) {
        tsql_entry_unref(only);
        return SQLITE_NOMEM;
    }
    if (only) {
        if (!nomatch && (!has_id || want_id == only->id)) cur->entries[cur->nentries++] = only;
        else tsql_entry_unref(only);
    } else if (!nomatch) {
        for (int i = 0; i < c->nopen; i++) {
            if (has_id && c->open[i]->id != want_id) continue;
            tsql_entry_ref(c->open[i]);
            cur->entries[cur->nentries++] = c->open[i];
        }
    }
    cur->ientry = 0;
    return start_entry(cur);
}

static int pt_next(sqlite3_vtab_cursor *p)
{
    tsql_cursor *cur = (tsql_cursor *)p;
    if (cur->cand) cur->icand++;
    else cur->row++;
    if (cur->table->own_nrows || settle(cur)) return SQLITE_OK;
    cur->ientry++;
    return start_entry(cur);
}

static int pt_eof(sqlite3_vtab_cursor *p)
{
    const tsql_cursor *cur = (const tsql_cursor *)p;
    return cur->table->own_nrows ? cur->row >= cur->nrows : cur->e == NULL;
}

static int pt_column(sqlite3_vtab_cursor *p, sqlite3_context *ctx, int col)
{
    tsql_cursor *cur = (tsql_cursor *)p;
    if (col == cur->table->col_trace) {
        sqlite3_result_int64(ctx, cur->e->id);
        return SQLITE_OK;
    }
    if (col == cur->table->col_trace_id) {
        sqlite3_result_int64(ctx, cur->e->id);
        return SQLITE_OK;
    }
    const tsql_table *tab = cur->table;
    if (tab->event_fields && tab->event_fields[col])
        return tsql_result_event(cur, ctx, (tab->event_of_row ? tab->event_of_row : tab->uid_of_row)(cur->e->trace, cur->row),
                                 tab->event_fields[col]);
    return tab->column(cur, ctx, col);
}

static int pt_rowid(sqlite3_vtab_cursor *p, sqlite3_int64 *rowid)
{
    tsql_cursor *cur = (tsql_cursor *)p;
    if (cur->table->rowid) *rowid = cur->table->rowid(cur);
    else if (!cur->e) *rowid = cur->row;
    else *rowid = (cur->e->id << 32) | cur->row;
    return SQLITE_OK;
}

static int pt_update(sqlite3_vtab *vt, int argc, sqlite3_value **argv, sqlite3_int64 *rowid)
{
    return ((tsql_vtab *)vt)->table->update(vt, argc, argv, rowid);
}

#define PT_MODULE_READ                                                                  \
    .xConnect = pt_connect, .xBestIndex = pt_best_index, .xDisconnect = tsql_vtab_disconnect, \
    .xOpen = pt_open, .xClose = pt_close, .xFilter = pt_filter, .xNext = pt_next,       \
    .xEof = pt_eof, .xColumn = pt_column, .xRowid = pt_rowid

static const sqlite3_module pt_module = {PT_MODULE_READ};
/* without xUpdate SQLite refuses writes when it prepares them, with a clear message */
static const sqlite3_module pt_module_writable = {PT_MODULE_READ, .xUpdate = pt_update};

static void aux_free(void *p)
{
    pt_aux *aux = p;
    if (aux->destroy) aux->destroy(aux->data);
    sqlite3_free(aux);
}

static int register_module(sqlite3 *db, const char *name, const tsql_table *tab, tsql_catalog *c,
                           void *data, void (*destroy)(void *))
{
    /* the rule of catalog/risk.h: a trace argument opens paths, a writable table is
     * never innocuous; a table without a class is not registered */
    const char *why = tab->risk == TSQL_RISK_UNSET ? "declares no risk class"
                    : tab->col_trace >= 0 && tab->risk != TSQL_TOP_LEVEL ? "opens paths but is not TSQL_TOP_LEVEL"
                    : tab->update && tab->risk < TSQL_TRUSTED ? "is writable but declared innocuous"
                                                              : NULL;
    if (why) {
        if (destroy) destroy(data);
        sqlite3_free(c->init_error);
        c->init_error = sqlite3_mprintf("table %s %s (ext/catalog/risk.h)", name, why);
        return SQLITE_MISUSE;
    }
    pt_aux *aux = sqlite3_malloc(sizeof *aux);
    if (!aux) {
        if (destroy) destroy(data);
        return SQLITE_NOMEM;
    }
    *aux = (pt_aux){c, tab, data, destroy};
    /* SQLite calls aux_free when registration fails too */
    return sqlite3_create_module_v2(db, name, tab->update ? &pt_module_writable : &pt_module, aux, aux_free);
}

int tsql_register_table_data(sqlite3 *db, const tsql_table *tab, tsql_catalog *c, void *data,
                             void (*destroy)(void *))
{
    return register_module(db, tab->name, tab, c, data, destroy);
}

int tsql_register_table(sqlite3 *db, const char *name, const tsql_table *tab, tsql_catalog *c)
{
    return register_module(db, name, tab, c, NULL, NULL);
}

void tsql_result_str(sqlite3_context *ctx, const tsql_trace *t, uint32_t id)
{
    if (id)
        sqlite3_result_text(ctx, tsql_intern_str(&t->strings, id), (int)tsql_intern_len(&t->strings, id),
                            SQLITE_STATIC);
}

void tsql_result_i64(sqlite3_context *ctx, int64_t v)
{
    if (v != TSQL_NULL) sqlite3_result_int64(ctx, v);
}

void tsql_result_real(sqlite3_context *ctx, double x)
{
    if (!isnan(x)) sqlite3_result_double(ctx, x);
}

void tsql_result_text(sqlite3_context *ctx, const char *s)
{
    if (s) sqlite3_result_text(ctx, s, -1, SQLITE_TRANSIENT);
}

void tsql_result_uid(sqlite3_context *ctx, uint32_t uid)
{
    if (uid != TSQL_NONE) sqlite3_result_int64(ctx, uid);
}

void tsql_result_pidtid(tsql_cursor *cur, sqlite3_context *ctx, uint32_t id)
{
    const tsql_trace *t = cur->e->trace;
    if (!id) return;
    const char *s = tsql_intern_str(&t->strings, id);
    size_t n = tsql_intern_len(&t->strings, id);
    if (n >= 2 && s[0] == '"') {
        if (!memchr(s, '\\', n)) {
            sqlite3_result_text(ctx, s + 1, (int)n - 2, SQLITE_STATIC);
            return;
        }
        cur->buf.n = 0;
        if (tsql_unescape(s + 1, n - 2, &cur->buf)) {
            sqlite3_result_error_nomem(ctx);
            return;
        }
        sqlite3_result_text(ctx, cur->buf.p, (int)cur->buf.n, SQLITE_TRANSIENT);
        return;
    }
    int64_t v;
    if (tsql_parse_int64(s, n, &v) == 0) sqlite3_result_int64(ctx, v);
    else if (n && ((s[0] >= '0' && s[0] <= '9') || s[0] == '-')) sqlite3_result_double(ctx, tsql_parse_double(s, n));
    else sqlite3_result_text(ctx, s, (int)n, SQLITE_STATIC);
}

void tsql_result_arg(sqlite3_context *ctx, const tsql_trace *t, uint32_t uid, const char *key)
{
    size_t n;
    const char *v = tsql_trace_arg_raw(t, uid, key, &n);
    if (v) sqlite3_result_text(ctx, v, (int)n, SQLITE_STATIC); /* interned: lives with the trace */
}

/* kernel_details: [{"name", "dur" (µs), "stream"[, "gpu_op_uid"]}, ...] for g[0..n) */
int tsql_kernel_details_json(tsql_trace *t, const uint32_t *g, uint32_t n, int with_uid, tsql_buf *b)
{
    int whole = tsql_trace_whole_us(t);
    if (whole < 0) return -1;
    b->n = 0;
    if (tsql_buf_reserve(b, 2)) return -1;
    b->p[b->n++] = '[';
    for (uint32_t j = 0; j < n; j++) {
        uint32_t u = g[j], nm = t->name[u];
        int first = 1;
        if ((j && tsql_bputc(b, ',')) || tsql_bputc(b, '{') || tsql_json_key(b, &first, "name") ||
            tsql_json_quote(b, nm ? tsql_intern_str(&t->strings, nm) : "", nm ? tsql_intern_len(&t->strings, nm) : 0))
            return -1;
        double dur = tsql_trace_dur_us(t, u);
        if (tsql_json_key(b, &first, "dur") || (whole ? tsql_json_double(b, dur) : tsql_json_float(b, dur)))
            return -1;
        int64_t s = tsql_icol_get(&t->stream, u);
        if (tsql_json_key(b, &first, "stream") || (s == TSQL_NULL ? tsql_bputs(b, "null") : tsql_json_i64(b, s)))
            return -1;
        if (with_uid && (tsql_json_key(b, &first, "gpu_op_uid") || tsql_json_i64(b, u))) return -1;
        if (tsql_bputc(b, '}')) return -1;
    }
    if (tsql_buf_reserve(b, 1)) return -1;
    b->p[b->n++] = ']';
    return 0;
}

int tsql_result_event_field(sqlite3_context *ctx, const tsql_trace *t, uint32_t u, int f)
{
    switch (f) {
    case TSQL_EV_NAME: tsql_result_str(ctx, t, t->name[u]); break;
    case TSQL_EV_CAT: tsql_result_str(ctx, t, t->cat[u]); break;
    case TSQL_EV_KIND:
        if (t->cat[u] || t->kind[u]) sqlite3_result_text(ctx, tsql_kind_names[t->kind[u]], -1, SQLITE_STATIC);
        break;
    case TSQL_EV_TS:
        if (t->ts_ns[u] != TSQL_NULL) sqlite3_result_double(ctx, tsql_trace_ts_us(t, u));
        break;
    case TSQL_EV_DUR:
        if (t->dur_ns[u] != TSQL_NULL) sqlite3_result_double(ctx, tsql_trace_dur_us(t, u));
        break;
    case TSQL_EV_TS_NS: tsql_result_i64(ctx, t->ts_ns[u]); break;
    case TSQL_EV_DUR_NS: tsql_result_i64(ctx, t->dur_ns[u]); break;
    case TSQL_EV_STREAM: tsql_result_i64(ctx, tsql_icol_get(&t->stream, u)); break;
    case TSQL_EV_DEVICE: tsql_result_i64(ctx, tsql_icol_get(&t->device, u)); break;
    case TSQL_EV_CORRELATION: tsql_result_i64(ctx, tsql_icol_get(&t->correlation, u)); break;
    case TSQL_EV_EXTERNAL_ID: tsql_result_i64(ctx, tsql_icol_get(&t->external_id, u)); break;
    case TSQL_EV_INPUT_DIMS: tsql_result_arg(ctx, t, u, "Input Dims"); break;
    case TSQL_EV_INPUT_TYPE: tsql_result_arg(ctx, t, u, "Input type"); break;
    case TSQL_EV_INPUT_STRIDES: tsql_result_arg(ctx, t, u, "Input Strides"); break;
    case TSQL_EV_CONCRETE_INPUTS: tsql_result_arg(ctx, t, u, "Concrete Inputs"); break;
    default: return 0;
    }
    return 1;
}

int tsql_result_event(tsql_cursor *cur, sqlite3_context *ctx, uint32_t u, int f)
{
    const tsql_trace *t = cur->e->trace;
    if (tsql_result_event_field(ctx, t, u, f)) return SQLITE_OK;
    switch (f) {
    case TSQL_EV_PID: tsql_result_pidtid(cur, ctx, t->pid[u]); break;
    case TSQL_EV_TID: tsql_result_pidtid(cur, ctx, t->tid[u]); break;
    case TSQL_EV_PROCESS_NAME: tsql_result_meta(cur, ctx, u, TSQL_META_PROCESS_NAME); break;
    case TSQL_EV_PROCESS_LABEL: tsql_result_meta(cur, ctx, u, TSQL_META_PROCESS_LABEL); break;
    case TSQL_EV_THREAD_NAME: tsql_result_meta(cur, ctx, u, TSQL_META_THREAD_NAME); break;
    default: break;
    }
    return SQLITE_OK;
}

void tsql_result_meta(tsql_cursor *cur, sqlite3_context *ctx, uint32_t uid, int which)
{
    tsql_meta_names m;
    if (tsql_meta_lookup(cur->e->trace, uid, &m, &cur->buf)) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    /* cached names live with the trace, which the cursor holds a reference to */
    sqlite3_result_text(ctx, m.s[which], (int)m.len[which], m.stable ? SQLITE_STATIC : SQLITE_TRANSIENT);
}

uint32_t tsql_row_is_uid(const tsql_trace *t, uint32_t row)
{
    (void)t;
    return row;
}

/* ---------- key indexes ---------- */

typedef struct { int64_t key; uint32_t row; } key_row;

static int cmp_key_row(const void *x, const void *y)
{
    const key_row *a = x, *b = y;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    return (a->row > b->row) - (a->row < b->row);
}

tsql_key_index *tsql_key_index_build(tsql_trace *t, uint32_t nrows,
                                     int64_t (*key_of)(const tsql_trace *t, uint32_t row))
{
    tsql_key_index *ix = calloc(1, sizeof *ix);
    key_row *kr = malloc((size_t)(nrows ? nrows : 1) * sizeof *kr);
    if (!ix || !kr) goto oom;
    uint32_t n = 0;
    for (uint32_t r = 0; r < nrows; r++) {
        int64_t k = key_of(t, r);
        if (k != TSQL_NULL) kr[n++] = (key_row){k, r};
    }
    qsort(kr, n, sizeof *kr, cmp_key_row);
    ix->key = malloc((size_t)(n ? n : 1) * sizeof *ix->key);
    ix->row = malloc((size_t)(n ? n : 1) * sizeof *ix->row);
    if (!ix->key || !ix->row) goto oom;
    for (uint32_t i = 0; i < n; i++) ix->key[i] = kr[i].key, ix->row[i] = kr[i].row;
    ix->n = n;
    free(kr);
    return ix;
oom:
    free(kr);
    tsql_key_index_free(ix);
    return NULL;
}

void tsql_key_index_free(void *index)
{
    tsql_key_index *ix = index;
    if (!ix) return;
    free(ix->key);
    free(ix->row);
    free(ix);
}
