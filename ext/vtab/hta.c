/*
 * hta.c — the HTA analyses as table-valued functions (docs/hta.md):
 *
 *   SELECT * FROM hta_temporal_breakdown;                    -- every open trace = rank
 *   SELECT * FROM hta_idle_time_breakdown('run.json.gz', 50);  -- one trace, threshold 50 µs
 *
 * Each hta_<analysis> is an eponymous virtual table whose rows are those of the view
 * hta_<analysis>_v of sql/hta/, evaluated with the call's arguments: HIDDEN columns
 * with HTA's defaults, read by the views with hta_arg('<name>'). A call checks its
 * arguments, pushes them, runs the view to the end into a buffer and pops them, so
 * calls may nest or be joined. The first argument, trace (an id, label or path; NULL
 * = every open trace, ranked as the multi-rank views rank them), reads back as the
 * trace id through hta_arg('trace_id'). The last two, time_rounding and
 * last_step_filter, switch off HTA's preprocessing rules (1 = HTA's).
 *
 * Also np_quantile(x, p): numpy's percentile with linear interpolation (pandas'
 * describe), an aggregate.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vtab/hta.h"
#include "catalog/registration.h"

#define HTA_MAX_ARGS 7

/* argument kinds: the checks a value must pass */
enum { A_TRACE, A_BOOL, A_NUMBER, A_RATIO, A_COUNT, A_STREAMS, A_CHOICE, A_TEXT };

typedef struct {
    const char *name;
    int kind;
    const char *def;     /* default as SQL would read the literal; NULL = NULL */
    const char *choices; /* A_CHOICE: the values, '|'-separated */
} hta_param;

typedef struct {
    const char *name;
    int nargs;
    hta_param args[HTA_MAX_ARGS];
} hta_fn;

#define P_TRACE {"trace", A_TRACE, NULL, NULL}
#define P_PREP {"time_rounding", A_BOOL, "1", NULL}, {"last_step_filter", A_BOOL, "1", NULL}
#define P_IDLE {"consecutive_kernel_delay", A_NUMBER, "30", NULL}, {"streams", A_STREAMS, NULL, NULL}
#define P_KB {"duration_ratio", A_RATIO, "0.8", NULL}, {"num_kernels", A_COUNT, "10", NULL}, \
             {"include_memory_kernels", A_BOOL, "1", NULL}
#define P_QUEUE {"tie_order", A_CHOICE, "launch_first", "launch_first|kernel_first"}
#define P_MEMBW {"tie_order", A_CHOICE, "start_first", "start_first|end_first"}

static const hta_fn hta_fns[] = {
    {"hta_preprocessed_events", 3, {P_TRACE, P_PREP}},
    {"hta_profiler_steps", 3, {P_TRACE, P_PREP}},
    {"hta_temporal_breakdown", 3, {P_TRACE, P_PREP}},
    {"hta_idle_time_breakdown", 5, {P_TRACE, P_IDLE, P_PREP}},
    {"hta_idle_interval_stats", 5, {P_TRACE, P_IDLE, P_PREP}},
    {"hta_gpu_kernel_breakdown_by_type", 6, {P_TRACE, P_KB, P_PREP}},
    {"hta_gpu_kernel_breakdown_by_kernel", 6, {P_TRACE, P_KB, P_PREP}},
    {"hta_cuda_kernel_launch_stats", 4, {P_TRACE, {"include_memory_events", A_BOOL, "1", NULL}, P_PREP}},
    {"hta_cuda_kernel_launch_stats_summary",
     6,
     {P_TRACE, {"runtime_cutoff", A_NUMBER, "50", NULL}, {"launch_delay_cutoff", A_NUMBER, "100", NULL},
      {"include_memory_events", A_BOOL, "1", NULL}, P_PREP}},
    {"hta_queue_length_time_series", 4, {P_TRACE, P_QUEUE, P_PREP}},
    {"hta_queue_length_summary", 4, {P_TRACE, P_QUEUE, P_PREP}},
    {"hta_memory_bw_time_series", 4, {P_TRACE, P_MEMBW, P_PREP}},
    {"hta_memory_bw_summary", 4, {P_TRACE, P_MEMBW, P_PREP}},
    {"hta_comm_comp_overlap", 3, {P_TRACE, P_PREP}},
    {"hta_aten_op_kernels_and_delay", 3, {P_TRACE, P_PREP}},
    {"hta_frequent_cuda_kernel_sequences",
     6,
     {P_TRACE, {"operator_name", A_TEXT, NULL, NULL}, {"min_pattern_len", A_COUNT, "3", NULL},
      {"rank", A_COUNT, "0", NULL}, P_PREP}},
};

