/*
 * vtab_collectives.c — the `collectives` table: one row per collective call of each
 * rank (trace): its kind, process group, dtype, element counts and bytes, and when it
 * ran on the GPU (or, for gloo, on the CPU backend's thread). Built from the trace
 * when a query starts (core/collectives.c; a scan of the event kinds plus the args of
 * the collective events), so it costs nothing until used.
 *
 *   SELECT kind, dtype, in_bytes, dur FROM collectives('rank0.json.gz');
 *   SELECT * FROM collectives WHERE trace_id = 2 ORDER BY ts;
 *
 * Columns and units: docs/analyses.md. The views coll_analysis, coll_analysis_summary
 * and report_coll_analysis (sql/51_coll_analysis.sql) build on it.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <stdlib.h>
#include <string.h>

#include "analysis/collectives.h"
#include "catalog/catalog.h"

#define COLL_COLUMNS(X)                                                                 \
    X(C_TRACE_ID, "trace_id INTEGER")                                                   \
    X(C_RANK, "rank INTEGER")                                                           \
    X(C_UID, "uid INTEGER")                                                             \
    X(C_SOURCE, "source TEXT")                                                          \
    X(C_NAME, "name TEXT")                                                              \
    X(C_KIND, "kind TEXT")                                                              \
    X(C_COLL_NAME, "collective_name TEXT")                                              \
    X(C_PG, "process_group TEXT")                                                       \
    X(C_PG_DESC, "process_group_desc TEXT")                                             \
    X(C_RANKS, "group_ranks TEXT")                                                      \
    X(C_GROUP_SIZE, "group_size INTEGER")                                               \
    X(C_SEQ, "seq_in_group INTEGER")                                                    \
    X(C_DTYPE, "dtype TEXT")                                                            \
    X(C_DTYPE_BYTES, "dtype_bytes INTEGER")                                             \
    X(C_IN_NELEMS, "in_nelems INTEGER")                                                 \
    X(C_OUT_NELEMS, "out_nelems INTEGER")                                               \
    X(C_IN_BYTES, "in_bytes INTEGER")                                                   \
    X(C_OUT_BYTES, "out_bytes INTEGER")                                                 \
    X(C_IN_SPLIT, "in_split_sizes TEXT")                                                \
    X(C_OUT_SPLIT, "out_split_sizes TEXT")                                              \
    X(C_SIZE_SOURCE, "size_source TEXT")                                                \
    X(C_STREAM, "stream INTEGER")                                                       \
    X(C_DEVICE, "device INTEGER")                                                       \
    X(C_TS, "ts REAL")                                                                  \
    X(C_DUR, "dur REAL")                                                                \
    X(C_TS_NS, "ts_ns INTEGER")                                                         \
    X(C_DUR_NS, "dur_ns INTEGER")                                                       \
    X(C_CALL_UID, "call_uid INTEGER")                                                   \
    X(C_OP_UID, "op_uid INTEGER")                                                       \
    X(C_OP_NAME, "op_name TEXT")                                                        \
    X(C_ANN_UID, "annotation_uid INTEGER")                                              \
    X(C_CALL_TS, "call_ts REAL")                                                        \
    X(C_CALL_DUR, "call_dur REAL")

#define COL_ENUM(id, decl) id,
#define COL_DECL(id, decl) decl ", "

enum { COLL_COLUMNS(COL_ENUM) C_TRACE };

static const char schema[] = "CREATE TABLE x(" COLL_COLUMNS(COL_DECL) "trace HIDDEN)";

typedef struct coll_vtab {
    sqlite3_vtab base;
    tsql_catalog *catalog;
} coll_vtab;

typedef struct coll_cursor {
    sqlite3_vtab_cursor base;
    tsql_entry **entries;     /* referenced while the cursor lives */
    tsql_coll_list *lists;    /* rows of each entry */
    int n, cap, ie;
    size_t ir;
    sqlite3_int64 rowid;
    sqlite3_value *arg_trace; /* echoed by the hidden column */
} coll_cursor;

