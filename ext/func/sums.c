/*
 * sums.c — aggregates that add up the way TraceLens's pandas and numpy do, so the
 * report's numbers match its digits (docs/report.md, Summation functions):
 * pd_sum(x [, order]) is pandas' groupby sum (Kahan-compensated), np_sum(x [, order])
 * numpy's sum of a column (pairwise), seq_sum(x [, order]) plain left-to-right addition;
 * pd_mean(x [, order]) and pd_std(x [, order]) pandas' groupby mean and sample std;
 * cumsum(x) a running total (numpy's cumsum) as a window function. Values are added in
 * the order of the optional second argument (ties: arrival order), else in arrival
 * order. NULLs are skipped; all-integer input gives an exact integer. The numerics are
 * core/util/sum.c's.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/registration.h"
#include "catalog/risk.h"
#include "util/sort.h"
#include "util/sum.h"
#include "util/vec.h"

/* ---------- pd_sum(x [, order]), np_sum(x [, order]) ---------- */

/* Values of one group, kept until the end so they can be added in a given order. */
typedef struct sum_ctx {
    dvec v, key;           /* key: empty without an order argument */
    int64_t isum;          /* exact sum while every value is an integer */
    int not_int, overflow;
} sum_ctx;

static void sum_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    int t = sqlite3_value_numeric_type(argv[0]);
    if (t != SQLITE_INTEGER && t != SQLITE_FLOAT) return; /* NULL (or text) is skipped */
    sum_ctx *p = sqlite3_aggregate_context(ctx, sizeof *p);
    /* keys stay aligned with values: a value is kept only once its key is */
    if (!p || (argc > 1 && dvec_push(&p->key, sqlite3_value_double(argv[1]))) ||
        dvec_push(&p->v, sqlite3_value_double(argv[0]))) {
        if (p && argc > 1 && p->key.n > p->v.n) p->key.n--;
        sqlite3_result_error_nomem(ctx);
        return;
    }
    if (t == SQLITE_INTEGER) {
        sqlite3_int64 x = sqlite3_value_int64(argv[0]);
        if (__builtin_add_overflow(p->isum, x, &p->isum)) p->overflow = 1;
    } else {
        p->not_int = 1;
    }
}

/* The group's values in the order of the order argument (ties: arrival order), or in
 * arrival order without one: p->v itself, or a malloc'd array (*owned set). NULL on
 * error (reported). */
static const double *ordered_values(sqlite3_context *ctx, sum_ctx *p, double **owned)
{
    size_t n = p->v.n;
    *owned = NULL;
    if (p->key.n != n) return p->v.v;
    if (n > UINT32_MAX) {
        sqlite3_result_error_toobig(ctx);
        return NULL;
    }
    /* rows usually arrive in order already (a GROUP BY hands each group's rows over in
     * scan order): then the order is the arrival order and nothing needs sorting; any
     * key out of order (or NaN) takes the sort */
    size_t run = 1;
    while (run < n && (p->key.v[run - 1] < p->key.v[run] || p->key.v[run - 1] == p->key.v[run])) run++;
    if (run >= n) return p->v.v;
    tsql_keyed *o = malloc(n * sizeof *o);
    double *w = malloc(n * sizeof *w);
    if (o && w) {
        for (size_t i = 0; i < n; i++) o[i] = (tsql_keyed){p->key.v[i], (uint32_t)i, (uint32_t)i};
        tsql_keyed_sort(o, n);
        for (size_t i = 0; i < n; i++) w[i] = p->v.v[o[i].v];
    } else {
        sqlite3_result_error_nomem(ctx);
        free(w);
        w = NULL;
    }
    free(o);
    return *owned = w;
}

static void sum_ctx_free(sum_ctx *p)
{
    if (!p) return;
    free(p->v.v);
    free(p->key.v);
    p->v = p->key = (dvec){0};
}

/* The sum so far (a window's value), keeping the values. */
static void sum_value(sqlite3_context *ctx, double (*add)(const double *, size_t))
{
    sum_ctx *p = sqlite3_aggregate_context(ctx, 0);
    size_t n = p ? p->v.n : 0;
    double *owned;
    const double *w;
    if (!n) {
        sqlite3_result_double(ctx, 0.0); /* pandas: the sum of nothing is 0 */
    } else if (!p->not_int && !p->overflow) {
        sqlite3_result_int64(ctx, p->isum);
    } else if ((w = ordered_values(ctx, p, &owned))) {
        sqlite3_result_double(ctx, add(w, n));
        free(owned);
    }
}

