/*
 * tree_diff.c — the `tree_diff` and `tree_diff_stats` tables: TraceLens's TraceDiff of a
 * baseline and a variant trace (core/analysis/tree_diff.c; docs/diff.md).
 *
 *   SELECT * FROM tree_diff('base.json.gz', 'new.json.gz');        -- the merged tree
 *   SELECT * FROM tree_diff_stats(1, 2);                            -- diff_stats rows
 *
 * HIDDEN arguments, in order: baseline, variant (trace ids, labels or paths; a path not
 * open yet is loaded). Without a baseline every open trace is diffed with the variant.
 * The merge is computed once per pair and kept with the baseline trace.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/registration.h"
#include "vtab/table.h"
#include "vtab/tree_diff.h"

int tsql_diff_pair_open(tsql_catalog *c, tsql_entry *base, sqlite3_value *variant, const char *who,
                        tsql_diff_pair *p, char **err)
{
    memset(p, 0, sizeof *p);
    *err = NULL;
    if (!variant || sqlite3_value_type(variant) == SQLITE_NULL) {
        *err = sqlite3_mprintf("%s: needs a variant trace: %s(baseline, variant)", who, who);
        return -1;
    }
    char *zErr = NULL;
    tsql_entry *v = tsql_catalog_resolve(c, variant, 1, &zErr);
    if (!v) {
        *err = zErr ? zErr : sqlite3_mprintf("%s: no such variant trace", who);
        return -1;
    }
    const char *why = NULL;
    tsql_tree_diff *d = tsql_tree_diff_get(base->trace, v->trace, v->id, &why);
    if (!d) {
        tsql_entry_unref(v);
        if (why) *err = sqlite3_mprintf("%s: %s", who, why);
        return -1;
    }
    tsql_entry_ref(base);
    p->base = base;
    p->var = v;
    p->d = d;
    return 0;
}

void tsql_diff_pair_close(tsql_diff_pair *p)
{
    if (p->base) tsql_entry_unref(p->base);
    if (p->var) tsql_entry_unref(p->var);
    memset(p, 0, sizeof *p);
}

static void pair_free(void *mat)
{
    tsql_diff_pair *p = mat;
    tsql_diff_pair_close(p);
    sqlite3_free(p);
}

static long pair_materialize(tsql_cursor *cur, const char *who, char **err)
{
    tsql_diff_pair *p = sqlite3_malloc(sizeof *p);
    if (!p) return -1;
    tsql_catalog *c = ((tsql_vtab *)cur->base.pVtab)->catalog;
    if (tsql_diff_pair_open(c, cur->e, cur->param[0], who, p, err)) {
        sqlite3_free(p);
        return -1;
    }
    cur->mat = p;
    return 0;
}

static void result_name(sqlite3_context *ctx, const tsql_trace *t, uint32_t u)
{
    if (u == TSQL_NONE || !t->name[u]) return;
    tsql_result_str(ctx, t, t->name[u]);
}

/* ---------- tree_diff: one row per merged node ---------- */

#define DIFF_COLUMNS(X)                                                                 \
    X(D_TRACE_ID, "trace_id INTEGER")                                                   \
    X(D_VARIANT_ID, "variant_id INTEGER")                                               \
    X(D_MERGED_ID, "merged_id INTEGER")                                                 \
    X(D_PARENT, "parent_id INTEGER")                                                    \
    X(D_DEPTH, "depth INTEGER")                                                         \
    X(D_STATUS, "status TEXT")                                                          \
    X(D_UID1, "baseline_uid INTEGER")                                                   \
    X(D_UID2, "variant_uid INTEGER")                                                    \
    X(D_NAME, "name TEXT")                                                              \
    X(D_NAME1, "baseline_name TEXT")                                                    \
    X(D_NAME2, "variant_name TEXT")                                                     \
    X(D_POD, "point_of_difference INTEGER")                                             \
    X(D_IS_LCA, "is_lca INTEGER")                                                       \
    X(D_LCA, "lca_id INTEGER")                                                          \
    X(D_GPU1, "baseline_gpu_us REAL")                                                   \
    X(D_GPU2, "variant_gpu_us REAL")                                                    \
    X(D_GPU_DIFF, "gpu_us_diff REAL")

enum { DIFF_COLUMNS(TSQL_COL_ENUM) D_BASELINE, D_VARIANT };

