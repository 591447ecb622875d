/*
 * hta_rows.c — HTA's event table of each trace (core/analysis/hta.c), the input of the
 * hta_* analyses (sql/hta/, docs/hta.md):
 *
 *   SELECT * FROM hta_rows('run.json.gz');              -- every row, HTA's rounding
 *   SELECT * FROM hta_rows(1, 0, 'device');             -- stream != -1 rows, unrounded
 *   SELECT * FROM hta_trace_info;                       -- per trace: rounding, first ts
 *
 * and the analyses' intermediate tables read by the views: hta_aten_launches (each
 * launch inside an ATen op), hta_call_graph (HTA's call graph) and
 * hta_kernel_sequence_roots (the ops of a kernel-sequence analysis, found in C).
 *
 * HIDDEN arguments: trace, time_rounding (1 = HTA's rule: whole µs when some ts is
 * fractional; 0 = never; NULL = 1), then each table's own (vtab/hta.h): for hta_rows
 * subset ('all', 'device': rows with stream != -1, 'launch': rows with a launch name,
 * 'steps': rows named ProfilerStep...; NULL = 'all'). Every table here has the shape
 * of ext/vtab/hta_table.c: its columns, a fill function and a column function.
 * Times are absolute µs; the views align them to the job's first row.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <string.h>

#include "analysis/hta.h"
#include "analysis/hta_aten.h"
#include "analysis/hta_callgraph.h"
#include "vtab/hta.h"

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

static long rows_fill(tsql_hta_scan *s, char **err)
{
    (void)err;
    const tsql_hta_rows *r = s->r;
    switch (s->subset) {
    case TSQL_HTA_SUB_DEVICE: s->rows = r->dev; return r->ndev;
    case TSQL_HTA_SUB_LAUNCH: s->rows = r->launch; return r->nlaunch;
    case TSQL_HTA_SUB_STEPS: s->rows = r->steps; return r->nsteps;
    default: return r->n;
    }
}

static int rows_column(tsql_cursor *cur, const tsql_hta_scan *s, sqlite3_context *ctx, int col)
{
    const tsql_hta_rows *r = s->r;
    tsql_trace *t = s->t;
    uint32_t i = tsql_hta_row(cur, s), u = r->uid[i], p = r->partner[i];
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
    default: break;
    }
    return SQLITE_OK;
}

const tsql_hta_table tsql_table_hta_rows = {
    .base = {.name = "hta_rows",
             .schema = "CREATE TABLE x(" HTA_ROWS_COLUMNS(TSQL_COL_DECL) "trace HIDDEN, time_rounding HIDDEN, subset HIDDEN)",
             .col_trace = R_TRACE,
             .col_trace_id = R_TRACE_ID,
             .params = {R_ROUNDING, R_SUBSET},
             .nparams = 2,
             .col_seq = R_SEQ,
             TSQL_HTA_TABLE_SHAPE},
    .args = {TSQL_HTA_ARG_SUBSET},
    .fill = rows_fill,
    .column = rows_column,
};

/* ---------- hta_trace_info: one row per trace ---------- */

#define HTA_INFO_COLUMNS(X)                                                             \
    X(I_TRACE_ID, "trace_id INTEGER")                                                   \
    X(I_ROUNDED, "rounded INTEGER")                                                     \
    X(I_MIN_TS, "min_ts REAL")                                                          \
    X(I_ROWS, "rows INTEGER")                                                           \
    X(I_STEP_NAMES, "step_names TEXT")

enum { HTA_INFO_COLUMNS(TSQL_COL_ENUM) I_TRACE, I_ROUNDING };

static long info_fill(tsql_hta_scan *s, char **err)
{
    (void)s;
    (void)err;
    return 1;
}

