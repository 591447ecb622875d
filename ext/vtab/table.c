/* vtab_util.c — the shared machinery of per-trace tables; see vtab_util.h. */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text/jsonlex.h"
#include "vtab/table.h"

#include "store/names.h"

static int pt_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                      sqlite3_vtab **ppVtab, char **pzErr)
{
    (void)argc;
    (void)argv;
    (void)pzErr;
    const tsql_table *tab = ((const void **)aux)[1];
    int rc = sqlite3_declare_vtab(db, tab->schema);
    if (rc != SQLITE_OK) return rc;
    tsql_vtab *v = sqlite3_malloc(sizeof *v);
    if (!v) return SQLITE_NOMEM;
    memset(v, 0, sizeof *v);
    v->catalog = ((void **)aux)[0];
    v->table = tab;
    /* a path argument makes the table read files: never from an untrusted schema */
    sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY);
    *ppVtab = &v->base;
    return SQLITE_OK;
}

int tsql_vtab_disconnect(sqlite3_vtab *vt)
{
    sqlite3_free(vt);
    return SQLITE_OK;
}

static int pt_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
    const tsql_table *tab = ((tsql_vtab *)vt)->table;
    int cols[5] = {tab->col_trace, tab->col_trace_id, tab->col_uid, tab->col_parent, tab->col_corr};
    int pick[5] = {-1, -1, -1, -1, -1};
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *c = &info->aConstraint[i];
        if (c->op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
        for (int b = 0; b < 5; b++) {
            if (cols[b] < 0 || c->iColumn != cols[b]) continue;
            if (!c->usable) {
                /* the function argument exists but cannot be used in this order */
                if (b == 0) return SQLITE_CONSTRAINT;
                continue;
            }
            pick[b] = i;
        }
    }
    int idx = 0, argn = 1;
    double cost = 1e9;
    double rows = 1e6;
    for (int b = 0; b < 5; b++) {
        if (pick[b] < 0) continue;
        /* uid beats parent beats correlation: use only the most selective lookup */
        if (b >= 3 && (idx & 0x04)) continue;
        if (b == 4 && (idx & 0x08)) continue;
        idx |= 1 << b;
        info->aConstraintUsage[pick[b]].argvIndex = argn++;
        info->aConstraintUsage[pick[b]].omit = 1;
    }
    if (idx & 0x03) {
        cost /= 50;
        rows /= 50;
    }
    if (idx & 0x04) {
        cost = 5;
        rows = 1;
        info->idxFlags |= SQLITE_INDEX_SCAN_UNIQUE;
    } else if (idx & 0x18) {
        cost = 20;
        rows = 10;
    }
    info->idxNum = idx;
    info->estimatedCost = cost;
    info->estimatedRows = (sqlite3_int64)rows;
    return SQLITE_OK;
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

