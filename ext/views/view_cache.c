/*
 * view_cache.c — view_cache: a TEMP virtual table holding the rows of a view, computed
 * once and reused while nothing the view can read has changed.
 *
 *   CREATE VIRTUAL TABLE temp._nccl_match USING view_cache(_nccl_match_rows, trace_id, rank, ...);
 *
 * The arguments are the view's name and its columns, in order: the table is declared
 * from them, without compiling the view when the extension loads (names the view reads
 * could then resolve to a table of the user's database); the first read checks that
 * the view has exactly these columns.
 *
 * A heavy base that several views read (nccl_match, nccl_long: a 16-rank job's match is
 * read five times by straggler_summary) is then computed once per change of its inputs
 * instead of once per reference (docs/architecture.md, "sql/: the views").
 *
 * Fresh means: the connection made no change since (sqlite3_total_changes64 counts every
 * INSERT, UPDATE and DELETE, so report_params and coll_rank_import are covered), no trace
 * was opened or closed (the catalog's next id and open count), the temp and main schemas
 * are the same (schema_version), no other connection wrote main (data_version) and no
 * open trace's file changed on disk (a function given its path would load it again).
 * Anything else a view could read is a function of those.
 *
 * Rows come back in the view's order, each value as the view gave it (16 bytes a cell,
 * text and blobs in one arena). Equality constraints are served from a sorted index per
 * column built on first use; the index returns a superset of the matching rows (integers,
 * and text that reads as a number, are keyed by their numeric value; text and blobs by
 * their bytes), and SQLite checks every constraint again (omit = 0), so the index never
 * decides a comparison. A column holding a REAL is not indexed: compared as text, a REAL
 * is rounded to 15 digits, so no key could stand for it.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "catalog/catalog.h"
#include "catalog/risk.h"
#include "util/hash.h"
#include "views/view_cache.h"

typedef struct vc_stamp {
    sqlite3_int64 changes, next_id, nopen, temp_schema, main_schema, main_data;
    sqlite3_uint64 files;   /* a hash of the open traces' files as they are on disk now */
} vc_stamp;

/* one key of the index: class 1 = a number (d), 2 = text or blob (s, n); NULL has none */
typedef struct vc_key {
    int cls;
    double d;
    const unsigned char *s;
    int n;
} vc_key;

/* one value: type (SQLITE_INTEGER, ...), and its bytes in the arena for text and blobs */
typedef struct vc_cell {
    int type;
    int n;
    union {
        sqlite3_int64 i;
        double d;
        const char *p;
    } u;
} vc_cell;

/* the arena of text and blob bytes: chunks that never move */
typedef struct vc_chunk {
    struct vc_chunk *next;
    size_t used, cap;
    char data[];
} vc_chunk;

/* one entry of a column's index */
typedef struct vc_ent {
    vc_key k;
    sqlite3_int64 row;
} vc_ent;

/* the rows of one computation, shared by the cursors reading them */
typedef struct vc_rows {
    int refs;
    int ncol;
    sqlite3_int64 nrow;
    vc_cell *v;             /* nrow * ncol, row-major */
    vc_chunk *arena;
    signed char *has_real;  /* per column: 1 when a cell is REAL (no index), -1 unknown */
    vc_ent **index;         /* per column, built on first use: the non-NULL rows by key, then row */
    sqlite3_int64 *nindex;  /* per column: the length of index[c] */
} vc_rows;

typedef struct vc_vtab {
    sqlite3_vtab base;
    sqlite3 *db;
    tsql_catalog *cat;
    char *view;             /* the view's name */
    int ncol;
    char **cols;            /* the declared column names */
    vc_rows *rows;          /* NULL until first read */
    vc_stamp stamp;         /* the state rows were computed in */
    int building;
} vc_vtab;