static int coll_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                        sqlite3_vtab **ppVtab, char **pzErr)
{
    (void)argc;
    (void)argv;
    (void)pzErr;
    int rc = sqlite3_declare_vtab(db, schema);
    if (rc != SQLITE_OK) return rc;
    coll_vtab *v = sqlite3_malloc(sizeof *v);
    if (!v) return SQLITE_NOMEM;
    memset(v, 0, sizeof *v);
    v->catalog = aux;
    /* a path argument loads a file: never from a schema someone else wrote */
    sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY);
    *ppVtab = &v->base;
    return SQLITE_OK;
}

static int coll_disconnect(sqlite3_vtab *vt)
{
    sqlite3_free(vt);
    return SQLITE_OK;
}

/* idxNum bits, one argv slot each in this order: 1 trace, 2 trace_id */
static int coll_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
    (void)vt;
    int pick[2] = {-1, -1};
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *c = &info->aConstraint[i];
        if (c->op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
        int b = c->iColumn == C_TRACE ? 0 : c->iColumn == C_TRACE_ID ? 1 : -1;
        if (b < 0) continue;
        if (!c->usable) {
            /* the function argument must be usable: ask for another order */
            if (b == 0) return SQLITE_CONSTRAINT;
            continue;
        }
        pick[b] = i;
    }
    int idx = 0, argn = 1;
    for (int b = 0; b < 2; b++) {
        if (pick[b] < 0) continue;
        idx |= 1 << b;
        info->aConstraintUsage[pick[b]].argvIndex = argn++;
        info->aConstraintUsage[pick[b]].omit = 1;
    }
    info->idxNum = idx;
    info->estimatedCost = idx ? 1e4 : 1e5;
    info->estimatedRows = idx ? 1000 : 10000;
    return SQLITE_OK;
}

static int coll_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **pp)
{
    (void)vt;
    coll_cursor *cur = sqlite3_malloc(sizeof *cur);
    if (!cur) return SQLITE_NOMEM;
    memset(cur, 0, sizeof *cur);
    *pp = &cur->base;
    return SQLITE_OK;
}

static void reset(coll_cursor *cur)
{
    for (int i = 0; i < cur->n; i++) {
        tsql_coll_free(&cur->lists[i]);
        tsql_entry_unref(cur->entries[i]);
    }
    sqlite3_free(cur->entries);
    sqlite3_free(cur->lists);
    cur->entries = NULL;
    cur->lists = NULL;
    cur->n = cur->cap = cur->ie = 0;
    cur->ir = 0;
    cur->rowid = 0;
    sqlite3_value_free(cur->arg_trace);
    cur->arg_trace = NULL;
}

static int coll_close(sqlite3_vtab_cursor *p)
{
    coll_cursor *cur = (coll_cursor *)p;
    reset(cur);
    sqlite3_free(cur);
    return SQLITE_OK;
}

/* Adds a referenced entry and its rows (takes the reference, also on failure). */
static int add_entry(coll_cursor *cur, tsql_entry *e)
{
    if (cur->n == cur->cap) {
        int nc = cur->cap ? 2 * cur->cap : 4;
        tsql_entry **ne = sqlite3_realloc64(cur->entries, (sqlite3_uint64)nc * sizeof *ne);
        if (!ne) goto nomem;
        cur->entries = ne;
        tsql_coll_list *nl = sqlite3_realloc64(cur->lists, (sqlite3_uint64)nc * sizeof *nl);
        if (!nl) goto nomem;
        cur->lists = nl;
        cur->cap = nc;
    }
    if (tsql_coll_build(e->trace, &cur->lists[cur->n])) goto nomem;
    cur->entries[cur->n++] = e;
    return SQLITE_OK;
nomem:
    tsql_entry_unref(e);
    return SQLITE_NOMEM;
}

/* Moves to the first row at or after (ie, ir). */
static void settle(coll_cursor *cur)
{
    while (cur->ie < cur->n && cur->ir >= cur->lists[cur->ie].n) {
        cur->ie++;
        cur->ir = 0;
    }
}

