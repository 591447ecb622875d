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

/* LSD, 16 bits per pass; a pass whose digit every key shares is skipped. */
int tsql_radix_sort(uint64_t *key, uint32_t *val, size_t n)
{
    if (n < SMALL) {
        insertion_sort(key, val, n);
        return 0;
    }
    uint64_t *k2 = malloc(n * sizeof *k2);
    uint32_t *v2 = malloc(n * sizeof *v2);
    size_t *cnt = malloc(65536 * sizeof *cnt);
    if (!k2 || !v2 || !cnt) {
        free(k2);
        free(v2);
        free(cnt);
        return -1;
    }
    uint64_t *ka = key, *kb = k2;
    uint32_t *va = val, *vb = v2;
    for (int shift = 0; shift < 64; shift += 16) {
        memset(cnt, 0, 65536 * sizeof *cnt);
        for (size_t i = 0; i < n; i++) cnt[(ka[i] >> shift) & 0xFFFF]++;
        if (cnt[(ka[0] >> shift) & 0xFFFF] == n) continue;
        size_t sum = 0;
        for (size_t b = 0; b < 65536; b++) {
            size_t c = cnt[b];
            cnt[b] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++) {
            size_t d = cnt[(ka[i] >> shift) & 0xFFFF]++;
            kb[d] = ka[i];
            vb[d] = va[i];
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
