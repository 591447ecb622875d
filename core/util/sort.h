/*
 * sort.h — the sorts the analyses share: a stable radix sort by double keys (the tree's
 * nesting order, the timeline's unions) and index records sorted by (double, tie).
 */
#ifndef TSQL_SORT_H
#define TSQL_SORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* An unsigned key whose order is the order of the doubles: negative numbers included,
 * -0.0 just before +0.0. The input must be NaN-free. */
static inline uint64_t tsql_sort_key(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return (u >> 63) ? ~u : (u | UINT64_C(0x8000000000000000));
}

/* Sorts key[0..n) ascending and moves val[] along; stable (equal keys keep their
 * order). 0, or -1 on OOM (the arrays are then unchanged). */
int tsql_radix_sort(uint64_t *key, uint32_t *val, size_t n);

/* A record to sort by k, then by tie (both ascending); v is carried along. With
 * distinct ties (e.g. input positions) the order is total, so qsort is stable. */
typedef struct tsql_keyed {
    double k;
    uint32_t tie, v;
} tsql_keyed;

int tsql_keyed_cmp(const void *x, const void *y);
void tsql_keyed_sort(tsql_keyed *a, size_t n);

/* qsort of n elements; nothing to do (and no pointer to pass, which qsort forbids
 * being NULL) below two. */
static inline void tsql_qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    if (n > 1) qsort(base, n, size, cmp);
}

/* qsort comparators of plain unsigned integers, ascending */
int tsql_cmp_u32(const void *x, const void *y);
int tsql_cmp_u64(const void *x, const void *y);

#endif
