/*
 * hta_rows.c — HTA's event table of each trace (core/analysis/hta.c), the input of the
 * hta_* analyses (sql/hta/, docs/hta.md):
 *
 *   SELECT * FROM hta_rows('run.json.gz');              -- every row, HTA's rounding
 *   SELECT * FROM hta_rows(1, 0, 'device');             -- stream != -1 rows, unrounded
 *   SELECT * FROM hta_trace_info;                       -- per trace: rounding, first ts
 *
 * HIDDEN arguments: trace, time_rounding (1 = HTA's rule: whole µs when some ts is
 * fractional; 0 = never; NULL = 1), and for hta_rows subset ('all', 'device': rows
 * with stream != -1, 'launch': rows with a launch name, 'steps': rows named
 * ProfilerStep...; NULL = 'all').
 * Times are absolute µs; the views align them to the job's first row.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <math.h>
#include <string.h>

#include "analysis/hta.h"
#include "analysis/hta_aten.h"
#include "analysis/hta_callgraph.h"
#include "vtab/table.h"

#define HTA_ROWS_COLUMNS(X)                                                             \
    X(R_TRACE_ID, "trace_id INTEGER")                                                   \
    X(R_SEQ, "seq INTEGER")                                                             \
    X(R_UID, "uid INTEGER")                                                             \
    X(R_CAT, "cat TEXT")                                                                \
    X(R_NAME, "name TEXT")                                                              \
    X(R_PID, "pid")                                                                     \
    X(R_TID, "tid")                                                                     \
    X(R_TS, "ts REAL")                                                                  \
    X(R_DUR, "dur REAL")                                                                \
    X(R_STREAM, "stream INTEGER")                                                       \
    X(R_CORRELATION, "correlation INTEGER")                                             \
    X(R_INDEX_CORR, "index_correlation INTEGER")                                        \
    X(R_ITERATION, "iteration INTEGER")                                                 \
    X(R_KERNEL_TYPE, "kernel_type TEXT")                                                \
    X(R_MEMORY_BW, "memory_bw_gbps REAL")                                               \
    X(R_GPU_SIDE, "gpu_side INTEGER")                                                   \
    X(R_KEEP, "keep INTEGER")                                                           \
    X(R_LAUNCH, "launch_class INTEGER")                                                 \
    X(R_STEP, "profiler_step INTEGER")                                                  \
    X(R_PARTNER_TS, "partner_ts REAL")                                                  \
    X(R_PARTNER_KEEP, "partner_keep INTEGER")

enum { HTA_ROWS_COLUMNS(TSQL_COL_ENUM) R_TRACE, R_ROUNDING, R_SUBSET };

enum { SUB_ALL, SUB_DEVICE, SUB_LAUNCH, SUB_STEPS };
static const char *const subset_names[] = {"all", "device", "launch", "steps"};

/* what a scan of one trace reads: its table and the subset's rows */
typedef struct hta_scan {
    const tsql_hta_rows *r;
    const uint32_t *rows; /* NULL: every row */
    int subset;
} hta_scan;

/* time_rounding (NULL = 1) and subset (NULL = all); 0, or -1 with *err set */
static int hta_args(const tsql_cursor *cur, const char *table, int with_subset, int *rounding, int *subset,
                    char **err)
{
    sqlite3_value *v = cur->param[0];
    *rounding = 1;
    *subset = SUB_ALL;
    if (v && sqlite3_value_type(v) != SQLITE_NULL) {
        int t = sqlite3_value_numeric_type(v);
        double d = sqlite3_value_double(v);
        if (t != SQLITE_INTEGER || (d != 0 && d != 1)) {
            *err = sqlite3_mprintf("%s: time_rounding must be 1 (HTA's rounding to whole µs) or 0 (none)", table);
            return -1;
        }
        *rounding = d != 0;
    }
    v = with_subset ? cur->param[1] : NULL;
    if (v && sqlite3_value_type(v) != SQLITE_NULL) {
        const char *s = (const char *)sqlite3_value_text(v);
        *subset = -1;
        for (int k = 0; s && k < 4; k++)
            if (!strcmp(s, subset_names[k])) *subset = k;
        if (*subset < 0) {
            *err = sqlite3_mprintf("%s: subset must be 'all', 'device', 'launch' or 'steps'", table);
            return -1;
        }
    }
    return 0;
}

