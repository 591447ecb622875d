/* attribution.c — kernel launchers and their busy times, TraceLens's way; see attribution.h. */
#include "analysis/attribution.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text/jsonlex.h"
#include "perfmodel/perfmodel.h"
#include "store/store.h"
#include "tree/tree.h"
#include "util/interval.h"
#include "util/sort.h"
#include "util/u32vec.h"
#include "util/u64map.h"

#define NONE TSQL_NONE

double tsql_busy_us(const tsql_trace *t, const uint32_t *uids, size_t n, double *scratch)
{
    tsql_iv *iv = (tsql_iv *)(void *)scratch;
    for (size_t i = 0; i < n; i++) {
        double ts = tsql_trace_ts_us(t, uids[i]);
        iv[i] = (tsql_iv){ts, ts + tsql_trace_dur_us(t, uids[i])};
    }
    return tsql_iv_union_length(iv, n);
}

/* TraceLens's parent of a CPU node: none for events it drops, else the nesting parent. */
static uint32_t tl_parent(const tsql_trace *t, uint32_t u)
{
    if (t->flags[u] & TSQL_F_TL_DROPPED) return NONE;
    uint32_t p = t->parent[u];
    return p != NONE && t->edge[u] == TSQL_EDGE_CPU ? p : NONE;
}

void tsql_attrib_free(tsql_attrib *a)
{
    if (!a) return;
    free(a->uid);
    free(a->direct_us);
    free(a->subtree_us);
    free(a->direct_at);
    free(a->direct);
    free(a->by_uid);
    free((void *)a->category);
    free(a);
}

uint32_t tsql_attrib_find(const tsql_attrib *a, uint32_t uid)
{
    uint32_t lo = 0, hi = a->nl;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (a->uid[a->by_uid[mid]] < uid) lo = mid + 1;
        else hi = mid;
    }
    return lo < a->nl && a->uid[a->by_uid[lo]] == uid ? a->by_uid[lo] : NONE;
}


static tsql_attrib *build(tsql_trace *t)
{
    const tsql_kernels *K = &t->kernels;
    tsql_attrib *a = calloc(1, sizeof *a), *out = NULL;
    tsql_u64map idx = {0};
    uint32_t *met = NULL, *cnt = NULL, *sub_at = NULL, *sub = NULL;
    tsql_keyed *ord = NULL;
    double *scratch = NULL;
    if (!a) return NULL;

    /* 1. launchers in first-met order (GPU events in file order) */
    uint32_t nmet = 0;
    if (tsql_u64map_init(&idx, K->n + 1)) goto fail;
    met = malloc((size_t)(K->n + 1) * sizeof *met);
    if (!met) goto fail;
    for (uint32_t k = 0; k < K->n; k++) {
        uint32_t L = K->tl_launcher[k];
        if (L == NONE || tsql_u64map_get(&idx, L) != NONE) continue;
        tsql_u64map_put(&idx, L, nmet, 0);
        met[nmet++] = L;
    }
    /* 2. order by the launcher's ts, ties in first-met order */
    size_t cap = nmet ? nmet : 1;
    ord = malloc(cap * sizeof *ord);
    a->uid = malloc(cap * sizeof *a->uid);
    a->direct_us = malloc(cap * sizeof *a->direct_us);
    a->subtree_us = malloc(cap * sizeof *a->subtree_us);
    a->direct_at = calloc(cap + 1, sizeof *a->direct_at);
    a->by_uid = malloc(cap * sizeof *a->by_uid);
    if (!ord || !a->uid || !a->direct_us || !a->subtree_us || !a->direct_at || !a->by_uid) goto fail;
    for (uint32_t i = 0; i < nmet; i++) ord[i] = (tsql_keyed){tsql_trace_ts_us(t, met[i]), i, met[i]};
    tsql_keyed_sort(ord, nmet);
    a->nl = nmet;
    tsql_u64map_free(&idx);
    if (tsql_u64map_init(&idx, nmet + 1)) goto fail;
    for (uint32_t i = 0; i < nmet; i++) {
        a->uid[i] = ord[i].v;
        tsql_u64map_put(&idx, ord[i].v, i, 1);
    }
    for (uint32_t i = 0; i < nmet; i++) ord[i] = (tsql_keyed){(double)a->uid[i], i, i};
    tsql_keyed_sort(ord, nmet);
    for (uint32_t i = 0; i < nmet; i++) a->by_uid[i] = ord[i].v;

    /* 3. direct GPU events per launcher, sorted by ts (stable) */
    uint32_t ndirect = 0;
    for (uint32_t k = 0; k < K->n; k++) {
        if (K->tl_launcher[k] == NONE) continue;
        a->direct_at[tsql_u64map_get(&idx, K->tl_launcher[k]) + 1]++;
        ndirect++;
    }
    for (uint32_t i = 0; i < nmet; i++) a->direct_at[i + 1] += a->direct_at[i];
    a->direct = malloc((size_t)(ndirect ? ndirect : 1) * sizeof *a->direct);
    cnt = calloc(cap, sizeof *cnt);
    if (!a->direct || !cnt) goto fail;
    for (uint32_t k = 0; k < K->n; k++) {
        if (K->tl_launcher[k] == NONE) continue;
        uint32_t i = tsql_u64map_get(&idx, K->tl_launcher[k]);
        a->direct[a->direct_at[i] + cnt[i]++] = K->uid[k];
    }
    /* 4. subtree GPU events: each TraceLens-linked GPU event counts for every launcher
     * on its runtime call's chain of TraceLens ancestors (communication included) */
    sub_at = calloc(cap + 1, sizeof *sub_at);
    if (!sub_at) goto fail;
    size_t nsub = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t k = 0; k < K->n; k++) {
            uint32_t r = K->tl_runtime[k];
            for (uint32_t u = r; u != NONE; u = tl_parent(t, u)) {
                uint32_t i = tsql_u64map_get(&idx, u);
                if (i == NONE) continue;
                if (pass == 0) {
                    sub_at[i + 1]++;
                    nsub++;
                } else {
                    sub[sub_at[i] + cnt[i]++] = K->uid[k];
                }
            }
        }
        if (pass == 0) {
            for (uint32_t i = 0; i < nmet; i++) sub_at[i + 1] += sub_at[i];
            sub = malloc((nsub ? nsub : 1) * sizeof *sub);
            if (!sub) goto fail;
            memset(cnt, 0, cap * sizeof *cnt);
        }
    }
    size_t maxn = 1;
    for (uint32_t i = 0; i < nmet; i++) {
        size_t m = sub_at[i + 1] - sub_at[i];
        if (m > maxn) maxn = m;
    }
    scratch = malloc(maxn * 2 * sizeof *scratch);
    tsql_keyed *kd = malloc(maxn * sizeof *kd);
    if (!scratch || !kd) {
        free(kd);
        goto fail;
    }
    for (uint32_t i = 0; i < nmet; i++) {
        uint32_t *d = a->direct + a->direct_at[i];
        uint32_t m = a->direct_at[i + 1] - a->direct_at[i];
        for (uint32_t j = 0; j < m; j++) kd[j] = (tsql_keyed){tsql_trace_ts_us(t, d[j]), d[j], d[j]};
        tsql_keyed_sort(kd, m);
        for (uint32_t j = 0; j < m; j++) d[j] = kd[j].v;
        a->direct_us[i] = tsql_busy_us(t, d, m, scratch);
        a->subtree_us[i] = tsql_busy_us(t, sub + sub_at[i], sub_at[i + 1] - sub_at[i], scratch);
    }
    free(kd);
    a->category = malloc(cap * sizeof *a->category);
    if (!a->category) goto fail;
    for (uint32_t i = 0; i < nmet; i++) {
        const char *nm = t->name[a->uid[i]] ? tsql_intern_str(&t->strings, t->name[a->uid[i]]) : "";
        uint32_t f = a->direct_at[i] < a->direct_at[i + 1] ? a->direct[a->direct_at[i]] : NONE;
        const char *fk = f != NONE && t->name[f] ? tsql_intern_str(&t->strings, t->name[f]) : NULL;
        a->category[i] = tsql_op_category(nm, fk);
    }
    out = a;
    a = NULL;