/* the arguments of the calls running now, innermost last */
typedef struct hta_frame {
    const hta_fn *fn;
    sqlite3_value *argv[HTA_MAX_ARGS]; /* NULL: not given (the default applies) */
    int64_t trace_id;                  /* -1: every open trace */
    struct hta_frame *up;
} hta_frame;

typedef struct {
    tsql_catalog *catalog;
    hta_frame *top;
} hta_state;

/* the rows of one call, collected */
typedef struct {
    int ncols;
    sqlite3_int64 nrows;
    sqlite3_value **cells;
} hta_result;

static void result_free(hta_result *r)
{
    if (!r) return;
    for (sqlite3_int64 i = 0; i < r->nrows * r->ncols; i++) sqlite3_value_free(r->cells[i]);
    sqlite3_free(r->cells);
    sqlite3_free(r);
}

static hta_result *result_collect(sqlite3_stmt *s, int *rc)
{
    hta_result *r = sqlite3_malloc(sizeof *r);
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
    result_free(r);
    return NULL;
}

typedef struct {
    sqlite3_vtab base;
    sqlite3 *db;
    hta_state *st;
    const hta_fn *fn;
    int ncols;
} hta_vtab;

typedef struct {
    sqlite3_vtab_cursor base;
    hta_result *rows;
    sqlite3_int64 row;
} hta_cursor;

static char *view_query(const hta_fn *fn)
{
    return sqlite3_mprintf("SELECT * FROM temp.\"%w_v\"", fn->name);
}

static int hta_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
                       char **err)
{
    (void)argc;
    hta_state *st = aux;
    const hta_fn *fn = NULL;
    for (size_t i = 0; i < sizeof hta_fns / sizeof *hta_fns; i++)
        if (sqlite3_stricmp(argv[0], hta_fns[i].name) == 0) fn = &hta_fns[i];
    if (!fn) return SQLITE_ERROR;
    char *q = view_query(fn);
    sqlite3_stmt *s = NULL;
    int rc = q ? sqlite3_prepare_v2(db, q, -1, &s, NULL) : SQLITE_NOMEM;
    sqlite3_free(q);
    if (rc != SQLITE_OK) {
        *err = sqlite3_mprintf("%s: view %s_v: %s", fn->name, fn->name, sqlite3_errmsg(db));
        return rc;
    }
    sqlite3_str *ddl = sqlite3_str_new(db);
    sqlite3_str_appendall(ddl, "CREATE TABLE x(");
    int n = sqlite3_column_count(s);
    for (int i = 0; i < n; i++) sqlite3_str_appendf(ddl, "%s\"%w\"", i ? ", " : "", sqlite3_column_name(s, i));
    for (int i = 0; i < fn->nargs; i++) sqlite3_str_appendf(ddl, ", \"%w\" HIDDEN", fn->args[i].name);
    sqlite3_str_appendall(ddl, ")");
    sqlite3_finalize(s);
    char *sql = sqlite3_str_finish(ddl);
    if (!sql) return SQLITE_NOMEM;
    rc = sqlite3_declare_vtab(db, sql);
    tsql_vtab_risk(db, TSQL_TOP_LEVEL); /* its trace argument may be a path: never from a schema */
    sqlite3_free(sql);
    if (rc != SQLITE_OK) {
        *err = sqlite3_mprintf("%s: %s", fn->name, sqlite3_errmsg(db));
        return rc;
    }
    hta_vtab *v = sqlite3_malloc(sizeof *v);
    if (!v) return SQLITE_NOMEM;
    memset(v, 0, sizeof *v);
    v->db = db;
    v->st = st;
    v->fn = fn;
    v->ncols = n;
    *out = &v->base;
    return SQLITE_OK;
}

static int hta_disconnect(sqlite3_vtab *vt)
{
    sqlite3_free(vt);
    return SQLITE_OK;
}