static int coll_filter(sqlite3_vtab_cursor *p, int idxNum, const char *idxStr, int argc,
                       sqlite3_value **argv)
{
    (void)idxStr;
    (void)argc;
    coll_cursor *cur = (coll_cursor *)p;
    tsql_catalog *c = ((coll_vtab *)p->pVtab)->catalog;
    reset(cur);
    int a = 0;
    sqlite3_value *v_trace = (idxNum & 1) ? argv[a++] : NULL;
    sqlite3_value *v_id = (idxNum & 2) ? argv[a++] : NULL;
    int has_id = v_id != NULL;
    int64_t want_id = has_id && sqlite3_value_type(v_id) == SQLITE_INTEGER ? sqlite3_value_int64(v_id) : -1;
    int rc = SQLITE_OK;
    if (v_trace) {
        cur->arg_trace = sqlite3_value_dup(v_trace);
        char *zErr = NULL;
        tsql_entry *e = tsql_catalog_resolve(c, v_trace, 1, &zErr);
        if (!e) {
            sqlite3_free(p->pVtab->zErrMsg);
            p->pVtab->zErrMsg = zErr;
            return SQLITE_ERROR;
        }
        if (!has_id || want_id == e->id) rc = add_entry(cur, e);
        else tsql_entry_unref(e);
    } else {
        for (int i = 0; i < c->nopen && rc == SQLITE_OK; i++) {
            tsql_entry *e = c->open[i];
            if (has_id && e->id != want_id) continue;
            tsql_entry_ref(e);
            rc = add_entry(cur, e);
        }
    }
    settle(cur);
    return rc;
}

static int coll_next(sqlite3_vtab_cursor *p)
{
    coll_cursor *cur = (coll_cursor *)p;
    cur->ir++;
    cur->rowid++;
    settle(cur);
    return SQLITE_OK;
}

static int coll_eof(sqlite3_vtab_cursor *p)
{
    coll_cursor *cur = (coll_cursor *)p;
    return cur->ie >= cur->n;
}

static void result_text(sqlite3_context *ctx, const char *s)
{
    if (s) sqlite3_result_text(ctx, s, -1, SQLITE_TRANSIENT);
}

static void result_i64(sqlite3_context *ctx, int64_t v)
{
    if (v != TSQL_NULL) sqlite3_result_int64(ctx, v);
}

static void result_uid(sqlite3_context *ctx, uint32_t u)
{
    if (u != TSQL_NONE) sqlite3_result_int64(ctx, u);
}

static void result_bytes(sqlite3_context *ctx, int64_t n, int bpe)
{
    /* nelems × bytes per element, when both are known and the product fits */
    if (n == TSQL_NULL || bpe <= 0 || n < 0 || n > INT64_MAX / bpe) return;
    sqlite3_result_int64(ctx, n * bpe);
}