/* kept_only, the second argument of hta_aten_launches and hta_call_graph (NULL = 0);
 * 0, or -1 with *err set */
static int kept_only_arg(const tsql_cursor *cur, const char *table, int *kept, char **err)
{
    sqlite3_value *v = cur->param[1];
    *kept = 0;
    if (v && sqlite3_value_type(v) != SQLITE_NULL) {
        double d = sqlite3_value_double(v);
        if (sqlite3_value_numeric_type(v) != SQLITE_INTEGER || (d != 0 && d != 1)) {
            *err = sqlite3_mprintf("%s: kept_only must be 1 (rows the last-step cut keeps) or 0 (all)", table);
            return -1;
        }
        *kept = d != 0;
    }
    return 0;
}

static const tsql_hta_rows *rows_of(tsql_trace *t, int rounding)
{
    return tsql_trace_cached(t, rounding ? &tsql_hta_rows_kind : &tsql_hta_rows_unrounded_kind);
}

static long rows_materialize(tsql_cursor *cur, tsql_trace *t, char **err)
{
    int rounding, subset;
    if (hta_args(cur, "hta_rows", 1, &rounding, &subset, err)) return -1;
    const tsql_hta_rows *r = rows_of(t, rounding);
    hta_scan *s = sqlite3_malloc(sizeof *s);
    if (!r || !s) {
        sqlite3_free(s);
        return -1;
    }
    s->r = r;
    s->subset = subset;
    s->rows = subset == SUB_DEVICE ? r->dev : subset == SUB_LAUNCH ? r->launch : subset == SUB_STEPS ? r->steps : NULL;
    cur->mat = s;
    return subset == SUB_DEVICE ? r->ndev : subset == SUB_LAUNCH ? r->nlaunch : subset == SUB_STEPS ? r->nsteps : r->n;
}

static int rows_column(tsql_cursor *cur, sqlite3_context *ctx, int col)
{
    const hta_scan *s = cur->mat;
    const tsql_hta_rows *r = s->r;
    tsql_trace *t = cur->e->trace;
    uint32_t i = s->rows ? s->rows[cur->row] : cur->row, u = r->uid[i], p = r->partner[i];
    switch (col) {
    case R_SEQ: sqlite3_result_int64(ctx, i); break;
    case R_UID: sqlite3_result_int64(ctx, u); break;
    case R_CAT: tsql_result_str(ctx, t, t->cat[u]); break;
    case R_NAME: tsql_result_str(ctx, t, t->name[u]); break;
    case R_PID: tsql_result_pidtid(cur, ctx, t->pid[u]); break;
    case R_TID: tsql_result_pidtid(cur, ctx, t->tid[u]); break;
    case R_TS: sqlite3_result_double(ctx, r->ts[i]); break;
    case R_DUR: sqlite3_result_double(ctx, r->dur[i]); break;
    case R_STREAM: sqlite3_result_int64(ctx, r->stream[i]); break;
    case R_CORRELATION: sqlite3_result_int64(ctx, r->correlation[i]); break;
    case R_INDEX_CORR: sqlite3_result_int64(ctx, r->index_corr[i]); break;
    case R_ITERATION: sqlite3_result_int64(ctx, r->iteration[i]); break;
    case R_KERNEL_TYPE: sqlite3_result_text(ctx, tsql_hta_ktype_names[r->ktype[i]], -1, SQLITE_STATIC); break;
    case R_MEMORY_BW: sqlite3_result_double(ctx, tsql_hta_memory_bw(t, u, &cur->buf)); break;
    case R_GPU_SIDE: sqlite3_result_int(ctx, !!(r->flags[i] & TSQL_HTA_GPU_SIDE)); break;
    case R_KEEP: sqlite3_result_int(ctx, !!(r->flags[i] & TSQL_HTA_KEEP)); break;
    case R_LAUNCH: sqlite3_result_int(ctx, r->flags[i] & ~(TSQL_HTA_DEV | TSQL_HTA_GPU_SIDE | TSQL_HTA_KEEP)); break;
    case R_STEP: {
        int64_t n = tsql_hta_step_number(tsql_intern_str(&t->strings, t->name[u]));
        if (n != -2) sqlite3_result_int64(ctx, n);
        break;
    }
    case R_PARTNER_TS:
        if (p != UINT32_MAX) sqlite3_result_double(ctx, r->ts[p]);
        break;
    case R_PARTNER_KEEP:
        if (p != UINT32_MAX) sqlite3_result_int(ctx, !!(r->flags[p] & TSQL_HTA_KEEP));
        break;
    case R_ROUNDING: sqlite3_result_int(ctx, rows_of(t, 1) == r); break;
    case R_SUBSET:
        sqlite3_result_text(ctx, subset_names[s->subset], -1, SQLITE_STATIC);
        break;
    default: break;
    }
    return SQLITE_OK;
}

