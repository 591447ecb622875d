/*
 * python_frame.c — python_frame_at(trace, uid [, time]): the uid of the innermost Python
 * frame (python_function event) running on event uid's thread at time (µs; default: the
 * event's own ts), or NULL (core/analysis/python_frame.c; reference: docs/functions.md).
 * The trace must be open already (an id, label or path of an open trace).
 *
 *   SELECT e.name FROM events('run.json') e
 *   WHERE e.uid = python_frame_at('run.json', 1234);
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include "analysis/python_frame.h"
#include "catalog/registration.h"

static void fn_python_frame_at(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    tsql_catalog *c = sqlite3_user_data(ctx);
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL) return;
    if (argc > 2 && sqlite3_value_type(argv[2]) == SQLITE_NULL) return;
    if (sqlite3_value_numeric_type(argv[1]) != SQLITE_INTEGER) {
        sqlite3_result_error(ctx, "python_frame_at: uid must be an integer (an event's uid)", -1);
        return;
    }
    char *zErr = NULL;
    /* only a trace already open: a view someone else wrote must not make us read files */
    tsql_entry *e = tsql_catalog_resolve(c, argv[0], 0, &zErr);
    if (!e) {
        sqlite3_result_error(ctx, zErr ? zErr : "python_frame_at: no such trace", -1);
        sqlite3_free(zErr);
        return;
    }
    tsql_trace *t = e->trace;
    sqlite3_int64 uid = sqlite3_value_int64(argv[1]);
    if (uid < 0 || uid >= (sqlite3_int64)t->n) {
        char *msg = sqlite3_mprintf("python_frame_at: no event with uid %lld in trace %lld (uids are 0..%u)",
                                    (long long)uid, (long long)e->id, t->n ? t->n - 1 : 0);
        sqlite3_result_error(ctx, msg ? msg : "python_frame_at: no such event", -1);
        sqlite3_free(msg);
        tsql_entry_unref(e);
        return;
    }
    uint32_t u = (uint32_t)uid;
    const tsql_pyframes *f = tsql_pyframes_get(t);
    if (!f) {
        sqlite3_result_error_nomem(ctx);
    } else if (argc > 2 || t->ts_ns[u] != TSQL_NULL) {
        double time = argc > 2 ? sqlite3_value_double(argv[2]) : tsql_trace_ts_us(t, u);
        uint32_t p = tsql_pyframe_at(f, t, u, time);
        if (p != TSQL_NONE) sqlite3_result_int64(ctx, p);
    }
    tsql_entry_unref(e);
}

/* it never opens a file, but it shows the content of the traces open on the
 * connection (by path too): a schema may call it only while trusted_schema is ON */
static const tsql_fn_def python_frame_fns[] = {
    {"python_frame_at", 2, TSQL_TRUSTED, fn_python_frame_at, NULL, NULL},
    {"python_frame_at", 3, TSQL_TRUSTED, fn_python_frame_at, NULL, NULL},
};

const tsql_registration tsql_reg_python_frame = {.what = "python_frame_at", TSQL_FNS(python_frame_fns)};
