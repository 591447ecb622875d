/* test_sort.c — core/util/sort.c: the order-preserving key of a double, the stable radix
 * sort (both its insertion and its radix paths) and the (k, tie) records. */
#include <stdlib.h>

#include "util/sort.h"
#include "check.h"

#define N(a) (sizeof(a) / sizeof *(a))

static void test_key(void)
{
    /* ascending doubles give ascending keys: negatives, -0.0 just before +0.0, infinities */
    static const double d[] = {-INFINITY, -1e300, -2.5, -1.0, -1e-300, -0.0, 0.0, 1e-300, 0.5,
                               1.0, 3.0, 1e300, INFINITY};
    int ok = 1;
    for (size_t i = 1; i < N(d); i++) ok &= tsql_sort_key(d[i - 1]) < tsql_sort_key(d[i]);
    CHECK(ok);
    CHECK(tsql_sort_key(1.5) == tsql_sort_key(1.5));
}

/* n keys drawn from few distinct doubles (many ties), negative ones included */
static int check_radix(size_t n)
{
    uint64_t *k = malloc((n ? n : 1) * sizeof *k);
    uint32_t *v = malloc((n ? n : 1) * sizeof *v);
    double *d = malloc((n ? n : 1) * sizeof *d);
    if (!k || !v || !d) return 0;
    unsigned s = 99;
    for (size_t i = 0; i < n; i++) {
        s = s * 1103515245u + 12345u;
        d[i] = (double)((s >> 8) % 41) * 0.25 - 5.0;
        k[i] = tsql_sort_key(d[i]);
        v[i] = (uint32_t)i;
    }
    int ok = tsql_radix_sort(k, v, n) == 0;
    for (size_t i = 0; i < n; i++) ok &= k[i] == tsql_sort_key(d[v[i]]); /* key moved with val */
    for (size_t i = 1; i < n; i++) {
        double a = d[v[i - 1]], b = d[v[i]];
        ok &= a < b || (a == b && v[i - 1] < v[i]); /* ascending; ties in input order */
    }
    free(k);
    free(v);
    free(d);
    return ok;
}

static void test_radix(void)
{
    /* a small case worked by hand: stable on the ties 2.0 (vals 10, 12) and -1 (11, 14) */
    uint64_t k[] = {tsql_sort_key(2.0), tsql_sort_key(-1.0), tsql_sort_key(2.0),
                    tsql_sort_key(-7.5), tsql_sort_key(-1.0)};
    uint32_t v[] = {10, 11, 12, 13, 14};
    CHECK_EQ(tsql_radix_sort(k, v, N(k)), 0);
    static const uint32_t want[] = {13, 11, 14, 10, 12};
    int ok = 1;
    for (size_t i = 0; i < N(v); i++) ok &= v[i] == want[i];
    CHECK(ok);
    CHECK_EQ(tsql_radix_sort(NULL, NULL, 0), 0);
    /* both sides of the insertion-sort threshold, and a large input */
    CHECK(check_radix(1));
    CHECK(check_radix(63));
    CHECK(check_radix(64));
    CHECK(check_radix(5000));
    CHECK(check_radix(200000));
}

static void test_keyed(void)
{
    /* by k, then by tie; v follows; -0.0 and 0.0 are equal keys (the tie decides) */
    tsql_keyed a[] = {{3.0, 1, 100}, {-0.0, 5, 101}, {3.0, 0, 102}, {0.0, 2, 103}, {-4.0, 9, 104}};
    tsql_keyed_sort(a, N(a));
    static const uint32_t want[] = {104, 103, 101, 102, 100};
    int ok = 1;
    for (size_t i = 0; i < N(a); i++) ok &= a[i].v == want[i];
    CHECK(ok);
    CHECK(tsql_keyed_cmp(&a[0], &a[1]) < 0);
    CHECK(tsql_keyed_cmp(&a[1], &a[1]) == 0);
    tsql_keyed_sort(NULL, 0);
}

int main(void)
{
    test_key();
    test_radix();
    test_keyed();
    return check_report("test_sort");
}