const tsql_table tsql_table_hta_rows = {
    .name = "hta_rows",
    .risk = TSQL_TOP_LEVEL, /* its trace argument may be a path */
    .schema = "CREATE TABLE x(" HTA_ROWS_COLUMNS(TSQL_COL_DECL) "trace HIDDEN, time_rounding HIDDEN, subset HIDDEN)",
    .col_trace = R_TRACE,
    .col_trace_id = R_TRACE_ID,
    .column = rows_column,
    .params = {R_ROUNDING, R_SUBSET},
    .nparams = 2,
    .materialize = rows_materialize,
    .col_seq = R_SEQ,
};

/* ---------- hta_trace_info: one row per trace ---------- */

#define HTA_INFO_COLUMNS(X)                                                             \
    X(I_TRACE_ID, "trace_id INTEGER")                                                   \
    X(I_ROUNDED, "rounded INTEGER")                                                     \
    X(I_MIN_TS, "min_ts REAL")                                                          \
    X(I_ROWS, "rows INTEGER")                                                           \
    X(I_STEP_NAMES, "step_names TEXT")

enum { HTA_INFO_COLUMNS(TSQL_COL_ENUM) I_TRACE, I_ROUNDING };

static long info_materialize(tsql_cursor *cur, tsql_trace *t, char **err)
{
    int rounding, subset;
    if (hta_args(cur, "hta_trace_info", 0, &rounding, &subset, err)) return -1;
    const tsql_hta_rows *r = rows_of(t, rounding);
    hta_scan *s = sqlite3_malloc(sizeof *s);
    if (!r || !s) {
        sqlite3_free(s);
        return -1;
    }
    s->r = r;
    s->rows = NULL;
    s->subset = SUB_ALL;
    cur->mat = s;
    return 1;
}

static int info_column(tsql_cursor *cur, sqlite3_context *ctx, int col)
{
    const tsql_hta_rows *r = ((const hta_scan *)cur->mat)->r;
    tsql_trace *t = cur->e->trace;
    switch (col) {
    case I_ROUNDED: sqlite3_result_int(ctx, r->rounded); break;
    case I_MIN_TS: tsql_result_real(ctx, r->min_ts); break;
    case I_ROWS: sqlite3_result_int64(ctx, r->n); break;
    case I_STEP_NAMES: {
        /* a JSON array of the names, for json_each */
        tsql_buf *b = &cur->buf;
        b->n = 0;
        if (tsql_buf_reserve(b, 2)) return SQLITE_NOMEM;
        b->p[b->n++] = '[';
        for (uint32_t k = 0; k < r->nstep_names; k++) {
            const char *s = tsql_intern_str(&t->strings, r->step_names[k]);
            if ((k && tsql_buf_reserve(b, 1)) || (k && (b->p[b->n++] = ',', 0)) ||
                tsql_json_quote(b, s, strlen(s)))
                return SQLITE_NOMEM;
        }
        if (tsql_buf_reserve(b, 1)) return SQLITE_NOMEM;
        b->p[b->n++] = ']';
        sqlite3_result_text(ctx, b->p, (int)b->n, SQLITE_TRANSIENT);
        break;
    }
    case I_ROUNDING: sqlite3_result_int(ctx, rows_of(t, 1) == r); break;
    default: break;
    }
    return SQLITE_OK;
}