/* idxNum: bit i set = argument i is given (an = constraint), in argv order */
static int hta_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
    hta_vtab *v = (hta_vtab *)vt;
    int slot[HTA_MAX_ARGS];
    for (int i = 0; i < HTA_MAX_ARGS; i++) slot[i] = -1;
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *c = &info->aConstraint[i];
        int a = c->iColumn - v->ncols;
        if (a < 0 || a >= v->fn->nargs || c->op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
        if (!c->usable) return SQLITE_CONSTRAINT; /* wait for the argument's value */
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
    info->estimatedCost = 1e6;
    info->estimatedRows = 1000;
    return SQLITE_OK;
}

static int hta_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
    (void)vt;
    hta_cursor *c = sqlite3_malloc(sizeof *c);
    if (!c) return SQLITE_NOMEM;
    memset(c, 0, sizeof *c);
    *out = &c->base;
    return SQLITE_OK;
}

static int hta_close(sqlite3_vtab_cursor *cur)
{
    hta_cursor *c = (hta_cursor *)cur;
    result_free(c->rows);
    sqlite3_free(c);
    return SQLITE_OK;
}

static int is_number(sqlite3_value *v)
{
    int t = sqlite3_value_numeric_type(v);
    return t == SQLITE_INTEGER || t == SQLITE_FLOAT;
}

/* NULL if value v passes p's check, else the message (sqlite3_mprintf'd) */
static char *check_arg(const hta_fn *fn, const hta_param *p, sqlite3_value *v)
{
    if (sqlite3_value_type(v) == SQLITE_NULL) return NULL; /* the default */
    double d = is_number(v) ? sqlite3_value_double(v) : NAN;
    switch (p->kind) {
    case A_BOOL:
        if (d == 0 || d == 1) return NULL;
        return sqlite3_mprintf("%s: %s must be 1 or 0 (NULL = %s)", fn->name, p->name, p->def);
    case A_NUMBER:
        if (d >= 0 && isfinite(d)) return NULL;
        return sqlite3_mprintf("%s: %s must be a number >= 0 (µs; NULL = %s)", fn->name, p->name, p->def);
    case A_RATIO:
        if (d >= 0 && d <= 1) return NULL;
        return sqlite3_mprintf("%s: %s must be a number from 0 to 1 (NULL = %s)", fn->name, p->name, p->def);
    case A_COUNT:
        if (d >= 0 && d == floor(d) && d < 1e9) return NULL;
        return sqlite3_mprintf("%s: %s must be a whole number >= 0 (NULL = %s)", fn->name, p->name, p->def);
    case A_STREAMS: {
        /* a JSON array of integers, or one integer */
        if (sqlite3_value_numeric_type(v) == SQLITE_INTEGER) return NULL;
        const char *s = (const char *)sqlite3_value_text(v);
        size_t i = 0;
        int ok = s && s[0] == '[';
        for (i = ok ? 1 : 0; ok && s[i] && s[i] != ']'; i++)
            if (!strchr("0123456789-, \t\n", s[i])) ok = 0;
        if (ok && s[i] == ']' && !s[i + 1]) return NULL;
        return sqlite3_mprintf("%s: %s must be a stream number or a JSON array of them ('[7, 22]'; NULL = every stream)",
                               fn->name, p->name);
    }
    case A_CHOICE: {
        const char *s = (const char *)sqlite3_value_text(v);
        size_t n = s ? strlen(s) : 0;
        for (const char *c = p->choices; s && *c;) {
            const char *bar = strchr(c, '|');
            size_t len = bar ? (size_t)(bar - c) : strlen(c);
            if (len == n && !memcmp(c, s, n)) return NULL;
            c += len + (bar != NULL);
        }
        return sqlite3_mprintf("%s: %s must be one of %s (NULL = %s)", fn->name, p->name, p->choices, p->def);
    }
    case A_TEXT:
        if (sqlite3_value_type(v) == SQLITE_TEXT) return NULL;
        return sqlite3_mprintf("%s: %s must be text", fn->name, p->name);
    default: return NULL;
    }
}

