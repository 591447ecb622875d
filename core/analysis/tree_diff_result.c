/* tree_diff_result.c — freeing a TraceDiff result and its lookups; see tree_diff_result.h. */
#include "analysis/tree_diff_result.h"

#include <math.h>
#include <stdlib.h>

#include "analysis/attribution.h"
#include "util/u32vec.h"

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
    tsql_u64map_free(&d->uidmap);
    tsql_u64map_free(&d->find[0]);
    tsql_u64map_free(&d->find[1]);
    free(d);
}

int64_t tsql_tree_diff_corresponding(const tsql_tree_diff *d, int which, uint32_t uid)
{
    if (which != 1 && which != 2) return -2;
    uint32_t v = tsql_u64map_get(&d->uidmap, (int64_t)(which == 2 ? (1ull << 32) | uid : uid));
    if (v == TSQL_NONE) return -2;
    return v == TSQL_DIFF_ALONE ? -1 : (int64_t)v;
}

uint32_t tsql_tree_diff_find(const tsql_tree_diff *d, int which, uint32_t uid)
{
    if (which != 1 && which != 2) return TSQL_NONE;
    return tsql_u64map_get(&d->find[which - 1], uid);
}

double tsql_tree_diff_gpu_us(const tsql_tree_diff *d, uint32_t m, int which)
{
    if (m >= d->n) return NAN;
    uint32_t u = which == 1 ? d->uid1[m] : d->uid2[m];
    tsql_trace *t = d->t[which - 1];
    if (u == TSQL_NONE) return NAN;
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