const tsql_table tsql_table_hta_trace_info = {
    .name = "hta_trace_info",
    .risk = TSQL_TOP_LEVEL, /* its trace argument may be a path */
    .schema = "CREATE TABLE x(" HTA_INFO_COLUMNS(TSQL_COL_DECL) "trace HIDDEN, time_rounding HIDDEN)",
    .col_trace = I_TRACE,
    .col_trace_id = I_TRACE_ID,
    .column = info_column,
    .params = {I_ROUNDING},
    .nparams = 1,
    .materialize = info_materialize,
};

/* ---------- hta_aten_launches: each launch inside an ATen op, with its kernel ---------- */

#define HTA_ATEN_COLUMNS(X)                                                             \
    X(A_TRACE_ID, "trace_id INTEGER")                                                   \
    X(A_SEQ, "seq INTEGER")                                                             \
    X(A_LAUNCH_UID, "launch_uid INTEGER")                                               \
    X(A_OP_UID, "op_uid INTEGER")                                                       \
    X(A_OP_TID, "op_tid")                                                               \
    X(A_OP_NAME, "op_name TEXT")                                                        \
    X(A_OP_TS, "op_ts REAL")                                                            \
    X(A_ATEN_DELAY, "aten_op_delay REAL")                                               \
    X(A_KERNEL_UID, "kernel_uid INTEGER")                                               \
    X(A_KERNEL_NAME, "kernel_name TEXT")                                                \
    X(A_RUNTIME_DELAY, "runtime_delay REAL")                                            \
    X(A_KERNELS, "kernels INTEGER")

enum { HTA_ATEN_COLUMNS(TSQL_COL_ENUM) A_TRACE, A_ROUNDING, A_KEPT };

typedef struct aten_scan {
    const tsql_hta_rows *r;
    tsql_hta_aten *a;
} aten_scan;

static void aten_mat_free(void *p)
{
    aten_scan *s = p;
    if (s) tsql_hta_aten_free(s->a);
    sqlite3_free(s);
}

static long aten_materialize(tsql_cursor *cur, tsql_trace *t, char **err)
{
    int rounding, subset;
    if (hta_args(cur, "hta_aten_launches", 0, &rounding, &subset, err)) return -1;
    int kept;
    if (kept_only_arg(cur, "hta_aten_launches", &kept, err)) return -1;
    const tsql_hta_rows *r = rows_of(t, rounding);
    aten_scan *s = sqlite3_malloc(sizeof *s);
    if (!r || !s) {
        sqlite3_free(s);
        return -1;
    }
    s->r = r;
    if (!(s->a = tsql_hta_aten_build(t, r, kept))) {
        sqlite3_free(s);
        return -1;
    }
    cur->mat = s;
    return s->a->n;
}

