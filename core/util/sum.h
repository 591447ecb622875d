/*
 * sum.h — the two ways TraceLens's pandas / numpy add a column of doubles; matching
 * them keeps the last bits of every reported sum and mean.
 *
 *   tsql_kahan_sum     pandas' groupby sum and mean: left to right, Kahan-compensated
 *   tsql_pairwise_sum  numpy's sum (Series.sum(), np.mean): 8-way unrolled blocks of at
 *                      most 128 values, halved recursively above that
 *   tsql_seq_sum       plain left-to-right addition (numpy's cumsum, a Python loop)
 */
#ifndef TSQL_SUM_H
#define TSQL_SUM_H

#include <stddef.h>

/* Adds v to the running compensated sum (*sum, *comp); both start at 0. */
static inline void tsql_kahan_add(double *sum, double *comp, double v)
{
    double y = v - *comp, t = *sum + y;
    *comp = (t - *sum) - y;
    *sum = t;
}

double tsql_kahan_sum(const double *v, size_t n);
double tsql_pairwise_sum(const double *v, size_t n);
double tsql_seq_sum(const double *v, size_t n);

#endif
