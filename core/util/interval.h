/*
 * interval.h — unions of closed intervals [start, end] of doubles, TraceLens's way:
 * "busy time", the GPU timeline's computation / communication / memcpy unions.
 *
 *   union      sort by start (stable); an interval whose start <= the previous end
 *              joins it (touching intervals merge)
 *   length     sum of (end - start) over a union, left to right from +0.0 (Python's
 *              sum()), so results equal TraceLens's to the last bit
 *   B \ A      both unions; every interval of B clipped by the intervals of A that
 *              overlap it, only strictly positive remainders kept
 *
 * Starts must be NaN-free; n at most UINT32_MAX.
 */
#ifndef TSQL_INTERVAL_H
#define TSQL_INTERVAL_H

#include <stddef.h>
#include <stdint.h>

typedef struct tsql_iv {
    double start, end;
} tsql_iv;

/* perm[0..n) = indexes of iv in ascending start order (ties keep input order).
 * 0, or -1 on OOM. */
int tsql_iv_order(const tsql_iv *iv, size_t n, uint32_t *perm);

/* Sorts iv[0..n) by start, stable, in place. Cannot fail (on OOM it falls back to an
 * insertion sort with the same result). */
void tsql_iv_sort(tsql_iv *iv, size_t n);

/* Merges iv[0..n), already sorted by start, in place. Returns the union's size. */
size_t tsql_iv_merge_sorted(tsql_iv *iv, size_t n);

/* Sorts iv[0..n) by start and merges it in place into a union. Returns its size. */
size_t tsql_iv_union(tsql_iv *iv, size_t n);

/* Sum of end - start, left to right (Python's sum() over the union). */
double tsql_iv_length(const tsql_iv *iv, size_t n);

/* Length of the union of iv[0..n) ("busy time"); iv is reordered and merged. */
double tsql_iv_union_length(tsql_iv *iv, size_t n);

/* out = B \ A for unions b[0..nb) and a[0..na). out needs room for na + nb intervals
 * and may not alias a or b. Returns the number written. */
size_t tsql_iv_subtract(const tsql_iv *b, size_t nb, const tsql_iv *a, size_t na, tsql_iv *out);

/* The gaps between consecutive intervals of a union, split at threshold: gaps shorter
 * than it add to *micro, the others to *macro (sums left to right). */
void tsql_iv_gaps(const tsql_iv *u, size_t n, double threshold, double *micro, double *macro);

#endif