typedef struct vc_cursor {
    sqlite3_vtab_cursor base;
    vc_rows *rows;
    const vc_ent *list;     /* the rows to visit, or NULL: every row */
    sqlite3_int64 n, pos;
    int filtered;           /* xFilter ran before on this cursor */
} vc_cursor;

static void rows_unref(vc_rows *r)
{
    if (!r || --r->refs > 0) return;
    while (r->arena) {
        vc_chunk *next = r->arena->next;
        sqlite3_free(r->arena);
        r->arena = next;
    }
    sqlite3_free(r->has_real);
    /* an index's text keys point into the arena */
    for (int c = 0; r->index && c < r->ncol; c++) sqlite3_free(r->index[c]);
    sqlite3_free(r->index);
    sqlite3_free(r->nindex);
    sqlite3_free(r->v);
    sqlite3_free(r);
}

static sqlite3_int64 pragma_int(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st = NULL;
    sqlite3_int64 v = -1;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

/* FNV-1a over the identity (device, inode, size, mtime) of every open trace's file */
static sqlite3_uint64 files_hash(const tsql_catalog *c)
{
    uint64_t h = TSQL_FNV_SEED;
    for (int i = 0; c && i < c->nopen; i++) {
        const tsql_entry *e = c->open[i];
        struct stat st;
        memset(&st, 0, sizeof st);
        sqlite3_int64 id[5] = {e->id, -1, -1, -1, -1};
        if (e->trace && e->trace->path && stat(e->trace->path, &st) == 0) {
            id[1] = (sqlite3_int64)st.st_dev;
            id[2] = (sqlite3_int64)st.st_ino;
            id[3] = (sqlite3_int64)st.st_size;
            id[4] = (sqlite3_int64)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
        }
        for (int k = 0; k < 5; k++) {
            char b[8];
            for (int j = 0; j < 8; j++) b[j] = (char)((sqlite3_uint64)id[k] >> (8 * j));
            h = tsql_fnv1a_add(h, b, sizeof b);
        }
    }
    return h;
}

static vc_stamp stamp_now(const vc_vtab *t)
{
    vc_stamp s;
    s.files = files_hash(t->cat);
    s.changes = sqlite3_total_changes64(t->db);
    s.next_id = t->cat ? t->cat->next_id : 0;
    s.nopen = t->cat ? t->cat->nopen : 0;
    s.temp_schema = pragma_int(t->db, "PRAGMA temp.schema_version");
    s.main_schema = pragma_int(t->db, "PRAGMA main.schema_version");
    s.main_data = pragma_int(t->db, "PRAGMA main.data_version");
    return s;
}

static int stamp_same(const vc_stamp *a, const vc_stamp *b)
{
    return a->changes == b->changes && a->next_id == b->next_id && a->nopen == b->nopen
        && a->temp_schema == b->temp_schema && a->main_schema == b->main_schema
        && a->main_data == b->main_data && a->files == b->files;
}

static int vt_error(vc_vtab *t, const char *msg)
{
    /* a message of a kept table read inside the view already names it */
    char *m = strncmp(msg, "view_cache(", 11) == 0 ? sqlite3_mprintf("%s", msg)
                                                   : sqlite3_mprintf("view_cache(%s): %s", t->view, msg);
    sqlite3_free(t->base.zErrMsg);
    t->base.zErrMsg = m;
    return SQLITE_ERROR;
}

/* n bytes in the arena (a chunk of its own when large) */
static char *arena_alloc(vc_rows *r, size_t n)
{
    vc_chunk *h = r->arena;
    if (!h || h->cap - h->used < n) {
        size_t cap = n > 65536 ? n : 1 << 20;
        vc_chunk *c = sqlite3_malloc64(sizeof *c + cap);
        if (!c) return NULL;
        c->used = 0;
        c->cap = cap;
        if (h && n > 65536) {
            /* a large value: keep the current chunk filling */
            c->next = h->next;
            h->next = c;
        } else {
            c->next = h;
            r->arena = c;
        }
        h = c;
    }
    char *p = h->data + h->used;
    h->used += n;
    return p;
}

/* copies column c of st's row into *cell */
static int store(vc_rows *r, vc_cell *cell, sqlite3_stmt *st, int c)
{
    memset(cell, 0, sizeof *cell);
    cell->type = sqlite3_column_type(st, c);
    switch (cell->type) {
    case SQLITE_INTEGER: cell->u.i = sqlite3_column_int64(st, c); return SQLITE_OK;
    case SQLITE_FLOAT: cell->u.d = sqlite3_column_double(st, c); return SQLITE_OK;
    case SQLITE_NULL: return SQLITE_OK;
    default: {
        const void *p = cell->type == SQLITE_TEXT ? (const void *)sqlite3_column_text(st, c)
                                                  : sqlite3_column_blob(st, c);
        int n = sqlite3_column_bytes(st, c);
        if (!p && n) return SQLITE_NOMEM;
        char *q = arena_alloc(r, (size_t)n + 1);
        if (!q) return SQLITE_NOMEM;
        if (n) memcpy(q, p, (size_t)n);
        q[n] = 0;
        cell->u.p = q;
        cell->n = n;
        return SQLITE_OK;
    }
    }
}

/* runs the view into a new vc_rows (refs = 1) */
static int compute(vc_vtab *t, vc_rows **out)
{
    *out = NULL;
    char *sql = sqlite3_mprintf("SELECT * FROM temp.\"%w\"", t->view);
    if (!sql) return SQLITE_NOMEM;
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(t->db, sql, -1, &st, NULL);
    sqlite3_free(sql);
    if (rc != SQLITE_OK) return vt_error(t, sqlite3_errmsg(t->db));
    int same = sqlite3_column_count(st) == t->ncol;
    for (int c = 0; same && c < t->ncol; c++) {
        const char *n = sqlite3_column_name(st, c);
        same = n && sqlite3_stricmp(n, t->cols[c]) == 0;
    }
    if (!same) {
        sqlite3_finalize(st);
        return vt_error(t, "the view's columns are not the ones the table was created with "
                           "(its arguments after the view's name); recreate it with the view's columns");
    }
    vc_rows *r = sqlite3_malloc(sizeof *r);
    if (!r) {
        sqlite3_finalize(st);
        return SQLITE_NOMEM;
    }
    memset(r, 0, sizeof *r);
    r->refs = 1;
    r->ncol = t->ncol;
    sqlite3_int64 cap = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if ((r->nrow + 1) * r->ncol > cap) {
            sqlite3_int64 ncap = cap ? cap * 2 : 1024 * (sqlite3_int64)(r->ncol ? r->ncol : 1);
            vc_cell *nv = sqlite3_realloc64(r->v, (sqlite3_uint64)ncap * sizeof *nv);
            if (!nv) {
                rc = SQLITE_NOMEM;
                break;
            }
            r->v = nv;
            cap = ncap;
        }
        int c = 0;
        for (; c < r->ncol; c++)
            if (store(r, &r->v[r->nrow * r->ncol + c], st, c) != SQLITE_OK) break;
        if (c < r->ncol) {
            rc = SQLITE_NOMEM;
            break;
        }
        r->nrow++;
    }
    if (rc != SQLITE_DONE) {
        if (rc != SQLITE_NOMEM) vt_error(t, sqlite3_errmsg(t->db));
        sqlite3_finalize(st);
        rows_unref(r);
        return rc == SQLITE_NOMEM ? SQLITE_NOMEM : SQLITE_ERROR;
    }
    sqlite3_finalize(st);
    sqlite3_uint64 nc = (sqlite3_uint64)(r->ncol ? r->ncol : 1);
    r->index = sqlite3_malloc64(nc * sizeof *r->index);
    r->nindex = sqlite3_malloc64(nc * sizeof *r->nindex);
    r->has_real = sqlite3_malloc64(nc);
    if (!r->index || !r->nindex || !r->has_real) {
        rows_unref(r);
        return SQLITE_NOMEM;
    }
    memset(r->has_real, -1, nc);
    memset(r->index, 0, nc * sizeof *r->index);
    memset(r->nindex, 0, nc * sizeof *r->nindex);
    *out = r;
    return SQLITE_OK;
}