static int hta_filter(sqlite3_vtab_cursor *cur, int idxNum, const char *idxStr, int argc, sqlite3_value **argv)
{
    (void)idxStr;
    (void)argc;
    hta_cursor *c = (hta_cursor *)cur;
    hta_vtab *v = (hta_vtab *)cur->pVtab;
    const hta_fn *fn = v->fn;
    result_free(c->rows);
    c->rows = NULL;
    c->row = 0;
    hta_frame f = {fn, {NULL}, -1, v->st->top};
    int k = 0;
    for (int a = 0; a < fn->nargs; a++)
        if (idxNum & (1 << a)) f.argv[a] = argv[k++];
    char *err = NULL;
    tsql_entry *e = NULL;
    for (int a = 0; a < fn->nargs && !err; a++) {
        if (!f.argv[a]) continue;
        if (fn->args[a].kind != A_TRACE) err = check_arg(fn, &fn->args[a], f.argv[a]);
        else if (sqlite3_value_type(f.argv[a]) != SQLITE_NULL && (e = tsql_catalog_resolve(v->st->catalog, f.argv[a], 1, &err)))
            f.trace_id = e->id;
    }
    /* a text argument has no default; called with no argument at all (SELECT * FROM
     * hta_frequent_cuda_kernel_sequences), such a function has no rows, like a listing */
    for (int a = 0; a < fn->nargs; a++)
        if (fn->args[a].kind == A_TEXT && idxNum == 0) {
            if (e) tsql_entry_unref(e);
            return SQLITE_OK;
        }
    for (int a = 0; a < fn->nargs && !err; a++)
        if (fn->args[a].kind == A_TEXT && (!f.argv[a] || sqlite3_value_type(f.argv[a]) == SQLITE_NULL))
            err = sqlite3_mprintf("%s: argument %s is required (%s(trace, %s, ...))", fn->name, fn->args[a].name,
                                  fn->name, fn->args[a].name);
    int rc = err ? SQLITE_ERROR : SQLITE_OK;
    sqlite3_stmt *s = NULL;
    if (rc == SQLITE_OK) {
        char *q = view_query(fn);
        rc = q ? sqlite3_prepare_v2(v->db, q, -1, &s, NULL) : SQLITE_NOMEM;
        sqlite3_free(q);
    }
    if (rc == SQLITE_OK) {
        /* the call's arguments are current while its view runs; a call made meanwhile
         * restores them when it ends */
        v->st->top = &f;
        c->rows = result_collect(s, &rc);
        v->st->top = f.up;
    }
    if (rc != SQLITE_OK) {
        sqlite3_free(v->base.zErrMsg);
        v->base.zErrMsg = err ? err : sqlite3_mprintf("%s: %s", fn->name, sqlite3_errmsg(v->db));
    }
    sqlite3_finalize(s);
    tsql_entry_unref(e);
    return rc;
}

static int hta_next(sqlite3_vtab_cursor *cur)
{
    ((hta_cursor *)cur)->row++;
    return SQLITE_OK;
}

static int hta_eof(sqlite3_vtab_cursor *cur)
{
    hta_cursor *c = (hta_cursor *)cur;
    return !c->rows || c->row >= c->rows->nrows;
}

static int hta_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int i)
{
    hta_cursor *c = (hta_cursor *)cur;
    if (i < c->rows->ncols) sqlite3_result_value(ctx, c->rows->cells[c->row * c->rows->ncols + i]);
    return SQLITE_OK;
}

static int hta_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
    *rowid = ((hta_cursor *)cur)->row;
    return SQLITE_OK;
}

static sqlite3_module hta_module = {
    .iVersion = 0,
    .xCreate = NULL, /* eponymous-only */
    .xConnect = hta_connect,
    .xBestIndex = hta_best_index,
    .xDisconnect = hta_disconnect,
    .xOpen = hta_open,
    .xClose = hta_close,
    .xFilter = hta_filter,
    .xNext = hta_next,
    .xEof = hta_eof,
    .xColumn = hta_column,
    .xRowid = hta_rowid,
};

static void result_default(sqlite3_context *ctx, const hta_param *p)
{
    if (!p->def) return;
    if (p->kind == A_CHOICE) {
        sqlite3_result_text(ctx, p->def, -1, SQLITE_STATIC);
    } else if (strchr(p->def, '.')) {
        sqlite3_result_double(ctx, strtod(p->def, NULL));
    } else {
        sqlite3_result_int64(ctx, strtoll(p->def, NULL, 10));
    }
}

/* hta_arg(name): the named argument of the innermost hta_* call running (its default
 * when not given); 'trace_id' is the trace argument resolved (NULL = every trace). */
