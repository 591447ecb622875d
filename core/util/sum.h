/*
 * sum.h — the two ways TraceLens's pandas / numpy add a column of doubles; matching
 * them keeps the last bits of every reported sum and mean.
 *
 *   tsql_kahan_sum     pandas' groupby sum and mean: left to right, Kahan-compensated
 *   tsql_pairwise_sum  numpy's sum (Series.sum(), np.mean): 8-way unrolled blocks of at
 *                      most 128 values, halved recursively above that
 *   tsql_seq_sum       plain left-to-right addition (numpy's cumsum, a Python loop)
 *
 * and the two ways they take a mean and a standard deviation, one function each:
 *   tsql_np_mean, tsql_np_var  numpy's: pairwise sum over n; squared deviations from that
 *                              mean summed pairwise, over n - ddof
 *   tsql_pd_mean, tsql_pd_std  pandas' groupby: Kahan sum over n; Welford's running
 *                              update in row order, ddof 1
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

/* numpy's mean of v[0..n), n > 0 */
double tsql_np_mean(const double *v, size_t n);
/* numpy's variance of v[0..n) with ddof (n > ddof) into *var; -1 on OOM (the deviations
 * are summed pairwise, as numpy does: a plain sum would change the last digits) */
int tsql_np_var(const double *v, size_t n, size_t ddof, double *var);
/* pandas' groupby mean (n > 0) and std (ddof 1, n > 1) of v[0..n) in row order */
double tsql_pd_mean(const double *v, size_t n);
double tsql_pd_std(const double *v, size_t n);

#endif