/* the rows, computed again when the state changed since. A cursor checks everything on
 * its first filter, then (the same statement: schema, other connections' writes and
 * files cannot change under it) only what the statement itself can change */
static int fresh_rows(vc_vtab *t, int full)
{
    if (t->building) return vt_error(t, "the view reads its own cache");
    if (t->rows && !full && sqlite3_total_changes64(t->db) == t->stamp.changes
        && (!t->cat || (t->cat->next_id == t->stamp.next_id && t->cat->nopen == t->stamp.nopen)))
        return SQLITE_OK;
    vc_stamp now = stamp_now(t);
    if (t->rows && stamp_same(&now, &t->stamp)) return SQLITE_OK;
    vc_rows *r = NULL;
    t->building = 1;
    int rc = compute(t, &r);
    t->building = 0;
    if (rc != SQLITE_OK) return rc;
    rows_unref(t->rows);
    t->rows = r;
    /* the state after the computation: a trace it opened on first use is part of it */
    t->stamp = stamp_now(t);
    return SQLITE_OK;
}

/* text that reads as a number as a whole (surrounding spaces allowed): its value */
static int text_number(const char *p, int n, double *d)
{
    char buf[64];
    while (n > 0 && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++, n--;
    while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\n' || p[n - 1] == '\r')) n--;
    if (n == 0 || n >= (int)sizeof buf) return 0;
    memcpy(buf, p, (size_t)n);
    buf[n] = 0;
    char *end = NULL;
    *d = strtod(buf, &end);
    return end == buf + n && !isnan(*d);
}

/* the key of a value (type, number, bytes): integers, and text that reads as a number,
 * by value; other text and blobs by bytes; 0 for NULL */
static int key_make(int type, sqlite3_int64 i, double dv, const char *p, int n, vc_key *k)
{
    memset(k, 0, sizeof *k);
    switch (type) {
    case SQLITE_NULL: return 0;
    case SQLITE_INTEGER: k->cls = 1; k->d = (double)i; return 1;
    case SQLITE_FLOAT: k->cls = 1; k->d = dv; return 1;
    case SQLITE_TEXT:
        if (text_number(p, n, &k->d)) {
            k->cls = 1;
            return 1;
        }
        /* fall through */
    default:
        k->cls = 2;
        k->s = (const unsigned char *)p;
        k->n = n;
        return 1;
    }
}

static int key_of_cell(const vc_cell *c, vc_key *k)
{
    return key_make(c->type, c->u.i, c->u.d, c->type == SQLITE_TEXT || c->type == SQLITE_BLOB ? c->u.p : NULL,
                    c->n, k);
}

static int key_of_value(sqlite3_value *v, vc_key *k)
{
    int type = sqlite3_value_type(v);
    const char *p = NULL;
    if (type == SQLITE_TEXT) p = (const char *)sqlite3_value_text(v);
    else if (type == SQLITE_BLOB) p = sqlite3_value_blob(v);
    return key_make(type, type == SQLITE_INTEGER ? sqlite3_value_int64(v) : 0,
                    type == SQLITE_FLOAT ? sqlite3_value_double(v) : 0.0, p, sqlite3_value_bytes(v), k);
}

static int key_cmp(const vc_key *a, const vc_key *b)
{
    if (a->cls != b->cls) return a->cls < b->cls ? -1 : 1;
    if (a->cls == 1) return a->d < b->d ? -1 : a->d > b->d ? 1 : 0;
    int n = a->n < b->n ? a->n : b->n;
    int c = n ? memcmp(a->s, b->s, (size_t)n) : 0;
    if (c) return c;
    return a->n < b->n ? -1 : a->n > b->n ? 1 : 0;
}

/* a column's index order: by key, then by row (equal keys keep the view's order) */
static int ent_cmp(const void *pa, const void *pb)
{
    const vc_ent *a = pa, *b = pb;
    int c = key_cmp(&a->k, &b->k);
    if (c) return c;
    return a->row < b->row ? -1 : a->row > b->row;
}

static int build_index(vc_rows *r, int col)
{
    if (r->index[col]) return SQLITE_OK;
    vc_ent *e = sqlite3_malloc64((sqlite3_uint64)(r->nrow ? r->nrow : 1) * sizeof *e);
    if (!e) return SQLITE_NOMEM;
    sqlite3_int64 m = 0;
    for (sqlite3_int64 i = 0; i < r->nrow; i++)
        if (key_of_cell(&r->v[i * r->ncol + col], &e[m].k)) e[m++].row = i;
    qsort(e, (size_t)m, sizeof *e, ent_cmp);
    r->index[col] = e;
    r->nindex[col] = m;
    return SQLITE_OK;
}

/* does the column hold a REAL anywhere? (then it is scanned, not indexed) */
static int has_real(vc_rows *r, int col)
{
    if (r->has_real[col] < 0) {
        r->has_real[col] = 0;
        for (sqlite3_int64 i = 0; i < r->nrow; i++)
            if (r->v[i * r->ncol + col].type == SQLITE_FLOAT) {
                r->has_real[col] = 1;
                break;
            }
    }
    return r->has_real[col];
}

/* [*lo, *hi) of index[col]: the rows whose key equals v's */
static void lookup(const vc_rows *r, int col, sqlite3_value *v, sqlite3_int64 *lo, sqlite3_int64 *hi)
{
    vc_key k;
    *lo = *hi = 0;
    if (!key_of_value(v, &k)) return;
    const vc_ent *e = r->index[col];
    sqlite3_int64 a = 0, b = r->nindex[col];
    while (a < b) {
        sqlite3_int64 m = a + (b - a) / 2;
        if (key_cmp(&e[m].k, &k) < 0) a = m + 1; else b = m;
    }
    *lo = a;
    b = r->nindex[col];
    while (a < b) {
        sqlite3_int64 m = a + (b - a) / 2;
        if (key_cmp(&e[m].k, &k) <= 0) a = m + 1; else b = m;
    }
    *hi = a;
}

/* an argument as a name: "x", 'x', [x] and `x` unquoted (doubled quotes undone) */
static char *unquote(const char *a)
{
    size_t n = strlen(a);
    char *out = sqlite3_malloc64(n + 1);
    if (!out) return NULL;
    char q = n >= 2 ? a[0] : 0;
    char close = q == '[' ? ']' : q;
    if ((q == '"' || q == '\'' || q == '`' || q == '[') && a[n - 1] == close) {
        size_t j = 0;
        for (size_t i = 1; i + 1 < n; i++) {
            out[j++] = a[i];
            if (q != '[' && a[i] == q && i + 2 < n && a[i + 1] == q) i++;
        }
        out[j] = 0;
    } else {
        memcpy(out, a, n + 1);
    }
    return out;
}

static void vtab_free(vc_vtab *t)
{
    rows_unref(t->rows);
    for (int c = 0; t->cols && c < t->ncol; c++) sqlite3_free(t->cols[c]);
    sqlite3_free(t->cols);
    sqlite3_free(t->view);
    sqlite3_free(t);
}

static int vc_create(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
                     char **err)
{
    /* it compiles SQL (SELECT * FROM the view): never from a schema someone else wrote */
    tsql_vtab_risk(db, TSQL_TOP_LEVEL);
    if (sqlite3_stricmp(argv[1], "temp") != 0) {
        *err = sqlite3_mprintf("view_cache: %s is in schema %s; create it in temp "
                               "(CREATE VIRTUAL TABLE temp.%s USING view_cache(...))", argv[2], argv[1], argv[2]);
        return SQLITE_ERROR;
    }
    if (argc < 5) {
        *err = sqlite3_mprintf("view_cache: arguments are the view's name, then its columns in order: "
                               "CREATE VIRTUAL TABLE temp.t USING view_cache(some_view, col1, col2)");
        return SQLITE_ERROR;
    }
    vc_vtab *t = sqlite3_malloc(sizeof *t);
    if (!t) return SQLITE_NOMEM;
    memset(t, 0, sizeof *t);
    t->db = db;
    t->cat = aux;
    t->ncol = argc - 4;
    t->view = unquote(argv[3]);
    t->cols = sqlite3_malloc64((sqlite3_uint64)t->ncol * sizeof *t->cols);
    if (!t->view || !t->cols) {
        if (t->cols) memset(t->cols, 0, (size_t)t->ncol * sizeof *t->cols);
        vtab_free(t);
        return SQLITE_NOMEM;
    }
    memset(t->cols, 0, (size_t)t->ncol * sizeof *t->cols);
    sqlite3_str *s = sqlite3_str_new(db);
    sqlite3_str_appendall(s, "CREATE TABLE x(");
    for (int c = 0; c < t->ncol; c++) {
        t->cols[c] = unquote(argv[4 + c]);
        if (!t->cols[c]) break;
        sqlite3_str_appendf(s, "%s\"%w\"", c ? ", " : "", t->cols[c]);
    }
    sqlite3_str_appendall(s, ")");
    char *decl = sqlite3_str_finish(s);
    int rc = decl && t->cols[t->ncol - 1] ? sqlite3_declare_vtab(db, decl) : SQLITE_NOMEM;
    sqlite3_free(decl);
    if (rc != SQLITE_OK) {
        if (rc != SQLITE_NOMEM) *err = sqlite3_mprintf("view_cache(%s): %s", t->view, sqlite3_errmsg(db));
        vtab_free(t);
        return rc;
    }
    *out = &t->base;
    return SQLITE_OK;
}

/* a distinct xConnect: the module is not eponymous (no table named view_cache) */
static int vc_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
                      char **err)
{
    return vc_create(db, aux, argc, argv, out, err);
}