fail:
    tsql_u64map_free(&idx);
    free(met);
    free(cnt);
    free(sub_at);
    free(sub);
    free(ord);
    free(scratch);
    tsql_attrib_free(a);
    return out;
}

static void *build_value(tsql_trace *t) { return build(t); }
static void free_value(void *v) { tsql_attrib_free(v); }
static const tsql_cache_kind KIND = {"attribution", build_value, free_value};

const tsql_attrib *tsql_attrib_get(tsql_trace *t)
{
    return tsql_trace_cached(t, &KIND);
}

const tsql_attrib *tsql_attrib_peek(const tsql_trace *t)
{
    return tsql_trace_cache_get(t, &KIND);
}

/* ---------- TraceLens subtree GPU events ---------- */

long tsql_tl_subtree_gpu(const tsql_trace *t, uint32_t uid, u32vec *out)
{
    if (uid >= t->n || tsql_kind_is_gpu(t->kind[uid])) return 0;
    /* the runtime calls of the subtree, then their GPU events in runtime file order */
    u32vec stack = {0}, rt = {0};
    size_t n0 = out->n;
    long rc = -1;
    if (u32vec_push(&stack, uid)) goto out;
    while (stack.n) {
        uint32_t u = stack.v[--stack.n];
        if (tsql_kind_is_launch(t->kind[u]) && u32vec_push(&rt, u)) goto out;
        if (t->flags[u] & TSQL_F_TL_DROPPED) continue;
        for (uint32_t j = t->child_at[u]; j < t->child_at[u + 1]; j++) {
            uint32_t c = t->child[j];
            if (t->edge[c] == TSQL_EDGE_CPU && !(t->flags[c] & TSQL_F_TL_DROPPED) && u32vec_push(&stack, c))
                goto out;
        }
    }
    tsql_qsort(rt.v, rt.n, sizeof *rt.v, tsql_cmp_u32);
    for (size_t i = 0; i < rt.n; i++) {
        uint32_t r = rt.v[i];
        for (uint32_t j = t->child_at[r]; j < t->child_at[r + 1]; j++) {
            uint32_t g = t->child[j];
            if (!tsql_kind_is_gpu(t->kind[g])) continue;
            uint32_t k = tsql_kernel_row(t, g);
            if (k == NONE || t->kernels.tl_runtime[k] != r) continue;
            if (u32vec_push(out, g)) goto out;
        }
    }
    rc = (long)(out->n - n0);
out:
    free(stack.v);
    free(rt.v);
    return rc;
}
