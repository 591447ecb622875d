/*
 * hta.c — the HTA analyses as table-valued functions (docs/hta.md):
 *
 *   SELECT * FROM hta_temporal_breakdown;                    -- every open trace = rank
 *   SELECT * FROM hta_idle_time_breakdown('run.json.gz', 50);  -- one trace, threshold 50 µs
 *
 * Each hta_<analysis> is an eponymous virtual table whose rows are those of the view
 * hta_<analysis>_v of sql/hta/, evaluated with the call's arguments: HIDDEN columns
 * with HTA's defaults, read by the views with hta_arg('<name>'). A call checks its
 * arguments; the shared runner (ext/vtab/view_runner.c) streams the view with them
 * current around each step, so calls may nest or be joined. The first argument, trace (an id, label or path; NULL
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
#include "vtab/view_runner.h"
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
/* a text argument with a default is optional (without one it is required) */
#define P_CP {"annotation", A_TEXT, "ProfilerStep", NULL}, {"instance_id", A_COUNT, "0", NULL}, \
             {"rank", A_COUNT, NULL, NULL} /* NULL: the call's first rank */

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
    {"hta_critical_path_edges", 6, {P_TRACE, P_CP, P_PREP}},
    {"hta_critical_path_summary", 6, {P_TRACE, P_CP, P_PREP}},
};

/* one call running: its arguments (copies; NULL = not given, the default applies) */
typedef struct hta_frame {
    const hta_fn *fn;
    sqlite3_value *argv[HTA_MAX_ARGS];
    int64_t trace_id;                  /* -1: every open trace */
    tsql_entry *entry;                 /* the trace argument's, held while the call runs */
    struct hta_frame *up;              /* the call current before this one's step */
} hta_frame;

typedef struct {
    tsql_catalog *catalog;
    hta_frame *top;                    /* the innermost call stepping now */
} hta_state;

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

static void hta_end(void *frame)
{
    hta_frame *f = frame;
    for (int a = 0; a < HTA_MAX_ARGS; a++) sqlite3_value_free(f->argv[a]);
    tsql_entry_unref(f->entry);
    sqlite3_free(f);
}

/* Checks the call's arguments and resolves its trace (view_runner.h's begin). */
static int hta_begin(void *state, const tsql_view_fn *vfn, sqlite3_value **argv, void **frame, char **err)
{
    hta_state *st = state;
    const hta_fn *fn = vfn->spec;
    int given = 0;
    for (int a = 0; a < fn->nargs; a++) given |= argv[a] != NULL;
    hta_frame *f = sqlite3_malloc(sizeof *f);
    if (!f) return SQLITE_NOMEM;
    memset(f, 0, sizeof *f);
    f->fn = fn;
    f->trace_id = -1;
    for (int a = 0; a < fn->nargs && !*err; a++) {
        if (!argv[a]) continue;
        if (!(f->argv[a] = sqlite3_value_dup(argv[a]))) {
            hta_end(f);
            return SQLITE_NOMEM;
        }
        if (fn->args[a].kind != A_TRACE) *err = check_arg(fn, &fn->args[a], argv[a]);
        else if (sqlite3_value_type(argv[a]) != SQLITE_NULL &&
                 (f->entry = tsql_catalog_resolve(st->catalog, argv[a], 1, err)))
            f->trace_id = f->entry->id;
    }
    /* a text argument has no default; called with no argument at all (SELECT * FROM
     * hta_frequent_cuda_kernel_sequences), such a function has no rows, like a listing */
    for (int a = 0; a < fn->nargs; a++)
        if (fn->args[a].kind == A_TEXT && !fn->args[a].def && !given) {
            hta_end(f);
            return SQLITE_DONE;
        }
    for (int a = 0; a < fn->nargs && !*err; a++)
        if (fn->args[a].kind == A_TEXT && !fn->args[a].def && (!argv[a] || sqlite3_value_type(argv[a]) == SQLITE_NULL))
            *err = sqlite3_mprintf("%s: argument %s is required (%s(trace, %s, ...))", fn->name, fn->args[a].name,
                                   fn->name, fn->args[a].name);
    if (*err) {
        hta_end(f);
        return SQLITE_ERROR;
    }
    *frame = f;
    return SQLITE_OK;
}

static void hta_enter(void *state, void *frame)
{
    hta_state *st = state;
    hta_frame *f = frame;
    f->up = st->top;
    st->top = f;
}

static void hta_leave(void *state, void *frame)
{
    ((hta_state *)state)->top = ((hta_frame *)frame)->up;
}

static void result_default(sqlite3_context *ctx, const hta_param *p)
{
    if (!p->def) return;
    if (p->kind == A_CHOICE || p->kind == A_TEXT) {
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
    const tsql_view_family family = {.state = st, .cost = 1e6, .rows = 1000, .name_errors = 1,
                                     .begin = hta_begin, .enter = hta_enter, .leave = hta_leave,
                                     .end = hta_end};
    for (size_t i = 0; rc == SQLITE_OK && i < sizeof hta_fns / sizeof *hta_fns; i++) {
        const hta_fn *fn = &hta_fns[i];
        tsql_view_fn vfn = {.name = fn->name, .nargs = fn->nargs, .spec = fn};
        for (int a = 0; a < fn->nargs; a++) vfn.args[a] = fn->args[a].name;
        char *view = sqlite3_mprintf("%s_v", fn->name);
        vfn.view = view;
        rc = view ? tsql_view_fn_register(db, &vfn, &family) : SQLITE_NOMEM;
        sqlite3_free(view);
    }
    static const tsql_table *const tables[] = {&tsql_table_hta_rows.base, &tsql_table_hta_trace_info.base,
                                               &tsql_table_hta_aten_launches.base, &tsql_table_hta_call_graph.base,
                                               &tsql_table_hta_kernel_sequence_roots.base,
                                               &tsql_table_hta_cp_path.base};
    for (size_t i = 0; rc == SQLITE_OK && i < sizeof tables / sizeof *tables; i++)
        rc = tsql_register_table(db, tables[i]->name, tables[i], c);
    return rc;
}

const tsql_registration tsql_reg_hta = {.what = "HTA analyses (hta_rows, hta_*)", .add = register_hta};