static int vc_disconnect(sqlite3_vtab *vt)
{
    vtab_free((vc_vtab *)vt);
    return SQLITE_OK;
}

static int vc_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
    vc_vtab *t = (vc_vtab *)vt;
    double nrow = t->rows ? (double)t->rows->nrow + 1 : 100000.0;
    sqlite3_str *cols = sqlite3_str_new(NULL);
    int k = 0;
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *c = &info->aConstraint[i];
        if (!c->usable || c->op != SQLITE_INDEX_CONSTRAINT_EQ || c->iColumn < 0) continue;
        const char *coll = sqlite3_vtab_collation(info, i);
        if (coll && sqlite3_stricmp(coll, "BINARY") != 0) continue;
        info->aConstraintUsage[i].argvIndex = ++k;
        info->aConstraintUsage[i].omit = 0;
        sqlite3_str_appendf(cols, "%s%d", k > 1 ? "," : "", c->iColumn);
    }
    char *idx = sqlite3_str_finish(cols);
    if (k && !idx) return SQLITE_NOMEM;
    info->idxNum = k;
    info->idxStr = idx;
    info->needToFreeIdxStr = idx != NULL;
    if (k) {
        info->estimatedRows = (sqlite3_int64)(nrow / (k * 100.0)) + 1;
        info->estimatedCost = 20.0 + (double)info->estimatedRows;
    } else {
        info->estimatedRows = (sqlite3_int64)nrow;
        info->estimatedCost = nrow;
    }
    return SQLITE_OK;
}

