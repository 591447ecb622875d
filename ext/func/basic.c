/*
 * functions.c — scalar and aggregate SQL functions that need no trace.
 *
 *   busy_time(ts, dur)   aggregate: length in µs of the union of [ts, ts + dur]
 *                        (TraceLens's "busy time": touching intervals merge, all
 *                        streams pooled, t_end = ts + dur in double arithmetic)
 *   tracesql_version()   version, SQLite/cJSON/zlib versions
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <zlib.h>

#include "catalog/catalog.h"

#ifndef TSQL_VERSION
#define TSQL_VERSION "0.1.0"
#endif

typedef struct span { double start, end; } span;

typedef struct busy_acc {
    span *s;
    size_t n, cap;
} busy_acc;

static void busy_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL) return;
    busy_acc *a = sqlite3_aggregate_context(ctx, sizeof *a);
    if (!a) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    if (a->n == a->cap) {
        size_t nc = a->cap ? a->cap * 2 : 64;
        span *ns = sqlite3_realloc64(a->s, nc * sizeof *ns);
        if (!ns) {
            sqlite3_result_error_nomem(ctx);
            return;
        }
        a->s = ns;
        a->cap = nc;
    }
    double ts = sqlite3_value_double(argv[0]);
    a->s[a->n++] = (span){ts, ts + sqlite3_value_double(argv[1])};
}

static int cmp_span(const void *x, const void *y)
{
    const span *a = x, *b = y;
    if (a->start != b->start) return a->start < b->start ? -1 : 1;
    return (a->end > b->end) - (a->end < b->end);
}

static void busy_final(sqlite3_context *ctx)
{
    busy_acc *a = sqlite3_aggregate_context(ctx, 0);
    if (!a || !a->n) {
        sqlite3_result_double(ctx, 0.0);
        if (a) sqlite3_free(a->s);
        return;
    }
    qsort(a->s, a->n, sizeof *a->s, cmp_span);
    double total = 0, cs = a->s[0].start, ce = a->s[0].end;
    for (size_t i = 1; i < a->n; i++) {
        if (a->s[i].start <= ce) {
            if (a->s[i].end > ce) ce = a->s[i].end;
        } else {
            total += ce - cs;
            cs = a->s[i].start;
            ce = a->s[i].end;
        }
    }
    total += ce - cs;
    sqlite3_free(a->s);
    sqlite3_result_double(ctx, total);
}

static void fn_version(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    (void)argv;
    char *s = sqlite3_mprintf("tracesql %s (sqlite %s, cJSON %s, zlib %s)", TSQL_VERSION,
                              sqlite3_libversion(), cJSON_Version(), zlibVersion());
    sqlite3_result_text(ctx, s, -1, sqlite3_free);
}

int tsql_register_functions(sqlite3 *db, tsql_catalog *c)
{
    (void)c;
    int rc = sqlite3_create_function(db, "busy_time", 2,
                                     SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL,
                                     NULL, busy_step, busy_final);
    if (rc == SQLITE_OK)
        rc = sqlite3_create_function(db, "tracesql_version", 0,
                                     SQLITE_UTF8 | SQLITE_INNOCUOUS | SQLITE_DETERMINISTIC, NULL,
                                     fn_version, NULL, NULL);
    return rc;
}