static int info_column(tsql_cursor *cur, const tsql_hta_scan *s, sqlite3_context *ctx, int col)
{
    const tsql_hta_rows *r = s->r;
    tsql_trace *t = s->t;
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
            const char *name = tsql_intern_str(&t->strings, r->step_names[k]);
            if ((k && tsql_buf_reserve(b, 1)) || (k && (b->p[b->n++] = ',', 0)) ||
                tsql_json_quote(b, name, strlen(name)))
                return SQLITE_NOMEM;
        }
        if (tsql_buf_reserve(b, 1)) return SQLITE_NOMEM;
        b->p[b->n++] = ']';
        sqlite3_result_text(ctx, b->p, (int)b->n, SQLITE_TRANSIENT);
        break;
    }
    default: break;
    }
    return SQLITE_OK;
}

const tsql_hta_table tsql_table_hta_trace_info = {
    .base = {.name = "hta_trace_info",
             .schema = "CREATE TABLE x(" HTA_INFO_COLUMNS(TSQL_COL_DECL) "trace HIDDEN, time_rounding HIDDEN)",
             .col_trace = I_TRACE,
             .col_trace_id = I_TRACE_ID,
             .params = {I_ROUNDING},
             .nparams = 1,
             TSQL_HTA_TABLE_SHAPE},
    .fill = info_fill,
    .column = info_column,
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

static void aten_free(void *a)
{
    tsql_hta_aten_free(a);
}

static long aten_fill(tsql_hta_scan *s, char **err)
{
    (void)err;
    tsql_hta_aten *a = tsql_hta_aten_build(s->t, s->r, s->kept);
    if (!a) return -1;
    s->data = a;
    s->free_data = aten_free;
    return a->n;
}

static int aten_column(tsql_cursor *cur, const tsql_hta_scan *s, sqlite3_context *ctx, int col)
{
    const tsql_hta_rows *r = s->r;
    const tsql_hta_aten *a = s->data;
    tsql_trace *t = s->t;
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
    default: break;
    }
    return SQLITE_OK;
}

const tsql_hta_table tsql_table_hta_aten_launches = {
    .base = {.name = "hta_aten_launches",
             .schema = "CREATE TABLE x(" HTA_ATEN_COLUMNS(TSQL_COL_DECL)
                       "trace HIDDEN, time_rounding HIDDEN, kept_only HIDDEN)",
             .col_trace = A_TRACE,
             .col_trace_id = A_TRACE_ID,
             .params = {A_ROUNDING, A_KEPT},
             .nparams = 2,
             .col_seq = A_SEQ,
             TSQL_HTA_TABLE_SHAPE},
    .args = {TSQL_HTA_ARG_KEPT},
    .fill = aten_fill,
    .column = aten_column,
};

/* ---------- call-graph nodes: what hta_call_graph and hta_kernel_sequence_roots share ---------- */

/* The names of kernels k[0..nk) of trace t, '|' between them, as the cell's text (one
 * block of the exact size, handed to SQLite without a copy). */
static int kernel_names_result(sqlite3_context *ctx, const tsql_trace *t, const tsql_hta_rows *r, const uint32_t *k,
                               uint32_t nk)
{
    size_t len = nk ? nk - 1 : 0;
    for (uint32_t q = 0; q < nk; q++) len += tsql_intern_len(&t->strings, t->name[r->uid[k[q]]]);
    char *text = sqlite3_malloc64(len + 1), *p = text;
    if (!text) return SQLITE_NOMEM;
    for (uint32_t q = 0; q < nk; q++) {
        uint32_t nm = t->name[r->uid[k[q]]], n = tsql_intern_len(&t->strings, nm);
        if (q) *p++ = '|';
        if (n) memcpy(p, tsql_intern_str(&t->strings, nm), n);
        p += n;
    }
    *p = 0;
    tsql_hta_result_owned(ctx, text, len);
    return SQLITE_OK;
}