static int vc_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
    (void)vt;
    vc_cursor *c = sqlite3_malloc(sizeof *c);
    if (!c) return SQLITE_NOMEM;
    memset(c, 0, sizeof *c);
    *out = &c->base;
    return SQLITE_OK;
}

static int vc_close(sqlite3_vtab_cursor *cur)
{
    vc_cursor *c = (vc_cursor *)cur;
    rows_unref(c->rows);
    sqlite3_free(c);
    return SQLITE_OK;
}

static int vc_filter(sqlite3_vtab_cursor *cur, int idxNum, const char *idxStr, int argc, sqlite3_value **argv)
{
    vc_cursor *c = (vc_cursor *)cur;
    vc_vtab *t = (vc_vtab *)cur->pVtab;
    rows_unref(c->rows);
    c->rows = NULL;
    c->list = NULL;
    c->n = c->pos = 0;
    int rc = fresh_rows(t, !c->filtered);
    c->filtered = 1;
    if (rc != SQLITE_OK) return rc;
    c->rows = t->rows;
    c->rows->refs++;
    c->n = c->rows->nrow;
    if (idxNum == 0 || !idxStr) return SQLITE_OK;
    /* the narrowest of the constraints' ranges; SQLite checks them all again */
    const char *p = idxStr;
    for (int i = 0; i < argc && *p; i++) {
        char *end = NULL;
        long col = strtol(p, &end, 10);
        p = *end == ',' ? end + 1 : end;
        if (col < 0 || col >= c->rows->ncol || has_real(c->rows, (int)col)) continue;
        rc = build_index(c->rows, (int)col);
        if (rc != SQLITE_OK) return rc;
        sqlite3_int64 lo, hi;
        lookup(c->rows, (int)col, argv[i], &lo, &hi);
        if (!c->list || hi - lo < c->n) {
            c->list = c->rows->index[col] + lo;
            c->n = hi - lo;
        }
    }
    return SQLITE_OK;
}