static void release_entries(tsql_cursor *cur)
{
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

/* Advances within the current trace to the next row that exists; 1 if found. */
static int settle(tsql_cursor *cur)
{
    const tsql_trace *t = cur->e->trace;
    if (!cur->cand) {
        if (cur->table->skip_row)
            while (cur->row < cur->nrows && cur->table->skip_row(t, cur->row)) cur->row++;
        return cur->row < cur->nrows;
    }
    while (cur->icand < cur->ncand) {
        uint32_t r = cur->table->row_of_uid(t, cur->cand[cur->icand]);
        if (r != UINT32_MAX) {
            cur->row = r;
            return 1;
        }
        cur->icand++;
    }
    return 0;
}

static int start_entry(tsql_cursor *cur)
{
    for (; cur->ientry < cur->nentries; cur->ientry++) {
        cur->e = cur->entries[cur->ientry];
        tsql_trace *t = cur->e->trace;
        if (cur->table->prepare && cur->table->prepare(t)) return SQLITE_NOMEM;
        cur->cand = NULL;
        cur->row = 0;
        cur->nrows = cur->table->nrows(t);
        cur->icand = cur->ncand = 0;
        if (cur->idxNum & 0x04) {
            if (cur->key_uid >= 0 && cur->key_uid < t->n) {
                cur->one = (uint32_t)cur->key_uid;
                cur->cand = &cur->one;
                cur->ncand = 1;
            } else {
                cur->cand = &cur->one;
                cur->ncand = 0;
            }
        } else if (cur->idxNum & 0x08) {
            cur->cand = &cur->one;
            cur->ncand = 0;
            if (cur->key_parent >= 0 && cur->key_parent < t->n) {
                uint32_t p = (uint32_t)cur->key_parent;
                cur->cand = t->child + t->child_at[p];
                cur->ncand = t->child_at[p + 1] - t->child_at[p];
            }
        } else if (cur->idxNum & 0x10) {
            uint32_t cnt = 0;
            long at = tsql_trace_find_correlation(t, cur->key_corr, &cnt);
            if (at < 0) return SQLITE_NOMEM;
            cur->cand = t->by_corr + at;
            cur->ncand = cnt;
        }
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
    int a = 0;
    tsql_entry *only = NULL;
    if (idxNum & 0x01) {
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
    if (idxNum & 0x02) {
        sqlite3_value *v = argv[a++];
        has_id = 1;
        want_id = sqlite3_value_type(v) == SQLITE_INTEGER ? sqlite3_value_int64(v) : -1;
    }
    cur->key_uid = cur->key_parent = -1;
    cur->key_corr = 0;
    if (idxNum & 0x04) cur->key_uid = sqlite3_value_type(argv[a]) == SQLITE_INTEGER ? sqlite3_value_int64(argv[a]) : -1, a++;
    if (idxNum & 0x08) cur->key_parent = sqlite3_value_type(argv[a]) == SQLITE_INTEGER ? sqlite3_value_int64(argv[a]) : -1, a++;
    if (idxNum & 0x10) {
        if (sqlite3_value_type(argv[a]) != SQLITE_INTEGER) cur->idxNum = (idxNum & ~0x10) | 0x04, cur->key_uid = -1;
        else cur->key_corr = sqlite3_value_int64(argv[a]);
        a++;
    }
    /* which traces */
    int n = only ? 1 : c->nopen;
    cur->entries = sqlite3_malloc64((sqlite3_uint64)(n ? n : 1) * sizeof *cur->entries);
    if (!cur->entries) {
        tsql_entry_unref(only);
        return SQLITE_NOMEM;
    }
    if (only) {
        if (!has_id || want_id == only->id) cur->entries[cur->nentries++] = only;
        else tsql_entry_unref(only);
    } else {
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
    if (settle(cur)) return SQLITE_OK;
    cur->ientry++;
    return start_entry(cur);
}

static int pt_eof(sqlite3_vtab_cursor *p)
{
    return ((tsql_cursor *)p)->e == NULL;
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
    return cur->table->column(cur, ctx, col);
}

static int pt_rowid(sqlite3_vtab_cursor *p, sqlite3_int64 *rowid)
{
    tsql_cursor *cur = (tsql_cursor *)p;
    *rowid = (cur->e->id << 32) | cur->row;
    return SQLITE_OK;
}

static const sqlite3_module pt_module = {
    .xConnect = pt_connect,
    .xBestIndex = pt_best_index,
    .xDisconnect = tsql_vtab_disconnect,
    .xOpen = pt_open,
    .xClose = pt_close,
    .xFilter = pt_filter,
    .xNext = pt_next,
    .xEof = pt_eof,
    .xColumn = pt_column,
    .xRowid = pt_rowid,
};

int tsql_register_table(sqlite3 *db, const char *name, const tsql_table *tab, tsql_catalog *c)
{
    void **aux = sqlite3_malloc(2 * sizeof *aux);
    if (!aux) return SQLITE_NOMEM;
    aux[0] = c;
    aux[1] = (void *)(uintptr_t)tab;
    return sqlite3_create_module_v2(db, name, &pt_module, aux, sqlite3_free);
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
int tsql_kernel_details_json(const tsql_trace *t, const uint32_t *g, uint32_t n, int with_uid, tsql_buf *b)
{
    b->n = 0;
    if (tsql_buf_reserve(b, 2)) return -1;
    b->p[b->n++] = '[';
    for (uint32_t j = 0; j < n; j++) {
        uint32_t u = g[j], nm = t->name[u];
        if (tsql_buf_reserve(b, 16)) return -1;
        if (j) b->p[b->n++] = ',';
        memcpy(b->p + b->n, "{\"name\":", 8);
        b->n += 8;
        if (tsql_json_quote(b, nm ? tsql_intern_str(&t->strings, nm) : "", nm ? tsql_intern_len(&t->strings, nm) : 0))
            return -1;
        if (tsql_buf_reserve(b, 16)) return -1;
        memcpy(b->p + b->n, ",\"dur\":", 7);
        b->n += 7;
        if (tsql_json_double(b, tsql_trace_dur_us(t, u)) || tsql_buf_reserve(b, 80)) return -1;
        int64_t s = tsql_icol_get(&t->stream, u);
        if (s == TSQL_NULL) b->n += (size_t)snprintf(b->p + b->n, 80, ",\"stream\":null");
        else b->n += (size_t)snprintf(b->p + b->n, 80, ",\"stream\":%lld", (long long)s);
        if (with_uid) b->n += (size_t)snprintf(b->p + b->n, 40, ",\"gpu_op_uid\":%u", u);
        b->p[b->n++] = '}';
    }
    if (tsql_buf_reserve(b, 1)) return -1;
    b->p[b->n++] = ']';
    return 0;
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
