/*
 * fn_args.h — the argument checks and results the SQL functions of ext/func/ share.
 *
 * An argument check returns 1 with *out set, 0 for NULL (the caller returns NULL), or
 * -1 after it has set an error that names the function (fn) and the argument (what).
 */
#ifndef TSQL_FN_ARGS_H
#define TSQL_FN_ARGS_H

#include <sqlite3ext.h>
#include <stdint.h>

#include "util/buf.h"

/* A number; text is accepted when it reads entirely as a number. */
int tsql_arg_num(sqlite3_context *ctx, sqlite3_value **argv, int i, const char *fn, const char *what,
                 double *out);
/* An integer (a REAL with an integral value is accepted). */
int tsql_arg_int(sqlite3_context *ctx, sqlite3_value **argv, int i, const char *fn, const char *what,
                 int64_t *out);
/* A boolean: integers (0 = false) or the text 'true'/'false'. */
int tsql_arg_bool(sqlite3_context *ctx, sqlite3_value **argv, int i, const char *fn, const char *what,
                  int *out);
/* Text; a BLOB is an error. */
int tsql_arg_text(sqlite3_context *ctx, sqlite3_value **argv, int i, const char *fn, const char *what,
                  const char **out);

/* An error message from a format (sqlite3_mprintf's). */
void tsql_result_error(sqlite3_context *ctx, const char *fmt, ...);
/* Hands a tsql_buf's text to SQLite (copied) and frees it; ok = 0: out of memory. */
void tsql_result_buf(sqlite3_context *ctx, tsql_buf *b, int ok);

#endif
