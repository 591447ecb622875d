/*
 * numpy.c — numpy's arithmetic where pandas' output depends on it.
 *
 * np_round(x, decimals): numpy's round of a float (what Python's round() does to a numpy
 * float, and pandas' Series.round): x × 10^decimals rounded to the nearest integer, ties
 * to even, then divided by 10^decimals. It differs from SQLite's round() (ties away from
 * zero, decimal digits) in the last digit of halfway values.
 *
 * np_argsort(value, ord [, descending]): the order pandas' sort_values(kind='quicksort')
 * gives rows fed in the order of ord: numpy's introsort (not stable), so rows with equal
 * values come out as pandas prints them. Returns the ord values in that order as a JSON
 * array; NULL values (NaN) go last in their input order, as pandas puts them. The
 * multi-rank views sort with it (sql/collectives/).
 *
 *   SELECT np_round(0.25, 1);                               -- 0.2
 *   SELECT np_argsort(v, o, 1) FROM (VALUES (1, 1), (2, 2)) t(v, o);   -- [2,1]
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/registration.h"

static void fn_np_round(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    int t = sqlite3_value_numeric_type(argv[0]);
    if (t != SQLITE_INTEGER && t != SQLITE_FLOAT) return; /* NULL (NaN) stays NULL */
    int d = sqlite3_value_int(argv[1]);
    if (d < 0 || d > 15) {
        sqlite3_result_error(ctx, "np_round(x, decimals): decimals must be 0..15", -1);
        return;
    }
    double x = sqlite3_value_double(argv[0]);
    double p = 1.0;
    for (int i = 0; i < d; i++) p *= 10.0;
    sqlite3_result_double(ctx, nearbyint(x * p) / p);
}

/* ---- np_argsort ---- */

typedef struct sort_item {
    double v;
    int64_t ord;
    int null;
} sort_item;

typedef struct sort_acc {
    sort_item *it;
    size_t n, cap;
    int desc, oom;
} sort_acc;

/* Sift tmp down from heap position i of the max-heap of positions 1..n ordered by v
   (position p is h[p - 1]: numpy's 1-based heap, without a pointer before the array). */
static void sift_down(const double *v, int64_t *h, int64_t i, int64_t n, int64_t tmp)
{
    for (int64_t j = i << 1; j <= n;) {
        if (j < n && v[h[j - 1]] < v[h[j]]) j++;
        if (!(v[tmp] < v[h[j - 1]])) break;
        h[i - 1] = h[j - 1];
        i = j;
        j += j;
    }
    h[i - 1] = tmp;
}

/* numpy's heapsort of indices (the introsort's fallback, numpy 1.24's
   npysort/heapsort.cpp): the same heap order, so ties end where numpy puts them. */
static void aheapsort(const double *v, int64_t *tosort, int64_t n)
{
    for (int64_t l = n >> 1; l > 0; --l) sift_down(v, tosort, l, n, tosort[l - 1]);
    for (; n > 1;) {
        int64_t tmp = tosort[n - 1];
        tosort[n - 1] = tosort[0];
        n -= 1;
        sift_down(v, tosort, 1, n, tmp);
    }
}

#define SMALL_QUICKSORT 15
#define QS_STACK 128
#define ISWAP(a, b) do { int64_t t_ = (a); (a) = (b); (b) = t_; } while (0)

/* numpy's argsort kind='quicksort' (introsort: median of three, insertion sort for 16
 * elements or fewer, heapsort past the depth limit; checked against numpy 1.24 on random
 * inputs with many ties), 1.24 npysort/quicksort.cpp */
static void aquicksort(const double *v, int64_t *tosort, int64_t num)
{
    int64_t *pl = tosort, *pr = tosort + num - 1, *stack[QS_STACK], **sptr = stack;
    int64_t *pm, *pi, *pj, *pk, vi;
    int depth[QS_STACK], *psdepth = depth, cdepth = 0;
    double vp;
    for (uint64_t u = (uint64_t)num; u >>= 1;) cdepth++;
    cdepth *= 2;
    for (;;) {
        if (cdepth < 0) {
            aheapsort(v, pl, pr - pl + 1);
            goto stack_pop;
        }
        while ((pr - pl) > SMALL_QUICKSORT) {
            pm = pl + ((pr - pl) >> 1);
            if (v[*pm] < v[*pl]) ISWAP(*pm, *pl);
            if (v[*pr] < v[*pm]) ISWAP(*pr, *pm);
            if (v[*pm] < v[*pl]) ISWAP(*pm, *pl);
            vp = v[*pm];
            pi = pl;
            pj = pr - 1;
            ISWAP(*pm, *pj);
            for (;;) {
                do ++pi; while (v[*pi] < vp);
                do --pj; while (vp < v[*pj]);
                if (pi >= pj) break;
                ISWAP(*pi, *pj);
            }
            pk = pr - 1;
            ISWAP(*pi, *pk);
            if (pi - pl < pr - pi) {
                *sptr++ = pi + 1;
                *sptr++ = pr;
                pr = pi - 1;
            } else {
                *sptr++ = pl;
                *sptr++ = pi - 1;
                pl = pi + 1;
            }
            *psdepth++ = --cdepth;
        }
        for (pi = pl + 1; pi <= pr; ++pi) {
            vi = *pi;
            vp = v[vi];
            pj = pi;
            pk = pi - 1;
            while (pj > pl && vp < v[*pk]) *pj-- = *pk--;
            *pj = vi;
        }
    stack_pop:
        if (sptr == stack) break;
        pr = *(--sptr);
        pl = *(--sptr);
        cdepth = *(--psdepth);
    }
}

