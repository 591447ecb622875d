/* tree_diff.c — TraceLens's TraceDiff: build, cache and lookups; see tree_diff.h. The
 * steps live beside it: tree_diff_side.c (each tree), tree_diff_align.c and
 * tree_diff_pyset.c (sibling alignment), tree_diff_merge.c (the merged tree),
 * tree_diff_stats.c (diff_stats), tree_diff_rename.c (cpu_op_map names); the files it
 * writes are in core/output/tree_diff_text.c and tree_diff_json.c. */
#include "analysis/tree_diff.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/attribution.h"
#include "analysis/tree_diff_internal.h"

/* ---------- build, free, cache ---------- */

void tsql_tree_diff_free(tsql_tree_diff *d)
{
    if (!d) return;
    free(d->uid1);
    free(d->uid2);
    free(d->type);
    free(d->pod);
    free(d->is_lca);
    free(d->parent);
    free(d->depth);
    free(d->kid_at);
    free(d->kid_n);
    free(d->kids);
    free(d->roots);
    free(d->rows);
    tsql_intern_free(&d->names);
    priv *pv = d->priv;
    if (pv) {
        tsql_u64map_free(&pv->memo);
        tsql_u64map_free(&pv->uidmap);
        tsql_u64map_free(&pv->find[0]);
        tsql_u64map_free(&pv->find[1]);
        free(pv);
    }
    free(d);
}

tsql_tree_diff *tsql_tree_diff_build(tsql_trace *baseline, tsql_trace *variant, const char **why)
{
    ctx c;
    memset(&c, 0, sizeof c);
    tsql_tree_diff *d = calloc(1, sizeof *d);
    priv *pv = calloc(1, sizeof *pv);
    rowvec rows = {0};
    if (why) *why = NULL;
    if (!d || !pv) {
        free(d);
        free(pv);
        return NULL;
    }
    d->priv = pv;
    d->t[0] = baseline;
    d->t[1] = variant;
    tsql_intern_init(&d->names);
    c.names = &d->names;
    if (td_side_build(&c.s[0], baseline) || td_side_build(&c.s[1], variant)) goto fail;
    uint32_t guess = baseline->n + variant->n + 16;
    if (tsql_u64map_init(&pv->memo, guess / 4) || tsql_u64map_init(&pv->uidmap, guess / 4)) goto fail;
    if (td_merge_all(&c, d, pv)) goto fail;
    if (tsql_u64map_init(&pv->find[0], d->n) || tsql_u64map_init(&pv->find[1], d->n)) goto fail;
    for (uint32_t m = 0; m < d->n; m++) {
        if (d->uid1[m] != NONE) tsql_u64map_put(&pv->find[0], d->uid1[m], m, 1);
        if (d->uid2[m] != NONE) tsql_u64map_put(&pv->find[1], d->uid2[m], m, 1);
    }
    if (td_diff_stats(&c, d, &rows)) goto fail;
    d->rows = rows.v;
    d->nrows = (uint32_t)rows.n;
    rows.v = NULL;
    if (td_rename_ops(&c, d)) goto fail;
    d->identical = td_rows_identical(&c, d);
    int w1 = tsql_trace_whole_us(baseline), w2 = tsql_trace_whole_us(variant);
    if (w1 < 0 || w2 < 0) goto fail;
    d->whole_kernel_time = w1 && w2;
    td_side_free(&c.s[0]);
    td_side_free(&c.s[1]);
    free(c.tmp.p);
    free(c.tmp2.p);
    return d;
fail:
    if (why) *why = c.why;
    td_side_free(&c.s[0]);
    td_side_free(&c.s[1]);
    free(c.tmp.p);
    free(c.tmp2.p);
    free(rows.v);
    tsql_tree_diff_free(d);
    return NULL;
}

#define DIFF_CACHE 4
typedef struct diff_cache {
    int64_t key[DIFF_CACHE];
    tsql_trace *var[DIFF_CACHE];
    tsql_tree_diff *d[DIFF_CACHE];
    unsigned age[DIFF_CACHE], clock;
} diff_cache;

static void *cache_build(tsql_trace *t)
{
    (void)t;
    return calloc(1, sizeof(diff_cache));
}
static void cache_free(void *v)
{
    diff_cache *dc = v;
    if (!dc) return;
    for (int i = 0; i < DIFF_CACHE; i++) tsql_tree_diff_free(dc->d[i]);
    free(dc);
}
static const tsql_cache_kind CACHE_KIND = {"tree_diff", cache_build, cache_free};

tsql_tree_diff *tsql_tree_diff_get(tsql_trace *baseline, tsql_trace *variant, int64_t variant_key,
                                   const char **why)
{
    if (why) *why = NULL;
    diff_cache *dc = tsql_trace_cached(baseline, &CACHE_KIND);
    if (!dc) return NULL;
    for (int i = 0; i < DIFF_CACHE; i++)
        if (dc->d[i] && dc->key[i] == variant_key && dc->var[i] == variant) {
            dc->age[i] = ++dc->clock;
            return dc->d[i];
        }
    tsql_tree_diff *d = tsql_tree_diff_build(baseline, variant, why);
    if (!d) return NULL;
    int slot = 0;
    for (int i = 0; i < DIFF_CACHE; i++) {
        if (!dc->d[i]) {
            slot = i;
            break;
        }
        if (dc->age[i] < dc->age[slot]) slot = i;
    }
    tsql_tree_diff_free(dc->d[slot]);
    dc->d[slot] = d;
    dc->key[slot] = variant_key;
    dc->var[slot] = variant;
    dc->age[slot] = ++dc->clock;
    return d;
}

/* ---------- lookups ---------- */

int64_t tsql_tree_diff_corresponding(const tsql_tree_diff *d, int which, uint32_t uid)
{
    const priv *pv = d->priv;
    if (which != 1 && which != 2) return -2;
    uint32_t v = tsql_u64map_get(&pv->uidmap, (int64_t)(which == 2 ? (1ull << 32) | uid : uid));
    if (v == NONE) return -2;
    return v == MINUS_ONE ? -1 : (int64_t)v;
}

uint32_t tsql_tree_diff_find(const tsql_tree_diff *d, int which, uint32_t uid)
{
    const priv *pv = d->priv;
    if (which != 1 && which != 2) return NONE;
    return tsql_u64map_get(&pv->find[which - 1], uid);
}

double tsql_tree_diff_gpu_us(const tsql_tree_diff *d, uint32_t m, int which)
{
    if (m >= d->n) return NAN;
    uint32_t u = which == 1 ? d->uid1[m] : d->uid2[m];
    tsql_trace *t = d->t[which - 1];
    if (u == NONE) return NAN;
    u32vec g = {0};
    if (tsql_kind_is_gpu(t->kind[u])) {
        if (u32vec_push(&g, u)) return NAN;
    } else if (tsql_tl_subtree_gpu(t, u, &g) < 0) {
        free(g.v);
        return NAN;
    }
    double r = 0.0;
    if (g.n) {
        double *scratch = malloc(2 * g.n * sizeof *scratch);
        r = scratch ? tsql_busy_us(t, g.v, g.n, scratch) : NAN;
        free(scratch);
    }
    free(g.v);
    return r;
}