static int aten_column(tsql_cursor *cur, sqlite3_context *ctx, int col)
{
    const aten_scan *s = cur->mat;
    const tsql_hta_rows *r = s->r;
    const tsql_hta_aten *a = s->a;
    tsql_trace *t = cur->e->trace;
    uint32_t i = cur->row, l = a->launch[i], o = a->op[i], k = a->kernel[i];
    switch (col) {
    case A_SEQ: sqlite3_result_int64(ctx, i); break;
    case A_LAUNCH_UID: sqlite3_result_int64(ctx, r->uid[l]); break;
    case A_OP_UID: sqlite3_result_int64(ctx, r->uid[o]); break;
    case A_OP_TID: tsql_result_pidtid(cur, ctx, t->tid[r->uid[o]]); break;
    case A_OP_NAME: tsql_result_str(ctx, t, t->name[r->uid[o]]); break;
    case A_OP_TS: sqlite3_result_double(ctx, r->ts[o]); break;
    case A_ATEN_DELAY: sqlite3_result_double(ctx, r->ts[l] - r->ts[o]); break;
    case A_KERNEL_UID: sqlite3_result_int64(ctx, r->uid[k]); break;
    case A_KERNEL_NAME: tsql_result_str(ctx, t, t->name[r->uid[k]]); break;
    case A_RUNTIME_DELAY: sqlite3_result_double(ctx, r->ts[k] - r->ts[l]); break;
    case A_KERNELS: sqlite3_result_int64(ctx, a->nkernels[i]); break;
    case A_ROUNDING: sqlite3_result_int(ctx, rows_of(t, 1) == r); break;
    default: break;
    }
    return SQLITE_OK;
}

const tsql_table tsql_table_hta_aten_launches = {
    .name = "hta_aten_launches",
    .risk = TSQL_TOP_LEVEL, /* its trace argument may be a path */
    .schema = "CREATE TABLE x(" HTA_ATEN_COLUMNS(TSQL_COL_DECL) "trace HIDDEN, time_rounding HIDDEN, kept_only HIDDEN)",
    .col_trace = A_TRACE,
    .col_trace_id = A_TRACE_ID,
    .column = aten_column,
    .params = {A_ROUNDING, A_KEPT},
    .nparams = 2,
    .materialize = aten_materialize,
    .mat_free = aten_mat_free,
    .col_seq = A_SEQ,
};

/* ---------- hta_call_graph: HTA's call graph nodes ---------- */

#define HTA_CG_COLUMNS(X)                                                               \
    X(G_TRACE_ID, "trace_id INTEGER")                                                   \
    X(G_SEQ, "seq INTEGER")                                                             \
    X(G_UID, "uid INTEGER")                                                             \
    X(G_NAME, "name TEXT")                                                              \
    X(G_TS, "ts REAL")                                                                  \
    X(G_DUR, "dur REAL")                                                                \
    X(G_PARENT, "parent_uid INTEGER")                                                   \
    X(G_DEPTH, "depth INTEGER")                                                         \
    X(G_NKERNELS, "num_kernels INTEGER")                                                \
    X(G_KDUR, "kernel_dur_sum REAL")                                                    \
    X(G_KNAMES, "kernel_names TEXT")

enum { HTA_CG_COLUMNS(TSQL_COL_ENUM) G_TRACE, G_ROUNDING, G_KEPT };

typedef struct cg_scan {
    const tsql_hta_rows *r;
    tsql_hta_callgraph *g;
    uint32_t *nodes; /* rows in the graph */
    uint32_t *kbuf;  /* scratch for one node's GPU descendants (the largest count), so that
                        xColumn allocates nothing per row */
} cg_scan;

static void cg_mat_free(void *p)
{
    cg_scan *s = p;
    if (s) {
        tsql_hta_callgraph_free(s->g);
        sqlite3_free(s->nodes);
        sqlite3_free(s->kbuf);
    }
    sqlite3_free(s);
}

