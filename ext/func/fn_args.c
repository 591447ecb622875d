/*
 * fn_args.c — the argument checks and results the SQL functions of ext/func/ share;
 * see fn_args.h.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>

#include "func/fn_args.h"

/* A numeric argument. Returns 1 with *out set, 0 for NULL (the caller returns NULL), -1
 * after reporting an error. Text is accepted when it reads entirely as a number. */
int tsql_arg_num(sqlite3_context *ctx, sqlite3_value **argv, int i, const char *fn, const char *what,
                   double *out)
{
    sqlite3_value *v = argv[i];
    int t = sqlite3_value_type(v);
    if (t == SQLITE_NULL) return 0;
    if (t == SQLITE_TEXT) t = sqlite3_value_numeric_type(v);
    if (t != SQLITE_INTEGER && t != SQLITE_FLOAT) {
        char *m = sqlite3_mprintf("%s: %s must be a number", fn, what);
        sqlite3_result_error(ctx, m, -1);
        sqlite3_free(m);
        return -1;
    }
    *out = sqlite3_value_double(v);
    return 1;
}

/* An integer argument (a REAL with an integral value is accepted). */
int tsql_arg_int(sqlite3_context *ctx, sqlite3_value **argv, int i, const char *fn, const char *what,
                   int64_t *out)
{
    sqlite3_value *v = argv[i];
    int t = sqlite3_value_type(v);
    if (t == SQLITE_NULL) return 0;
    if (t == SQLITE_TEXT) t = sqlite3_value_numeric_type(v);
    if (t == SQLITE_INTEGER) {
        *out = sqlite3_value_int64(v);
        return 1;
    }
    if (t == SQLITE_FLOAT) {
        double d = sqlite3_value_double(v);
        if (d == floor(d) && fabs(d) < 9.2e18) {
            *out = (int64_t)d;
            return 1;
        }
    }
    char *m = sqlite3_mprintf("%s: %s must be an integer", fn, what);
    sqlite3_result_error(ctx, m, -1);
    sqlite3_free(m);
    return -1;
}

/* A boolean argument: integers (0 = false) or the text 'true'/'false'. */
int tsql_arg_bool(sqlite3_context *ctx, sqlite3_value **argv, int i, const char *fn, const char *what, int *out)
{
    sqlite3_value *v = argv[i];
    int t = sqlite3_value_type(v);
    if (t == SQLITE_NULL) return 0;
    if (t == SQLITE_TEXT) {
        const char *s = (const char *)sqlite3_value_text(v);
        if (sqlite3_stricmp(s, "true") == 0) return *out = 1, 1;
        if (sqlite3_stricmp(s, "false") == 0) return *out = 0, 1;
        t = sqlite3_value_numeric_type(v);
    }
    if (t == SQLITE_INTEGER || t == SQLITE_FLOAT) {
        *out = sqlite3_value_double(v) != 0;
        return 1;
    }
    char *m = sqlite3_mprintf("%s: %s must be a boolean (0/1, true/false)", fn, what);
    sqlite3_result_error(ctx, m, -1);
    sqlite3_free(m);
    return -1;
}

/* A text argument; returns 1 with *out, 0 for NULL, -1 after an error for a BLOB. */
int tsql_arg_text(sqlite3_context *ctx, sqlite3_value **argv, int i, const char *fn, const char *what,
                    const char **out)
{
    sqlite3_value *v = argv[i];
    int t = sqlite3_value_type(v);
    if (t == SQLITE_NULL) return 0;
    if (t == SQLITE_BLOB) {
        char *m = sqlite3_mprintf("%s: %s must be text", fn, what);
        sqlite3_result_error(ctx, m, -1);
        sqlite3_free(m);
        return -1;
    }
    *out = (const char *)sqlite3_value_text(v);
    if (!*out) {
        sqlite3_result_error_nomem(ctx);
        return -1;
    }
    return 1;
}

void tsql_result_error(sqlite3_context *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *m = sqlite3_vmprintf(fmt, ap);
    va_end(ap);
    sqlite3_result_error(ctx, m ? m : "out of memory", -1);
    sqlite3_free(m);
}

/* Hands a tsql_buf's text to SQLite (copied) and frees it. */
void tsql_result_buf(sqlite3_context *ctx, tsql_buf *b, int ok)
{
    if (!ok) sqlite3_result_error_nomem(ctx);
    else sqlite3_result_text(ctx, b->p ? b->p : "", (int)b->n, SQLITE_TRANSIENT);
    free(b->p);
}