static int vc_next(sqlite3_vtab_cursor *cur)
{
    ((vc_cursor *)cur)->pos++;
    return SQLITE_OK;
}

static int vc_eof(sqlite3_vtab_cursor *cur)
{
    vc_cursor *c = (vc_cursor *)cur;
    return c->pos >= c->n;
}

static sqlite3_int64 row_at(const vc_cursor *c)
{
    return c->list ? c->list[c->pos].row : c->pos;
}

static int vc_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int i)
{
    vc_cursor *c = (vc_cursor *)cur;
    if (i < 0 || i >= c->rows->ncol) return SQLITE_OK;
    const vc_cell *v = &c->rows->v[row_at(c) * c->rows->ncol + i];
    switch (v->type) {
    case SQLITE_INTEGER: sqlite3_result_int64(ctx, v->u.i); break;
    case SQLITE_FLOAT: sqlite3_result_double(ctx, v->u.d); break;
    /* copied: the rows may be replaced once this cursor is closed */
    case SQLITE_TEXT: sqlite3_result_text(ctx, v->u.p, v->n, SQLITE_TRANSIENT); break;
    case SQLITE_BLOB: sqlite3_result_blob(ctx, v->u.p, v->n, SQLITE_TRANSIENT); break;
    default: sqlite3_result_null(ctx); break;
    }
    return SQLITE_OK;
}

static int vc_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
    *rowid = row_at((vc_cursor *)cur);
    return SQLITE_OK;
}

static sqlite3_module vc_module = {
    .iVersion = 0,
    .xCreate = vc_create,
    .xConnect = vc_connect,
    .xBestIndex = vc_best_index,
    .xDisconnect = vc_disconnect,
    .xDestroy = vc_disconnect,
    .xOpen = vc_open,
    .xClose = vc_close,
    .xFilter = vc_filter,
    .xNext = vc_next,
    .xEof = vc_eof,
    .xColumn = vc_column,
    .xRowid = vc_rowid,
};

int tsql_register_view_cache(sqlite3 *db, tsql_catalog *c)
{
    return sqlite3_create_module(db, "view_cache", &vc_module, c);
}
