/*
 * pytext.c — Python text as TraceLens prints it (core/text/pyrepr.h):
 *
 *   py_repr(json [, as_tuple])   a JSON value as Python's repr (lists as tuples with as_tuple)
 *   py_float(x)                  a float as Python's repr prints it
 *   py_to_json(repr)             a Python literal as JSON
 *
 * Pure functions. NULL arguments give NULL; a wrong type or text that does not parse
 * raises an error naming the function. Reference with examples: docs/perf-models.md.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <stdlib.h>

#include "catalog/registration.h"
#include "func/fn_args.h"
#include "text/pyrepr.h"

static void fn_py_repr(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    const char *s;
    int tup = 0;
    if (tsql_arg_text(ctx, argv, 0, "py_repr", "json", &s) <= 0) return;
    if (argc > 1 && tsql_arg_bool(ctx, argv, 1, "py_repr", "as_tuple", &tup) < 0) return;
    tsql_buf b = {0};
    const char *err = NULL;
    int rc = tsql_pyrepr_text(&b, s, (size_t)sqlite3_value_bytes(argv[0]), tup ? TSQL_PY_TUPLES : 0, &err);
    if (rc == -2) {
        free(b.p);
        tsql_result_error(ctx, "py_repr: not valid JSON (%s)", err ? err : "?");
        return;
    }
    tsql_result_buf(ctx, &b, rc == 0);
}

static void fn_py_float(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    double x;
    if (tsql_arg_num(ctx, argv, 0, "py_float", "x", &x) <= 0) return;
    char buf[TSQL_PY_FLOAT_BUFSZ];
    int n = tsql_py_float(x, buf);
    sqlite3_result_text(ctx, buf, n, SQLITE_TRANSIENT);
}

static void fn_py_to_json(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const char *s;
    if (tsql_arg_text(ctx, argv, 0, "py_to_json", "repr", &s) <= 0) return;
    tsql_buf b = {0};
    const char *err = NULL;
    int rc = tsql_py_to_json(&b, s, (size_t)sqlite3_value_bytes(argv[0]), &err);
    if (rc == -2) {
        free(b.p);
        tsql_result_error(ctx, "py_to_json: not a Python literal (%s)", err ? err : "?");
        return;
    }
    tsql_result_buf(ctx, &b, rc == 0);
}

static const tsql_fn_def pytext_fns[] = {
    {"py_repr", 1, TSQL_PURE, fn_py_repr, NULL, NULL},
    {"py_repr", 2, TSQL_PURE, fn_py_repr, NULL, NULL},
    {"py_float", 1, TSQL_PURE, fn_py_float, NULL, NULL},
    {"py_to_json", 1, TSQL_PURE, fn_py_to_json, NULL, NULL},
};

const tsql_registration tsql_reg_pytext = {.what = "Python text functions", TSQL_FNS(pytext_fns)};
