/* tree_diff.c — TraceLens's TraceDiff: the build and its cache; see tree_diff.h. The
 * steps live beside it, each below the build and none including another's caller:
 * tree_diff_side.c (each tree), tree_diff_align.c and tree_diff_pyset.c (sibling
 * alignment), tree_diff_merge.c (the merged tree), tree_diff_stats.c (diff_stats),
 * tree_diff_rename.c (cpu_op_map names), over the shared data of tree_diff_ctx.h; the
 * result and its lookups are tree_diff_result.c, and the files it writes are in
 * core/output/tree_diff_text.c and tree_diff_json.c. */
#include "analysis/tree_diff.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/tree_diff_ctx.h"
#include "analysis/tree_diff_merge.h"
#include "analysis/tree_diff_rename.h"
#include "analysis/tree_diff_side.h"
#include "analysis/tree_diff_stats.h"
#include "store/store.h"

/* ---------- build and cache ---------- */

tsql_tree_diff *tsql_tree_diff_build(tsql_trace *baseline, tsql_trace *variant, const char **why)
{
    ctx c;
    memset(&c, 0, sizeof c);
    tsql_tree_diff *d = calloc(1, sizeof *d);
    rowvec rows = {0};
    if (why) *why = NULL;
    if (!d) return NULL;
    d->t[0] = baseline;
    d->t[1] = variant;
    tsql_intern_init(&d->names);
    c.names = &d->names;
    if (td_side_build(&c.s[0], baseline) || td_side_build(&c.s[1], variant)) goto fail;
    if (td_merge_all(&c, d)) goto fail;
    if (tsql_u64map_init(&d->find[0], d->n) || tsql_u64map_init(&d->find[1], d->n)) goto fail;
    for (uint32_t m = 0; m < d->n; m++) {
        if (d->uid1[m] != NONE && tsql_u64map_put(&d->find[0], d->uid1[m], m, 1)) goto fail;
        if (d->uid2[m] != NONE && tsql_u64map_put(&d->find[1], d->uid2[m], m, 1)) goto fail;
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