static void sum_final(sqlite3_context *ctx, double (*add)(const double *, size_t))
{
    sum_value(ctx, add);
    sum_ctx_free(sqlite3_aggregate_context(ctx, 0));
}

/* pandas' groupby mean and std (ddof 1): a compensated sum over the count, and
 * Welford's running update, both in row order; NULL where pandas gives NaN */
static void moment_final(sqlite3_context *ctx, int std)
{
    sum_ctx *p = sqlite3_aggregate_context(ctx, 0);
    size_t n = p ? p->v.n : 0;
    double *owned;
    const double *w;
    if (n >= (size_t)(std ? 2 : 1) && (w = ordered_values(ctx, p, &owned))) {
        sqlite3_result_double(ctx, std ? tsql_pd_std(w, n) : tsql_pd_mean(w, n));
        free(owned);
    }
    sum_ctx_free(p);
}

static void pd_sum_final(sqlite3_context *ctx) { sum_final(ctx, tsql_kahan_sum); }
static void np_sum_final(sqlite3_context *ctx) { sum_final(ctx, tsql_pairwise_sum); }
static void np_sum_value(sqlite3_context *ctx) { sum_value(ctx, tsql_pairwise_sum); }
static void seq_sum_final(sqlite3_context *ctx) { sum_final(ctx, tsql_seq_sum); }
static void pd_mean_final(sqlite3_context *ctx) { moment_final(ctx, 0); }
static void pd_std_final(sqlite3_context *ctx) { moment_final(ctx, 1); }

/* cumsum(x): numpy's cumsum as a window function, a plain running total in the frame's
 * order (ORDER BY ... ROWS UNBOUNDED PRECEDING); as an aggregate, the plain sum in
 * arrival order. NULLs are skipped. A frame whose start moves is refused: taking
 * values back out would not give the running total's digits. */
static void cumsum_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    int t = sqlite3_value_numeric_type(argv[0]);
    if (t != SQLITE_INTEGER && t != SQLITE_FLOAT) return;
    double *sum = sqlite3_aggregate_context(ctx, sizeof *sum);
    if (!sum) sqlite3_result_error_nomem(ctx);
    else *sum += sqlite3_value_double(argv[0]);
}

static void cumsum_value(sqlite3_context *ctx)
{
    double *sum = sqlite3_aggregate_context(ctx, 0);
    sqlite3_result_double(ctx, sum ? *sum : 0.0);
}

/* xInverse of the order-keeping sums: a frame whose start moves would need values taken
 * back out, which does not give the same digits */
static void frame_refused(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    (void)argv;
    sqlite3_result_error(ctx, "the window frame must start at UNBOUNDED PRECEDING", -1);
}

static int register_sums(sqlite3 *db, tsql_catalog *c)
{
    (void)c;
    int rc = SQLITE_OK;
    const int pure = tsql_fn_flags(TSQL_PURE);
    for (int nargs = 1; nargs <= 2 && rc == SQLITE_OK; nargs++) {
        rc = sqlite3_create_function(db, "pd_sum", nargs, pure, NULL, NULL, sum_step, pd_sum_final);
        if (rc == SQLITE_OK)
            /* also a window function: the total of a whole partition in the window's order */
            rc = sqlite3_create_window_function(db, "np_sum", nargs, pure, NULL, sum_step, np_sum_final,
                                                np_sum_value, frame_refused, NULL);
        if (rc == SQLITE_OK)
            rc = sqlite3_create_function(db, "seq_sum", nargs, pure, NULL, NULL, sum_step, seq_sum_final);
        if (rc == SQLITE_OK)
            rc = sqlite3_create_function(db, "pd_mean", nargs, pure, NULL, NULL, sum_step, pd_mean_final);
        if (rc == SQLITE_OK)
            rc = sqlite3_create_function(db, "pd_std", nargs, pure, NULL, NULL, sum_step, pd_std_final);
    }
    if (rc == SQLITE_OK)
        rc = sqlite3_create_window_function(db, "cumsum", 1, pure, NULL, cumsum_step, cumsum_value,
                                            cumsum_value, frame_refused, NULL);
    return rc;
}

const tsql_registration tsql_reg_sums = {.what = "summation functions", .add = register_sums};
