/* sort.c — see sort.h. */
#include "util/sort.h"

#include <stdlib.h>

/* Below this, insertion sort: no allocation, and linear on sorted input. */
#define SMALL 64

static void insertion_sort(uint64_t *key, uint32_t *val, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        uint64_t k = key[i];
        uint32_t v = val[i];
        size_t j = i;
        for (; j > 0 && key[j - 1] > k; j--) {
            key[j] = key[j - 1];
            val[j] = val[j - 1];
        }
        key[j] = k;
        val[j] = v;
    }
}

/* LSD, one byte per pass; the counts of all eight bytes are taken in one read, and a
 * pass whose byte every key shares is skipped (timestamps share their high bytes). */
int tsql_radix_sort(uint64_t *key, uint32_t *val, size_t n)
{
    if (n < SMALL) {
        insertion_sort(key, val, n);
        return 0;
    }
    uint64_t *k2 = malloc(n * sizeof *k2);
    uint32_t *v2 = malloc(n * sizeof *v2);
    size_t(*cnt)[256] = calloc(8, sizeof *cnt);
    if (!k2 || !v2 || !cnt) {
        free(k2);
        free(v2);
        free(cnt);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        for (int d = 0; d < 8; d++) cnt[d][(key[i] >> (8 * d)) & 0xff]++;
    uint64_t *ka = key, *kb = k2;
    uint32_t *va = val, *vb = v2;
    for (int d = 0; d < 8; d++) {
        size_t *c = cnt[d];
        if (c[(ka[0] >> (8 * d)) & 0xff] == n) continue;
        size_t sum = 0;
        for (int b = 0; b < 256; b++) {
            size_t m = c[b];
            c[b] = sum;
            sum += m;
        }
        for (size_t i = 0; i < n; i++) {
            size_t at = c[(ka[i] >> (8 * d)) & 0xff]++;
            kb[at] = ka[i];
            vb[at] = va[i];
        }
        uint64_t *kt = ka;
        ka = kb;
        kb = kt;
        uint32_t *vt = va;
        va = vb;
        vb = vt;
    }
    if (ka != key) {
        memcpy(key, ka, n * sizeof *key);
        memcpy(val, va, n * sizeof *val);
    }
    free(k2);
    free(v2);
    free(cnt);
    return 0;
}

int tsql_keyed_cmp(const void *x, const void *y)
{
    const tsql_keyed *a = x, *b = y;
    if (a->k != b->k) return a->k < b->k ? -1 : 1;
    return (a->tie > b->tie) - (a->tie < b->tie);
}

void tsql_keyed_sort(tsql_keyed *a, size_t n)
{
    if (n > 1) qsort(a, n, sizeof *a, tsql_keyed_cmp);
}

int tsql_cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

int tsql_cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}
