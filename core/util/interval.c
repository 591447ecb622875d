/* interval.c — see interval.h. */
#include "util/interval.h"

#include <stdlib.h>

#include "util/sort.h"

/* Below this, tsql_iv_sort sorts in place without allocating. */
#define SMALL 64

int tsql_iv_order(const tsql_iv *iv, size_t n, uint32_t *perm)
{
    uint64_t *key = malloc((n ? n : 1) * sizeof *key);
    if (!key) return -1;
    for (size_t i = 0; i < n; i++) {
        key[i] = tsql_sort_key(iv[i].start);
        perm[i] = (uint32_t)i;
    }
    int rc = tsql_radix_sort(key, perm, n);
    free(key);
    return rc;
}

/* stable, and the same order as tsql_iv_order (the keys decide, not <) */
static void insertion_sort(tsql_iv *iv, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        tsql_iv x = iv[i];
        uint64_t k = tsql_sort_key(x.start);
        size_t j = i;
        for (; j > 0 && tsql_sort_key(iv[j - 1].start) > k; j--) iv[j] = iv[j - 1];
        iv[j] = x;
    }
}

void tsql_iv_sort(tsql_iv *iv, size_t n)
{
    /* already sorted in the common case (events listed by ts) */
    size_t i = 1;
    while (i < n && tsql_sort_key(iv[i - 1].start) <= tsql_sort_key(iv[i].start)) i++;
    if (i >= n) return;
    uint32_t *perm = n >= SMALL ? malloc(n * sizeof *perm) : NULL;
    tsql_iv *tmp = perm ? malloc(n * sizeof *tmp) : NULL;
    if (!tmp || tsql_iv_order(iv, n, perm)) {
        free(perm);
        free(tmp);
        insertion_sort(iv, n);
        return;
    }
    for (i = 0; i < n; i++) tmp[i] = iv[perm[i]];
    for (i = 0; i < n; i++) iv[i] = tmp[i];
    free(perm);
    free(tmp);
}

size_t tsql_iv_merge_sorted(tsql_iv *iv, size_t n)
{
    if (n == 0) return 0;
    size_t m = 0;
    for (size_t i = 1; i < n; i++) {
        /* NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult): callers pass the n entries they wrote */
        if (iv[i].start <= iv[m].end) {
            if (iv[i].end > iv[m].end) iv[m].end = iv[i].end;
        } else {
            iv[++m] = iv[i];
        }
    }
    return m + 1;
}

size_t tsql_iv_union(tsql_iv *iv, size_t n)
{
    tsql_iv_sort(iv, n);
    return tsql_iv_merge_sorted(iv, n);
}

double tsql_iv_length(const tsql_iv *iv, size_t n)
{
    double s = 0;
    /* NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult): as in tsql_iv_merge_sorted */
    for (size_t i = 0; i < n; i++) s += iv[i].end - iv[i].start;
    return s;
}

double tsql_iv_union_length(tsql_iv *iv, size_t n)
{
    return tsql_iv_length(iv, tsql_iv_union(iv, n));
}

size_t tsql_iv_subtract(const tsql_iv *b, size_t nb, const tsql_iv *a, size_t na, tsql_iv *out)
{
    size_t m = 0, ai = 0;
    for (size_t bi = 0; bi < nb; bi++) {
        double bs = b[bi].start, be = b[bi].end, cur = bs;
        while (ai < na && a[ai].end <= bs) ai++;
        for (size_t t = ai; t < na && a[t].start < be; t++) {
            if (a[t].start > cur) out[m++] = (tsql_iv){cur, a[t].start < be ? a[t].start : be};
            if (a[t].end > cur) cur = a[t].end;
            if (cur >= be) break;
        }
        if (cur < be) out[m++] = (tsql_iv){cur, be};
    }
    return m;
}

void tsql_iv_gaps(const tsql_iv *u, size_t n, double threshold, double *micro, double *macro)
{
    double mi = 0, ma = 0;
    for (size_t i = 1; i < n; i++) {
        double gap = u[i].start - u[i - 1].end;
        if (gap < threshold) mi += gap;
        else ma += gap;
    }
    *micro = mi;
    *macro = ma;
}