static long cg_materialize(tsql_cursor *cur, tsql_trace *t, char **err)
{
    int rounding, subset;
    if (hta_args(cur, "hta_call_graph", 0, &rounding, &subset, err)) return -1;
    int kept;
    if (kept_only_arg(cur, "hta_call_graph", &kept, err)) return -1;
    const tsql_hta_rows *r = rows_of(t, rounding);
    cg_scan *s = sqlite3_malloc(sizeof *s);
    if (!r || !s) {
        sqlite3_free(s);
        return -1;
    }
    s->r = r;
    s->nodes = NULL;
    s->kbuf = NULL;
    if (!(s->g = tsql_hta_callgraph_build(t, r, kept)) ||
        !(s->nodes = sqlite3_malloc64(((sqlite3_uint64)r->n + 1) * sizeof *s->nodes))) {
        cg_mat_free(s);
        return -1;
    }
    uint32_t n = 0, maxk = 0;
    for (uint32_t i = 0; i < r->n; i++)
        if (s->g->depth[i] >= 0) {
            s->nodes[n++] = i;
            if (s->g->nkernels[i] > maxk) maxk = s->g->nkernels[i];
        }
    if (!(s->kbuf = sqlite3_malloc64(((sqlite3_uint64)maxk + 1) * sizeof *s->kbuf))) {
        cg_mat_free(s);
        return -1;
    }
    cur->mat = s;
    return n;
}

static int cg_column(tsql_cursor *cur, sqlite3_context *ctx, int col)
{
    const cg_scan *s = cur->mat;
    const tsql_hta_rows *r = s->r;
    const tsql_hta_callgraph *g = s->g;
    tsql_trace *t = cur->e->trace;
    uint32_t i = s->nodes[cur->row], u = r->uid[i];
    switch (col) {
    case G_SEQ: sqlite3_result_int64(ctx, cur->row); break;
    case G_UID: sqlite3_result_int64(ctx, u); break;
    case G_NAME: tsql_result_str(ctx, t, t->name[u]); break;
    case G_TS: sqlite3_result_double(ctx, r->ts[i]); break;
    case G_DUR: sqlite3_result_double(ctx, r->dur[i]); break;
    case G_PARENT:
        if (g->parent[i] != UINT32_MAX) sqlite3_result_int64(ctx, r->uid[g->parent[i]]);
        break;
    case G_DEPTH: sqlite3_result_int64(ctx, g->depth[i]); break;
    case G_NKERNELS: sqlite3_result_int64(ctx, g->nkernels[i]); break;
    case G_KDUR: sqlite3_result_double(ctx, g->kernel_dur[i]); break;
    case G_KNAMES: {
        /* the GPU descendants' names in ts order, '|' between them */
        uint32_t *k = s->kbuf;
        uint32_t nk = tsql_hta_callgraph_kernels(g, r, i, k);
        tsql_buf *b = &cur->buf;
        b->n = 0;
        int oom = nk == UINT32_MAX;
        for (uint32_t q = 0; !oom && q < nk; q++) {
            const char *nm = tsql_intern_text(&t->strings, t->name[r->uid[k[q]]]);
            size_t len = strlen(nm);
            if (tsql_buf_reserve(b, len + 1)) oom = 1;
            else {
                if (q) b->p[b->n++] = '|';
                memcpy(b->p + b->n, nm, len);
                b->n += len;
            }
        }
        if (oom) return SQLITE_NOMEM;
        sqlite3_result_text(ctx, b->n ? b->p : "", (int)b->n, SQLITE_TRANSIENT);
        break;
    }
    case G_ROUNDING: sqlite3_result_int(ctx, rows_of(t, 1) == r); break;
    default: break;
    }
    return SQLITE_OK;
}

const tsql_table tsql_table_hta_call_graph = {
    .name = "hta_call_graph",
    .risk = TSQL_TOP_LEVEL, /* its trace argument may be a path */
    .schema = "CREATE TABLE x(" HTA_CG_COLUMNS(TSQL_COL_DECL) "trace HIDDEN, time_rounding HIDDEN, kept_only HIDDEN)",
    .col_trace = G_TRACE,
    .col_trace_id = G_TRACE_ID,
    .column = cg_column,
    .params = {G_ROUNDING, G_KEPT},
    .nparams = 2,
    .materialize = cg_materialize,
    .mat_free = cg_mat_free,
    .col_seq = G_SEQ,
};