static void argsort_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    sort_acc *a = sqlite3_aggregate_context(ctx, sizeof *a);
    if (!a || a->oom) return;
    if (argc > 2) a->desc = sqlite3_value_int(argv[2]) != 0;
    if (a->n == a->cap) {
        size_t nc = a->cap ? a->cap * 2 : 64;
        sort_item *ni = realloc(a->it, nc * sizeof *ni);
        if (!ni) {
            a->oom = 1;
            return;
        }
        a->it = ni;
        a->cap = nc;
    }
    int t = sqlite3_value_numeric_type(argv[0]);
    sort_item *it = &a->it[a->n++];
    it->null = t != SQLITE_INTEGER && t != SQLITE_FLOAT;
    it->v = it->null ? 0.0 : sqlite3_value_double(argv[0]);
    it->ord = sqlite3_value_int64(argv[1]);
}

static int by_ord(const void *x, const void *y)
{
    const sort_item *a = x, *b = y;
    return (a->ord > b->ord) - (a->ord < b->ord);
}

static void argsort_final(sqlite3_context *ctx)
{
    sort_acc *a = sqlite3_aggregate_context(ctx, 0);
    if (!a) {
        sqlite3_result_text(ctx, "[]", -1, SQLITE_STATIC);
        return;
    }
    if (a->oom) {
        free(a->it);
        sqlite3_result_error_nomem(ctx);
        return;
    }
    /* rows in their input order (ord), as the DataFrame holds them */
    qsort(a->it, a->n, sizeof *a->it, by_ord);
    size_t n = a->n, m = 0;
    double *v = malloc((n ? n : 1) * sizeof *v);
    int64_t *idx = malloc((n ? n : 1) * sizeof *idx), *perm = malloc((n ? n : 1) * sizeof *perm);
    sqlite3_str *out = sqlite3_str_new(NULL);
    if (!v || !idx || !perm) {
        free(v), free(idx), free(perm), free(a->it);
        sqlite3_free(sqlite3_str_finish(out));
        sqlite3_result_error_nomem(ctx);
        return;
    }
    /* pandas' nargsort: the non-NaN values (reversed when descending) argsorted, mapped
     * back, reversed again when descending; NaN positions appended */
    for (size_t i = 0; i < n; i++)
        if (!a->it[i].null) idx[m++] = (int64_t)i;
    if (a->desc)
        for (size_t i = 0; i < m / 2; i++) ISWAP(idx[i], idx[m - 1 - i]);
    for (size_t i = 0; i < m; i++) {
        v[i] = a->it[idx[i]].v;
        perm[i] = (int64_t)i;
    }
    if (m > 1) aquicksort(v, perm, (int64_t)m);
    sqlite3_str_appendchar(out, 1, '[');
    size_t k = 0;
    for (size_t i = 0; i < m; i++) {
        size_t p = a->desc ? m - 1 - i : i;
        sqlite3_str_appendf(out, "%s%lld", k++ ? "," : "", (long long)a->it[idx[perm[p]]].ord);
    }
    for (size_t i = 0; i < n; i++)
        if (a->it[i].null) sqlite3_str_appendf(out, "%s%lld", k++ ? "," : "", (long long)a->it[i].ord);
    sqlite3_str_appendchar(out, 1, ']');
    free(v), free(idx), free(perm), free(a->it);
    char *s = sqlite3_str_finish(out);
    if (!s) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    sqlite3_result_text(ctx, s, -1, sqlite3_free);
}

static const tsql_fn_def numpy_fns[] = {
    {"np_round", 2, TSQL_PURE, fn_np_round, NULL, NULL},
    {"np_argsort", 2, TSQL_PURE, NULL, argsort_step, argsort_final},
    {"np_argsort", 3, TSQL_PURE, NULL, argsort_step, argsort_final},
};

const tsql_registration tsql_reg_numpy = {.what = "np_round", TSQL_FNS(numpy_fns)};