static int coll_column(sqlite3_vtab_cursor *p, sqlite3_context *ctx, int col)
{
    coll_cursor *cur = (coll_cursor *)p;
    const tsql_entry *e = cur->entries[cur->ie];
    const tsql_trace *t = e->trace;
    const tsql_coll *r = &cur->lists[cur->ie].rows[cur->ir];
    uint32_t u = r->uid;
    uint32_t host = r->call != TSQL_NONE ? r->call : r->op;
    switch (col) {
    case C_TRACE_ID: sqlite3_result_int64(ctx, e->id); break;
    case C_RANK: result_i64(ctx, t->rank); break;
    case C_UID: sqlite3_result_int64(ctx, u); break;
    case C_SOURCE:
        sqlite3_result_text(ctx, r->source == TSQL_COLL_KERNEL ? "kernel" : "annotation", -1, SQLITE_STATIC);
        break;
    case C_NAME:
        if (t->name[u])
            sqlite3_result_text(ctx, tsql_intern_str(&t->strings, t->name[u]),
                                (int)tsql_intern_len(&t->strings, t->name[u]), SQLITE_STATIC);
        break;
    case C_KIND: sqlite3_result_text(ctx, r->kind, -1, SQLITE_STATIC); break;
    case C_COLL_NAME: result_text(ctx, r->coll_name); break;
    case C_PG: result_text(ctx, r->pg_name); break;
    case C_PG_DESC: result_text(ctx, r->pg_desc); break;
    case C_RANKS: result_text(ctx, r->pg_ranks); break;
    case C_GROUP_SIZE: result_i64(ctx, r->group_size); break;
    case C_SEQ: sqlite3_result_int64(ctx, r->seq_in_group); break;
    case C_DTYPE: result_text(ctx, r->dtype); break;
    case C_DTYPE_BYTES:
        if (r->dtype_bytes) sqlite3_result_int(ctx, r->dtype_bytes);
        break;
    case C_IN_NELEMS: result_i64(ctx, r->in_nelems); break;
    case C_OUT_NELEMS: result_i64(ctx, r->out_nelems); break;
    case C_IN_BYTES: result_bytes(ctx, r->in_nelems, r->dtype_bytes); break;
    case C_OUT_BYTES: result_bytes(ctx, r->out_nelems, r->dtype_bytes); break;
    case C_IN_SPLIT: result_text(ctx, r->in_split); break;
    case C_OUT_SPLIT: result_text(ctx, r->out_split); break;
    case C_SIZE_SOURCE:
        if (tsql_coll_size_source_names[r->size_source])
            sqlite3_result_text(ctx, tsql_coll_size_source_names[r->size_source], -1, SQLITE_STATIC);
        break;
    case C_STREAM: result_i64(ctx, tsql_icol_get(&t->stream, u)); break;
    case C_DEVICE: result_i64(ctx, tsql_icol_get(&t->device, u)); break;
    case C_TS:
        if (t->ts_ns[u] != TSQL_NULL) sqlite3_result_double(ctx, tsql_trace_ts_us(t, u));
        break;
    case C_DUR:
        if (t->dur_ns[u] != TSQL_NULL) sqlite3_result_double(ctx, tsql_trace_dur_us(t, u));
        break;
    case C_TS_NS: result_i64(ctx, t->ts_ns[u]); break;
    case C_DUR_NS: result_i64(ctx, t->dur_ns[u]); break;
    case C_CALL_UID: result_uid(ctx, r->call); break;
    case C_OP_UID: result_uid(ctx, r->op); break;
    case C_OP_NAME:
        if (r->op != TSQL_NONE && t->name[r->op])
            sqlite3_result_text(ctx, tsql_intern_str(&t->strings, t->name[r->op]),
                                (int)tsql_intern_len(&t->strings, t->name[r->op]), SQLITE_STATIC);
        break;
    case C_ANN_UID: result_uid(ctx, r->annotation); break;
    case C_CALL_TS:
        if (host != TSQL_NONE && t->ts_ns[host] != TSQL_NULL) sqlite3_result_double(ctx, tsql_trace_ts_us(t, host));
        break;
    case C_CALL_DUR:
        if (host != TSQL_NONE && t->dur_ns[host] != TSQL_NULL)
            sqlite3_result_double(ctx, tsql_trace_dur_us(t, host));
        break;
    case C_TRACE:
        if (cur->arg_trace) sqlite3_result_value(ctx, cur->arg_trace);
        else sqlite3_result_int64(ctx, e->id);
        break;
    default: break;
    }
    return SQLITE_OK;
}

static int coll_rowid(sqlite3_vtab_cursor *p, sqlite3_int64 *rowid)
{
    *rowid = ((coll_cursor *)p)->rowid;
    return SQLITE_OK;
}

static const sqlite3_module coll_module = {
    .xConnect = coll_connect,
    .xBestIndex = coll_best_index,
    .xDisconnect = coll_disconnect,
    .xOpen = coll_open,
    .xClose = coll_close,
    .xFilter = coll_filter,
    .xNext = coll_next,
    .xEof = coll_eof,
    .xColumn = coll_column,
    .xRowid = coll_rowid,
};

int tsql_register_collectives(sqlite3 *db, tsql_catalog *c)
{
    return sqlite3_create_module_v2(db, "collectives", &coll_module, c, NULL);
}