static void fn_hta_arg(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    hta_state *st = sqlite3_user_data(ctx);
    const char *name = (const char *)sqlite3_value_text(argv[0]);
    const hta_frame *f = st->top;
    if (!f || !name) return; /* a view read directly: the defaults are not known, NULL */
    if (!strcmp(name, "trace_id")) {
        if (f->trace_id >= 0) sqlite3_result_int64(ctx, f->trace_id);
        return;
    }
    for (int a = 0; a < f->fn->nargs; a++) {
        const hta_param *p = &f->fn->args[a];
        if (strcmp(name, p->name) != 0) continue;
        if (p->kind == A_STREAMS && f->argv[a] && sqlite3_value_numeric_type(f->argv[a]) == SQLITE_INTEGER) {
            char *s = sqlite3_mprintf("[%lld]", (long long)sqlite3_value_int64(f->argv[a]));
            if (!s) sqlite3_result_error_nomem(ctx);
            else sqlite3_result_text(ctx, s, -1, sqlite3_free);
        } else if (f->argv[a] && sqlite3_value_type(f->argv[a]) != SQLITE_NULL) {
            sqlite3_result_value(ctx, f->argv[a]);
        } else {
            result_default(ctx, p);
        }
        return;
    }
    sqlite3_result_error(ctx, "hta_arg: no such argument of the running hta_* function", -1);
}

/* ---------- np_quantile(x, p) ---------- */

typedef struct {
    double *v;
    size_t n, cap;
    double p;
} quantile_ctx;

static void quantile_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    if (!is_number(argv[0])) return; /* NaN (NULL) values are left out, as describe() does */
    quantile_ctx *q = sqlite3_aggregate_context(ctx, sizeof *q);
    if (!q) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    if (q->n == q->cap) {
        size_t cap = q->cap ? 2 * q->cap : 16;
        double *v = sqlite3_realloc64(q->v, cap * sizeof *v);
        if (!v) {
            sqlite3_result_error_nomem(ctx);
            return;
        }
        q->v = v;
        q->cap = cap;
    }
    q->v[q->n++] = sqlite3_value_double(argv[0]);
    q->p = sqlite3_value_double(argv[1]);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void quantile_final(sqlite3_context *ctx)
{
    quantile_ctx *q = sqlite3_aggregate_context(ctx, 0);
    if (!q || !q->n) return;
    if (!(q->p >= 0 && q->p <= 1)) {
        sqlite3_result_error(ctx, "np_quantile: p must be a number from 0 to 1", -1);
    } else {
        qsort(q->v, q->n, sizeof *q->v, cmp_double);
        /* numpy's linear method: h = (n - 1) p, x[lo] + (h - lo) (x[lo + 1] - x[lo]) */
        double h = (double)(q->n - 1) * q->p, lo = floor(h);
        size_t i = (size_t)lo;
        double x = q->v[i];
        if (i + 1 < q->n) x += (h - lo) * (q->v[i + 1] - q->v[i]);
        sqlite3_result_double(ctx, x);
    }
    sqlite3_free(q->v);
}

static int register_hta(sqlite3 *db, tsql_catalog *c)
{
    hta_state *st = sqlite3_malloc(sizeof *st);
    if (!st) return SQLITE_NOMEM;
    st->catalog = c;
    st->top = NULL;
    int rc = sqlite3_create_function_v2(db, "hta_arg", 1, tsql_fn_flags(TSQL_STATE), st, fn_hta_arg, NULL,
                                        NULL, sqlite3_free);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function(db, "np_quantile", 2, tsql_fn_flags(TSQL_PURE),
                                     NULL, NULL, quantile_step, quantile_final);
    for (size_t i = 0; rc == SQLITE_OK && i < sizeof hta_fns / sizeof *hta_fns; i++)
        rc = sqlite3_create_module(db, hta_fns[i].name, &hta_module, st);
    static const tsql_table *const tables[] = {&tsql_table_hta_rows, &tsql_table_hta_trace_info,
                                               &tsql_table_hta_aten_launches, &tsql_table_hta_call_graph};
    for (size_t i = 0; rc == SQLITE_OK && i < sizeof tables / sizeof *tables; i++)
        rc = tsql_register_table(db, tables[i]->name, tables[i], c);
    return rc;
}

const tsql_registration tsql_reg_hta = {.what = "HTA analyses (hta_rows, hta_*)", .add = register_hta};
