/*
 * functions.c — scalar and aggregate SQL functions that need no trace.
 *
 *   busy_time(ts, dur)   aggregate: length in µs of the union of [ts, ts + dur]
 *                        (TraceLens's "busy time": touching intervals merge, all
 *                        streams pooled, t_end = ts + dur in double arithmetic)
 *   tracesql_version()   version, SQLite/cJSON/zlib versions, and the gzip inflater in use
 *                        (ISA-L's igzip with its version, or zlib alone)
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <zlib.h>
#ifdef TSQL_HAVE_ISAL
#include <isa-l.h>
#endif

#include "catalog/registration.h"
#include "util/interval.h"
#include "util/vec.h"

#ifndef TSQL_VERSION
#define TSQL_VERSION "0.1.0"
#endif

TSQL_VEC(busy_acc, tsql_iv, 64)

static void busy_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL) return;
    busy_acc *a = sqlite3_aggregate_context(ctx, sizeof *a);
    double ts = sqlite3_value_double(argv[0]);
    if (!a || busy_acc_push(a, (tsql_iv){ts, ts + sqlite3_value_double(argv[1])}))
        sqlite3_result_error_nomem(ctx);
}

static void busy_final(sqlite3_context *ctx)
{
    busy_acc *a = sqlite3_aggregate_context(ctx, 0);
    sqlite3_result_double(ctx, a ? tsql_iv_union_length(a->v, a->n) : 0.0);
    if (a) free(a->v);
}

static void fn_version(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    (void)argv;
    /* the build's gzip inflater (Makefile HAVE_ISAL): ISA-L is ~2.5x zlib's speed, so
     * a load-time comparison needs to know which one ran */
#ifdef TSQL_HAVE_ISAL
#define TSQL_GZIP_STR(x) #x
#define TSQL_GZIP_VER(a, b, c) "ISA-L " TSQL_GZIP_STR(a) "." TSQL_GZIP_STR(b) "." TSQL_GZIP_STR(c)
    const char *gzip = TSQL_GZIP_VER(ISAL_MAJOR_VERSION, ISAL_MINOR_VERSION, ISAL_PATCH_VERSION);
#else
    const char *gzip = "zlib (built without ISA-L)";
#endif
    char *s = sqlite3_mprintf("tracesql %s (sqlite %s, cJSON %s, zlib %s, gzip inflater %s)", TSQL_VERSION,
                              sqlite3_libversion(), cJSON_Version(), zlibVersion(), gzip);
    sqlite3_result_text(ctx, s, -1, sqlite3_free);
}

static const tsql_fn_def basic_fns[] = {
    {"busy_time", 2, TSQL_PURE, NULL, busy_step, busy_final},
    {"tracesql_version", 0, TSQL_PURE, fn_version, NULL, NULL},
};

const tsql_registration tsql_reg_basic = {.what = "functions", TSQL_FNS(basic_fns)};
