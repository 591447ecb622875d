/* test_interval.c — core/util/interval.c: sorting by start, unions (overlapping, nested,
 * touching, zero-length), their lengths in TraceLens's double arithmetic, differences
 * and idle gaps. */
#include <stdlib.h>

#include "util/interval.h"
#include "check.h"

#define N(a) (sizeof(a) / sizeof *(a))

static int same_ivs(const tsql_iv *a, size_t na, const tsql_iv *b, size_t nb)
{
    if (na != nb) return 0;
    for (size_t i = 0; i < na; i++)
        if (a[i].start != b[i].start || a[i].end != b[i].end) return 0;
    return 1;
}

static void test_union(void)
{
    /* unsorted; touching intervals merge; nested and zero-length ones vanish into others */
    tsql_iv iv[] = {{5, 6}, {0, 1}, {1, 2}, {3, 4}, {3.5, 3.5}, {2.5, 2.5}, {8, 10}, {8.5, 9}};
    size_t n = tsql_iv_union(iv, N(iv));
    tsql_iv want[] = {{0, 2}, {2.5, 2.5}, {3, 4}, {5, 6}, {8, 10}};
    CHECK(same_ivs(iv, n, want, N(want)));
    CHECK(tsql_iv_length(iv, n) == 6.0);

    tsql_iv one[] = {{7, 9}};
    CHECK_EQ(tsql_iv_union(one, 1), 1);
    CHECK_EQ(tsql_iv_union(NULL, 0), 0);
    CHECK(tsql_iv_union_length(NULL, 0) == 0.0);

    /* busy time: [0,4] holds [1,2] and touches [4,6]; [7,7.5] alone; [-3,-1] before */
    tsql_iv busy[] = {{4, 6}, {1, 2}, {0, 4}, {7, 7.5}, {-3, -1}};
    CHECK(tsql_iv_union_length(busy, N(busy)) == 2 + 6 + 0.5);

    /* the length is summed left to right over the union: 0.1+0.2 and 0.7+0.1 as
     * Python computes them, not their exact sum */
    tsql_iv d[] = {{0.7, 0.7 + 0.1}, {0.1, 0.1 + 0.2}};
    CHECK(tsql_iv_union_length(d, 2) == (0.0 + (0.1 + 0.2 - 0.1)) + (0.7 + 0.1 - 0.7));
}

/* the reference order: insertion sort by start, stable */
static void insertion(tsql_iv *b, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        tsql_iv x = b[i];
        size_t j = i;
        for (; j > 0 && b[j - 1].start > x.start; j--) b[j] = b[j - 1];
        b[j] = x;
    }
}

static void test_sort(void)
{
    /* stable: equal starts keep their input order (told apart by their ends) */
    tsql_iv t[] = {{2, 9}, {1, 5}, {2, 3}, {1, 4}, {-1, 0}, {2, 7}};
    uint32_t perm[N(t)];
    CHECK_EQ(tsql_iv_order(t, N(t), perm), 0);
    static const uint32_t want_perm[] = {4, 1, 3, 0, 2, 5};
    int ok = 1;
    for (size_t i = 0; i < N(t); i++) ok &= perm[i] == want_perm[i];
    CHECK(ok);
    tsql_iv_sort(t, N(t));
    tsql_iv want[] = {{-1, 0}, {1, 5}, {1, 4}, {2, 9}, {2, 3}, {2, 7}};
    CHECK(same_ivs(t, N(t), want, N(want)));

    /* the allocating path (>= 64 intervals) agrees with the reference, negative starts and
     * many ties included; so do the order and the union */
    enum { M = 3000 };
    tsql_iv *a = malloc(M * sizeof *a), *b = malloc(M * sizeof *b), *c = malloc(M * sizeof *c);
    uint32_t *p = malloc(M * sizeof *p);
    if (!a || !b || !c || !p) {
        CHECK(0);
        return;
    }
    unsigned s = 12345;
    for (int i = 0; i < M; i++) {
        s = s * 1103515245u + 12345u;
        double st = (double)(s % 1000) / 7.0 - 20.0;
        s = s * 1103515245u + 12345u;
        a[i] = b[i] = c[i] = (tsql_iv){st, st + (double)(s % 50)};
    }
    CHECK_EQ(tsql_iv_order(c, M, p), 0);
    tsql_iv_sort(a, M);
    insertion(b, M);
    CHECK(same_ivs(a, M, b, M));
    ok = 1;
    for (int i = 0; i < M; i++) ok &= c[p[i]].start == b[i].start && c[p[i]].end == b[i].end;
    CHECK(ok);
    size_t na = tsql_iv_union(c, M), nb = tsql_iv_merge_sorted(b, M);
    CHECK(same_ivs(c, na, b, nb));
    for (size_t i = 1; i < na; i++) CHECK(c[i].start > c[i - 1].end);
    free(a);
    free(b);
    free(c);
    free(p);
}

static void test_subtract(void)
{
    tsql_iv out[16];
    /* clipping at both ends and a hole in the middle */
    tsql_iv b1[] = {{0, 10}};
    tsql_iv a1[] = {{-5, 1}, {4, 5}, {9, 20}};
    size_t n = tsql_iv_subtract(b1, 1, a1, N(a1), out);
    tsql_iv w1[] = {{1, 4}, {5, 9}};
    CHECK(same_ivs(out, n, w1, N(w1)));

    /* A touching B at one point removes nothing; covering it removes all */
    tsql_iv b2[] = {{2, 4}, {6, 8}};
    tsql_iv a2[] = {{0, 2}, {4, 6}};
    n = tsql_iv_subtract(b2, N(b2), a2, N(a2), out);
    CHECK(same_ivs(out, n, b2, N(b2)));
    tsql_iv a3[] = {{1, 9}};
    CHECK_EQ(tsql_iv_subtract(b2, N(b2), a3, 1, out), 0);

    /* nothing to subtract; zero-length B intervals give nothing */
    n = tsql_iv_subtract(b2, N(b2), NULL, 0, out);
    CHECK(same_ivs(out, n, b2, N(b2)));
    tsql_iv b4[] = {{3, 3}};
    CHECK_EQ(tsql_iv_subtract(b4, 1, NULL, 0, out), 0);
    CHECK_EQ(tsql_iv_subtract(b4, 1, a3, 1, out), 0);

    /* one A interval spanning several B intervals */
    tsql_iv b5[] = {{0, 2}, {3, 5}, {6, 9}};
    tsql_iv a5[] = {{1, 7}};
    n = tsql_iv_subtract(b5, N(b5), a5, 1, out);
    tsql_iv w5[] = {{0, 1}, {7, 9}};
    CHECK(same_ivs(out, n, w5, N(w5)));
}

static void test_gaps(void)
{
    tsql_iv u[] = {{0, 1}, {3, 4}, {10, 11}, {11.5, 12}};
    double micro, macro;
    tsql_iv_gaps(u, N(u), 2.0, &micro, &macro); /* gaps 2, 6, 0.5: 2 is not below 2 */
    CHECK(micro == 0.5);
    CHECK(macro == 8.0);
    tsql_iv_gaps(u, N(u), 100, &micro, &macro);
    CHECK(micro == 8.5);
    CHECK(macro == 0);
    tsql_iv_gaps(u, 1, 1, &micro, &macro);
    CHECK(micro == 0 && macro == 0);
}

int main(void)
{
    test_union();
    test_sort();
    test_subtract();
    test_gaps();
    return check_report("test_interval");
}