static long diff_materialize(tsql_cursor *cur, tsql_trace *t, char **err)
{
    (void)t;
    if (pair_materialize(cur, "tree_diff", err)) return -1;
    return ((tsql_diff_pair *)cur->mat)->d->n;
}

static const char *const status_names[3] = {"both", "baseline", "variant"};

/* the node's lowest common ancestor: itself when it is one, else the nearest `both`
 * ancestor of a one-sided node */
static uint32_t lca_of(const tsql_tree_diff *d, uint32_t m)
{
    if (d->type[m] == TSQL_DIFF_BOTH) return d->is_lca[m] ? m : TSQL_NONE;
    uint32_t p = d->parent[m];
    while (p != TSQL_NONE && d->type[p] != TSQL_DIFF_BOTH) p = d->parent[p];
    return p;
}

static int diff_column(tsql_cursor *cur, sqlite3_context *ctx, int col)
{
    const tsql_diff_pair *p = cur->mat;
    const tsql_tree_diff *d = p->d;
    uint32_t m = cur->row;
    switch (col) {
    case D_VARIANT_ID:
    case D_VARIANT: sqlite3_result_int64(ctx, p->var->id); break;
    case D_MERGED_ID: sqlite3_result_int64(ctx, m); break;
    case D_PARENT: tsql_result_uid(ctx, d->parent[m]); break;
    case D_DEPTH: sqlite3_result_int64(ctx, d->depth[m]); break;
    case D_STATUS: sqlite3_result_text(ctx, status_names[d->type[m]], -1, SQLITE_STATIC); break;
    case D_UID1: tsql_result_uid(ctx, d->uid1[m]); break;
    case D_UID2: tsql_result_uid(ctx, d->uid2[m]); break;
    case D_NAME:
        if (d->uid1[m] != TSQL_NONE) result_name(ctx, d->t[0], d->uid1[m]);
        else result_name(ctx, d->t[1], d->uid2[m]);
        break;
    case D_NAME1: result_name(ctx, d->t[0], d->uid1[m]); break;
    case D_NAME2: result_name(ctx, d->t[1], d->uid2[m]); break;
    case D_POD: sqlite3_result_int(ctx, d->pod[m]); break;
    case D_IS_LCA: sqlite3_result_int(ctx, d->is_lca[m]); break;
    case D_LCA: tsql_result_uid(ctx, lca_of(d, m)); break;
    case D_GPU1: tsql_result_real(ctx, tsql_tree_diff_gpu_us(d, m, 1)); break;
    case D_GPU2: tsql_result_real(ctx, tsql_tree_diff_gpu_us(d, m, 2)); break;
    case D_GPU_DIFF: {
        double a = tsql_tree_diff_gpu_us(d, m, 1), b = tsql_tree_diff_gpu_us(d, m, 2);
        sqlite3_result_double(ctx, (isnan(b) ? 0.0 : b) - (isnan(a) ? 0.0 : a));
        break;
    }
    default: break;
    }
    return SQLITE_OK;
}

static const tsql_table tsql_table_tree_diff = {
    .name = "tree_diff",
    .risk = TSQL_TOP_LEVEL, /* its trace argument may be a path */
    .schema = "CREATE TABLE x(" DIFF_COLUMNS(TSQL_COL_DECL) "baseline HIDDEN, variant HIDDEN)",
    .col_trace = D_BASELINE,
    .col_trace_id = D_TRACE_ID,
    .column = diff_column,
    .params = {D_VARIANT},
    .nparams = 1,
    .materialize = diff_materialize,
    .mat_free = pair_free,
    .col_seq = D_MERGED_ID,
};

/* ---------- tree_diff_stats: TraceLens's diff_stats rows ---------- */

#define STATS_COLUMNS(X)                                                                \
    X(S_TRACE_ID, "trace_id INTEGER")                                                   \
    X(S_VARIANT_ID, "variant_id INTEGER")                                               \
    X(S_SEQ, "seq INTEGER")                                                             \
    X(S_SOURCE, "source TEXT")                                                          \
    X(S_NAME, "name TEXT")                                                              \
    X(S_OP_NAME, "cpu_op_name TEXT")                                                    \
    X(S_OP_UID, "cpu_op_uid INTEGER")                                                   \
    X(S_DIMS, "input_dims TEXT")                                                        \
    X(S_STRIDES, "input_strides TEXT")                                                  \
    X(S_TYPE, "input_type TEXT")                                                        \
    X(S_CONCRETE, "concrete_inputs TEXT")                                               \
    X(S_KERNEL_TIME, "kernel_time")                                                     \
    X(S_BUSY, "busy_time REAL")                                                         \
    X(S_LCA_NAME, "lca_name TEXT")                                                      \
    X(S_LCA, "lca_id INTEGER")                                                          \
    X(S_GPU_UID, "gpu_op_uid INTEGER")                                                  \
    X(S_STACK, "nn_module_stack TEXT")                                                  \
    X(S_PARENT, "nn_module_parent TEXT")                                                \
    X(S_MAP_NAME, "cpu_op_map_name TEXT")                                               \
    X(S_IDENTICAL, "identical INTEGER")