#define HTA_NODE_COLUMNS(X, P)                                                          \
    X(P##_TRACE_ID, "trace_id INTEGER")                                                 \
    X(P##_SEQ, "seq INTEGER")                                                           \
    X(P##_UID, "uid INTEGER")                                                           \
    X(P##_NAME, "name TEXT")                                                            \
    X(P##_TS, "ts REAL")                                                                \
    X(P##_DUR, "dur REAL")                                                              \
    X(P##_PARENT, "parent_uid INTEGER")                                                 \
    X(P##_DEPTH, "depth INTEGER")                                                       \
    X(P##_NKERNELS, "num_kernels INTEGER")                                              \
    X(P##_KDUR, "kernel_dur_sum REAL")                                                  \
    X(P##_KNAMES, "kernel_names TEXT")

/* the node columns, numbered alike in both tables (N_*) */
enum { HTA_NODE_COLUMNS(TSQL_COL_ENUM, N) N_END };

/* column col (N_*) of node i but its kernel names; seq is the table's row number */
static void node_column(sqlite3_context *ctx, const tsql_hta_scan *s, const tsql_hta_callgraph *g, uint32_t seq,
                        uint32_t i, int col)
{
    const tsql_hta_rows *r = s->r;
    const tsql_trace *t = s->t;
    switch (col) {
    case N_SEQ: sqlite3_result_int64(ctx, seq); break;
    case N_UID: sqlite3_result_int64(ctx, r->uid[i]); break;
    case N_NAME: tsql_result_str(ctx, t, t->name[r->uid[i]]); break;
    case N_TS: sqlite3_result_double(ctx, r->ts[i]); break;
    case N_DUR: sqlite3_result_double(ctx, r->dur[i]); break;
    case N_PARENT:
        if (g->parent[i] != UINT32_MAX) sqlite3_result_int64(ctx, r->uid[g->parent[i]]);
        break;
    case N_DEPTH: sqlite3_result_int64(ctx, g->depth[i]); break;
    case N_NKERNELS: sqlite3_result_int64(ctx, g->nkernels[i]); break;
    case N_KDUR: sqlite3_result_double(ctx, g->kernel_dur[i]); break;
    default: break;
    }
}

/* ---------- hta_call_graph: HTA's call graph nodes ---------- */

enum { HTA_NODE_COLUMNS(TSQL_COL_ENUM, G) G_TRACE, G_ROUNDING, G_KEPT };

typedef struct cg_data {
    tsql_hta_callgraph *g;
    uint32_t *nodes;              /* rows in the graph */
    uint32_t *kbuf;               /* one node's kernels (room for the largest count) */
    tsql_hta_cg_scratch scratch;  /* for their walk: nothing is allocated per row */
} cg_data;

static void cg_free(void *p)
{
    cg_data *d = p;
    if (!d) return;
    tsql_hta_callgraph_free(d->g);
    tsql_hta_cg_scratch_free(&d->scratch);
    sqlite3_free(d->nodes);
    sqlite3_free(d->kbuf);
    sqlite3_free(d);
}

static long cg_fill(tsql_hta_scan *s, char **err)
{
    (void)err;
    cg_data *d = sqlite3_malloc(sizeof *d);
    if (!d) return -1;
    memset(d, 0, sizeof *d);
    s->data = d;
    s->free_data = cg_free;
    if (!(d->g = tsql_hta_callgraph_build(s->t, s->r, s->kept))) return -1;
    const tsql_hta_callgraph *g = d->g;
    d->nodes = sqlite3_malloc64(((sqlite3_uint64)g->nnodes + 1) * sizeof *d->nodes);
    d->kbuf = sqlite3_malloc64(((sqlite3_uint64)g->max_kernels + 1) * sizeof *d->kbuf);
    if (!d->nodes || !d->kbuf || tsql_hta_cg_scratch_init(&d->scratch, g)) return -1;
    uint32_t n = 0;
    for (uint32_t i = 0; i < g->n; i++)
        if (g->depth[i] >= 0) d->nodes[n++] = i;
    return n;
}

static int cg_column(tsql_cursor *cur, const tsql_hta_scan *s, sqlite3_context *ctx, int col)
{
    cg_data *d = s->data;
    uint32_t i = d->nodes[cur->row];
    if (col != G_KNAMES) {
        node_column(ctx, s, d->g, cur->row, i, col);
        return SQLITE_OK;
    }
    /* the GPU descendants' names in ts order, '|' between them */
    uint32_t nk = tsql_hta_callgraph_kernels(d->g, s->r, i, d->kbuf, &d->scratch);
    return kernel_names_result(ctx, s->t, s->r, d->kbuf, nk);
}

const tsql_hta_table tsql_table_hta_call_graph = {
    .base = {.name = "hta_call_graph",
             .schema = "CREATE TABLE x(" HTA_NODE_COLUMNS(TSQL_COL_DECL, G)
                       "trace HIDDEN, time_rounding HIDDEN, kept_only HIDDEN)",
             .col_trace = G_TRACE,
             .col_trace_id = G_TRACE_ID,
             .params = {G_ROUNDING, G_KEPT},
             .nparams = 2,
             .col_seq = G_SEQ,
             TSQL_HTA_TABLE_SHAPE},
    .args = {TSQL_HTA_ARG_KEPT},
    .fill = cg_fill,
    .column = cg_column,
};

/* ---------- hta_kernel_sequence_roots: the ops of a kernel-sequence analysis ---------- */

enum { HTA_NODE_COLUMNS(TSQL_COL_ENUM, K) K_TRACE, K_ROUNDING, K_KEPT, K_OPERATOR, K_MIN_KERNELS };

typedef struct kseq_data {
    tsql_hta_callgraph *g;
    tsql_hta_kseq *k;
} kseq_data;

static void kseq_free(void *p)
{
    kseq_data *d = p;
    if (!d) return;
    tsql_hta_callgraph_free(d->g);
    tsql_hta_kseq_free(d->k);
    sqlite3_free(d);
}

static long kseq_fill(tsql_hta_scan *s, char **err)
{
    (void)err;
    if (!s->text) return 0; /* no operator: no rows (a listing of the table) */
    kseq_data *d = sqlite3_malloc(sizeof *d);
    if (!d) return -1;
    memset(d, 0, sizeof *d);
    s->data = d;
    s->free_data = kseq_free;
    uint32_t min_kernels = s->number > UINT32_MAX ? UINT32_MAX : (uint32_t)s->number;
    if (!(d->g = tsql_hta_callgraph_build(s->t, s->r, s->kept)) ||
        !(d->k = tsql_hta_kseq_build(s->t, s->r, d->g, s->text, s->text_len, min_kernels)))
        return -1;
    return d->k->n;
}

static int kseq_column(tsql_cursor *cur, const tsql_hta_scan *s, sqlite3_context *ctx, int col)
{
    const kseq_data *d = s->data;
    const tsql_hta_kseq *k = d->k;
    uint32_t q = cur->row;
    if (col != K_KNAMES) {
        node_column(ctx, s, d->g, q, k->root[q], col);
        return SQLITE_OK;
    }
    return kernel_names_result(ctx, s->t, s->r, k->kernel + k->kernel_at[q], k->kernel_at[q + 1] - k->kernel_at[q]);
}

const tsql_hta_table tsql_table_hta_kernel_sequence_roots = {
    .base = {.name = "hta_kernel_sequence_roots",
             .schema = "CREATE TABLE x(" HTA_NODE_COLUMNS(TSQL_COL_DECL, K)
                       "trace HIDDEN, time_rounding HIDDEN, kept_only HIDDEN, operator_name HIDDEN, "
                       "min_pattern_len HIDDEN)",
             .col_trace = K_TRACE,
             .col_trace_id = K_TRACE_ID,
             .params = {K_ROUNDING, K_KEPT, K_OPERATOR, K_MIN_KERNELS},
             .nparams = 4,
             .col_seq = K_SEQ,
             TSQL_HTA_TABLE_SHAPE},
    .args = {TSQL_HTA_ARG_KEPT, TSQL_HTA_ARG_OPERATOR, TSQL_HTA_ARG_MIN_KERNELS},
    .fill = kseq_fill,
    .column = kseq_column,
};
