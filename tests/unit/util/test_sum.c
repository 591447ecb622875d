/* test_sum.c — core/util/sum.c: pandas' Kahan-compensated sum (where a plain sum loses
 * digits, and where Kahan itself does, unlike Neumaier) and numpy's pairwise order. */
#include "util/sum.h"
#include "check.h"

static double naive(const double *v, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++) s += v[i];
    return s;
}

static void test_kahan(void)
{
    /* 1 + ten times 1e-16: a plain sum never moves off 1.0, the compensated sum gets
     * the double nearest 1 + 1e-15 */
    double v[11] = {1.0};
    for (int i = 1; i < 11; i++) v[i] = 1e-16;
    CHECK(naive(v, 11) == 1.0);
    CHECK(tsql_kahan_sum(v, 11) == 1.000000000000001);

    /* against a long-double reference, exact to the last bit here */
    double w[300];
    long double ref = 0;
    for (int i = 0; i < 300; i++) {
        w[i] = 0.1 * (i % 7) + 1e-3 * i;
        ref += w[i];
    }
    CHECK(tsql_kahan_sum(w, 300) == (double)ref);

    /* Kahan, not Neumaier: the lost 1 + 1 is not recovered (pandas gives 0 too) */
    double big[] = {1.0, 1e100, 1.0, -1e100};
    CHECK(tsql_kahan_sum(big, 4) == 0.0);

    /* the incremental form is the same sum */
    double s = 0, c = 0;
    for (int i = 0; i < 11; i++) tsql_kahan_add(&s, &c, v[i]);
    CHECK(s == tsql_kahan_sum(v, 11));
    CHECK(tsql_kahan_sum(v, 0) == 0);
}

static void test_pairwise(void)
{
    double v[300];
    for (int i = 0; i < 300; i++) v[i] = 0.1 * (i % 7) + 1e-3 * i;
    /* straight below 8 values, 8 accumulators up to 128, halves above */
    CHECK(tsql_pairwise_sum(v, 5) == (((0.0 + v[0]) + v[1]) + v[2]) + v[3] + v[4]);
    double r[8];
    for (int j = 0; j < 8; j++) r[j] = v[j] + v[j + 8];
    double want = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    want += v[16];
    CHECK(tsql_pairwise_sum(v, 17) == want);
    /* 300 = 144 + 156 (n/2 = 150 rounded down to a multiple of 8) */
    CHECK(tsql_pairwise_sum(v, 300) == tsql_pairwise_sum(v, 144) + tsql_pairwise_sum(v + 144, 156));
    CHECK(tsql_pairwise_sum(v, 0) == 0);

    /* the order matters: 1e16 + 1 + ... differs from the left-to-right sum */
    double x[9] = {1e16, 1, 1, 1, 1, 1, 1, 1, 1};
    CHECK(naive(x, 9) == 1e16);
    CHECK(tsql_pairwise_sum(x, 9) == 1e16 + 8);
}

/* the plain running total: left to right, no compensation */
static void test_seq(void)
{
    const double v[3] = {0.1, 0.2, 0.3};
    CHECK(tsql_seq_sum(v, 3) == (0.1 + 0.2) + 0.3);
    CHECK(tsql_seq_sum(v, 3) == 0.6000000000000001);
    CHECK(tsql_kahan_sum(v, 3) == 0.6);
    CHECK(tsql_seq_sum(v, 0) == 0.0);
}

/* mean and spread the numpy way and the pandas way; expected values printed by numpy
 * (np.mean, np.var with ddof 0 and 1) and pandas (groupby mean, std) on the same list */
static void test_moments(void)
{
    const double v[5] = {0.1, 0.2, 0.3, 1e8 + 0.7, 3.3};
    double var = 0.0;
    CHECK(tsql_np_mean(v, 5) == 20000000.919999998);
    CHECK_EQ(tsql_np_var(v, 5, 0, &var), 0);
    CHECK(var == 1599999991200001.5);
    CHECK_EQ(tsql_np_var(v, 5, 1, &var), 0);
    CHECK(var == 1999999989000001.8);
    CHECK(tsql_pd_mean(v, 5) == 20000000.919999998);
    CHECK(tsql_pd_std(v, 5) == 44721359.42701207);
    const double two[2] = {1.0, 2.0};
    CHECK(tsql_pd_std(two, 2) == 0.7071067811865476);
    CHECK(tsql_np_mean(two, 2) == 1.5);
}

int main(void)
{
    test_kahan();
    test_pairwise();
    test_seq();
    test_moments();
    return check_report("test_sum");
}