enum { STATS_COLUMNS(TSQL_COL_ENUM) S_BASELINE, S_VARIANT };

static long stats_materialize(tsql_cursor *cur, tsql_trace *t, char **err)
{
    (void)t;
    if (pair_materialize(cur, "tree_diff_stats", err)) return -1;
    return ((tsql_diff_pair *)cur->mat)->d->nrows;
}

static void result_text_id(sqlite3_context *ctx, const tsql_tree_diff *d, uint32_t id)
{
    if (id) sqlite3_result_text(ctx, tsql_intern_str(&d->names, id), (int)tsql_intern_len(&d->names, id), SQLITE_STATIC);
}

static int stats_column(tsql_cursor *cur, sqlite3_context *ctx, int col)
{
    const tsql_diff_pair *p = cur->mat;
    const tsql_tree_diff *d = p->d;
    const tsql_diff_row *r = &d->rows[cur->row];
    const tsql_trace *t = d->t[r->side - 1];
    switch (col) {
    case S_VARIANT_ID:
    case S_VARIANT: sqlite3_result_int64(ctx, p->var->id); break;
    case S_SEQ: sqlite3_result_int64(ctx, cur->row); break;
    case S_SOURCE: sqlite3_result_text(ctx, r->side == 1 ? "trace1" : "trace2", -1, SQLITE_STATIC); break;
    case S_NAME: result_name(ctx, t, r->gpu); break;
    case S_OP_NAME: result_text_id(ctx, d, r->op_name); break;
    case S_OP_UID: sqlite3_result_int64(ctx, r->op); break;
    case S_DIMS: tsql_result_arg(ctx, t, r->op, "Input Dims"); break;
    case S_STRIDES: tsql_result_arg(ctx, t, r->op, "Input Strides"); break;
    case S_TYPE: tsql_result_arg(ctx, t, r->op, "Input type"); break;
    case S_CONCRETE: tsql_result_arg(ctx, t, r->op, "Concrete Inputs"); break;
    case S_KERNEL_TIME:
        /* an int column in pandas when every duration was written as an integer */
        if (d->whole_kernel_time) sqlite3_result_int64(ctx, t->dur_ns[r->gpu] / 1000);
        else sqlite3_result_double(ctx, tsql_trace_dur_us(t, r->gpu));
        break;
    case S_BUSY: sqlite3_result_double(ctx, r->busy_us); break;
    case S_LCA_NAME: result_text_id(ctx, d, r->lca_name); break;
    case S_LCA: tsql_result_uid(ctx, r->lca); break;
    case S_GPU_UID: sqlite3_result_int64(ctx, r->gpu); break;
    case S_STACK:
    case S_PARENT: sqlite3_result_text(ctx, "root", 4, SQLITE_STATIC); break; /* no Python frames */
    case S_MAP_NAME: result_text_id(ctx, d, r->op_map_name); break;
    case S_IDENTICAL: sqlite3_result_int(ctx, d->identical); break;
    default: break;
    }
    return SQLITE_OK;
}

static const tsql_table tsql_table_tree_diff_stats = {
    .name = "tree_diff_stats",
    .risk = TSQL_TOP_LEVEL, /* its trace argument may be a path */
    .schema = "CREATE TABLE x(" STATS_COLUMNS(TSQL_COL_DECL) "baseline HIDDEN, variant HIDDEN)",
    .col_trace = S_BASELINE,
    .col_trace_id = S_TRACE_ID,
    .column = stats_column,
    .params = {S_VARIANT},
    .nparams = 1,
    .materialize = stats_materialize,
    .mat_free = pair_free,
    .col_seq = S_SEQ,
};

const tsql_registration tsql_reg_tree_diff = {.what = "tree_diff, tree_diff_stats", TSQL_TABLES(&tsql_table_tree_diff, &tsql_table_tree_diff_stats)};
