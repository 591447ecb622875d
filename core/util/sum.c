/* sum.c — see sum.h. */
#include "util/sum.h"

#include <math.h>
#include <stdlib.h>

double tsql_kahan_sum(const double *v, size_t n)
{
    double s = 0, c = 0;
    for (size_t i = 0; i < n; i++) tsql_kahan_add(&s, &c, v[i]);
    return s;
}

static double pairwise(const double *a, size_t n)
{
    if (n < 8) {
        double r = 0.;
        for (size_t i = 0; i < n; i++) r += a[i];
        return r;
    }
    if (n <= 128) {
        double r[8];
        for (int j = 0; j < 8; j++) r[j] = a[j];
        size_t i;
        for (i = 8; i < n - (n % 8); i += 8)
            for (int j = 0; j < 8; j++) r[j] += a[i + j];
        double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++) res += a[i];
        return res;
    }
    size_t n2 = n / 2;
    n2 -= n2 % 8;
    return pairwise(a, n2) + pairwise(a + n2, n - n2);
}

double tsql_pairwise_sum(const double *v, size_t n)
{
    return 0. + pairwise(v, n); /* numpy's reduction starts from the identity */
}

double tsql_seq_sum(const double *v, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++) s += v[i];
    return s;
}

double tsql_np_mean(const double *v, size_t n)
{
    return tsql_pairwise_sum(v, n) / (double)n;
}

int tsql_np_var(const double *v, size_t n, size_t ddof, double *var)
{
    double m = tsql_np_mean(v, n);
    double *d = malloc(n * sizeof *d);
    if (!d) return -1;
    for (size_t i = 0; i < n; i++) d[i] = (v[i] - m) * (v[i] - m);
    *var = tsql_pairwise_sum(d, n) / (double)(n - ddof);
    free(d);
    return 0;
}

double tsql_pd_mean(const double *v, size_t n)
{
    return tsql_kahan_sum(v, n) / (double)n;
}

double tsql_pd_std(const double *v, size_t n)
{
    double mean = 0.0, m2 = 0.0;
    for (size_t i = 0; i < n; i++) {
        double old = mean;
        mean += (v[i] - old) / (double)(i + 1);
        m2 += (v[i] - mean) * (v[i] - old);
    }
    return sqrt(m2 / (double)(n - 1));
}
