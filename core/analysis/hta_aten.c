/*
 * hta_aten.c — HTA's ATen-op launch records (see hta_aten.h): the ATen ops sorted by
 * start, each launch's enclosing op found by a binary search and a backward scan that
 * stops once no earlier op ends late enough (prefix maxima of the ends).
 */
#include "analysis/hta_aten.h"

#include <stdlib.h>
#include <string.h>

typedef struct { double ts; uint32_t row; } op_key;

static int cmp_op(const void *a, const void *b)
{
    const op_key *x = a, *y = b;
    if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
    return x->row < y->row ? -1 : x->row > y->row;
}

void tsql_hta_aten_free(tsql_hta_aten *a)
{
    if (!a) return;
    free(a->launch);
    free(a->op);
    free(a->kernel);
    free(a->nkernels);
    free(a);
}

tsql_hta_aten *tsql_hta_aten_build(const tsql_trace *t, const tsql_hta_rows *r, int kept_only)
{
    tsql_hta_aten *a = calloc(1, sizeof *a);
    size_t m = r->n ? r->n : 1;
    op_key *ops = malloc(m * sizeof *ops);
    double *max_end = malloc(m * sizeof *max_end);
    uint32_t *first_k = calloc(m, sizeof *first_k), *count_k = calloc(m, sizeof *count_k);
    if (a) {
        a->launch = malloc(m * sizeof *a->launch);
        a->op = malloc(m * sizeof *a->op);
        a->kernel = malloc(m * sizeof *a->kernel);
        a->nkernels = malloc(m * sizeof *a->nkernels);
    }
    if (!a || !ops || !max_end || !first_k || !count_k || !a->launch || !a->op || !a->kernel || !a->nkernels) {
        free(ops), free(max_end), free(first_k), free(count_k);
        tsql_hta_aten_free(a);
        return NULL;
    }
    uint32_t nops = 0;
    for (uint32_t i = 0; i < r->n; i++) {
        if (kept_only && !(r->flags[i] & TSQL_HTA_KEEP)) continue;
        const char *name = tsql_intern_text(&t->strings, t->name[r->uid[i]]);
        if (!strncmp(name, "aten::", 6)) ops[nops++] = (op_key){r->ts[i], i};
        /* the kernel of a launch: a device row pointing back at it (first in event order) */
        uint32_t p = r->partner[i];
        if ((r->flags[i] & TSQL_HTA_DEV) && r->index_corr[i] > 0 && p != UINT32_MAX &&
            (!kept_only || (r->flags[p] & TSQL_HTA_KEEP))) {
            if (!count_k[p]++) first_k[p] = i;
        }
    }
    qsort(ops, nops, sizeof *ops, cmp_op);
    for (uint32_t j = 0; j < nops; j++) {
        double e = r->ts[ops[j].row] + r->dur[ops[j].row];
        max_end[j] = j && max_end[j - 1] > e ? max_end[j - 1] : e;
    }
    for (uint32_t i = 0; i < r->n; i++) {
        if (!(r->flags[i] & TSQL_HTA_ATEN_LAUNCH) || (kept_only && !(r->flags[i] & TSQL_HTA_KEEP)) || !count_k[i])
            continue;
        double ts = r->ts[i], end = r->ts[i] + r->dur[i];
        /* ops with start <= ts: [0, hi) */
        uint32_t lo = 0, hi = nops;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (ops[mid].ts <= ts) lo = mid + 1; else hi = mid;
        }
        uint32_t best = UINT32_MAX;
        for (uint32_t j = hi; j-- > 0 && max_end[j] >= end;) {
            if (best != UINT32_MAX && ops[j].ts < r->ts[best]) break; /* only equal starts may follow */
            uint32_t o = ops[j].row;
            if (r->ts[o] + r->dur[o] >= end) best = o; /* equal starts: the first in event order wins */
        }
        if (best == UINT32_MAX) continue;
        a->launch[a->n] = i;
        a->op[a->n] = best;
        a->kernel[a->n] = first_k[i];
        a->nkernels[a->n] = count_k[i];
        a->n++;
    }
    free(ops), free(max_end), free(first_k), free(count_k);
    return a;
}
