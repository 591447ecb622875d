/*
 * np_round.c — np_round(x, decimals): numpy's round of a float (what Python's round()
 * does to a numpy float, and pandas' Series.round): x × 10^decimals rounded to the
 * nearest integer, ties to even, then divided by 10^decimals. It differs from SQLite's
 * round() (ties away from zero, decimal digits) in the last digit of halfway values;
 * straggler_summary rounds with it (sql/collectives/54_nccl_implicit_sync.sql).
 *
 *   SELECT np_round(0.25, 1);   -- 0.2
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <math.h>

#include "catalog/catalog.h"

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

int tsql_register_np_round(sqlite3 *db, tsql_catalog *c)
{
    (void)c;
    return sqlite3_create_function(db, "np_round", 2,
                                   SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL,
                                   fn_np_round, NULL, NULL);
}
