/*
 * pyrepr.h — Python repr() text of values, the way TraceLens's tables print them
 * (docs/perf-models.md, Python repr text): None/True/False, ints, floats as Python's shortest
 * round-trip repr, single- or double-quoted strings with Python's escapes, lists,
 * tuples ("(1,)", "()") and dicts.
 *
 * JSON values come in two ways:
 *   - as JSON text (tsql_pyrepr_text): numbers keep their spelling's kind, so "1" is
 *     the int 1 and "1.0" the float 1.0 (json.loads semantics); integers of any size;
 *   - as a parsed cJSON tree (tsql_pyrepr_json): cJSON keeps only a double, so a
 *     number with an integral value below 2^53 in magnitude prints as an int and any
 *     other number as a float.
 * With TSQL_PY_TUPLES every JSON array becomes a tuple, recursively (TraceLens's
 * list→tuple conversion of argument columns); otherwise arrays print as lists.
 * JSON objects print as dicts in member order.
 *
 * All functions append to a growable tsql_buf and return 0, or -1 on OOM (the buffer
 * keeps what was appended so far).
 */
#ifndef TSQL_PYREPR_H
#define TSQL_PYREPR_H

#include <stddef.h>
#include <string.h>

#include "util/buf.h"

struct cJSON;

enum { TSQL_PY_TUPLES = 1 }; /* arrays → tuples, recursively */

/* Room for any tsql_py_float() result, with its NUL. */
#define TSQL_PY_FLOAT_BUFSZ 32

/* Python repr(float(x)): "0.125", "1e-05", "51.581550592", "100.0", "1e+16", "nan",
 * "inf", "-inf", "-0.0". Writes a NUL-terminated string to buf (at least
 * TSQL_PY_FLOAT_BUFSZ bytes) and returns its length. Independent of LC_NUMERIC. */
int tsql_py_float(double x, char *buf);

/* Appends repr(float(x)) / str(int). */
int tsql_py_put_float(tsql_buf *b, double x);
int tsql_py_put_int(tsql_buf *b, long long v);

/* Appends repr(s) for the UTF-8 string s[0..n): quoted, Python's escapes. */
int tsql_py_put_str(tsql_buf *b, const char *s, size_t n);

/* Appends repr of a parsed JSON value (see above for numbers). */
int tsql_pyrepr_json(tsql_buf *b, const struct cJSON *v, int flags);

/* Appends repr of the JSON text json[0..n). Returns 0, -1 on OOM, -2 if the text is
 * not one valid JSON value (*err, if given, gets a static message). */
int tsql_pyrepr_text(tsql_buf *b, const char *json, size_t n, int flags, const char **err);

/* Converts the repr text of a Python literal (None, True, False, ints, floats incl. nan
 * and inf, quoted strings, tuples, lists, dicts with string keys) into JSON: tuples
 * become arrays, None null, nan/inf null. Returns 0, -1 on OOM, -2 if the text is not
 * such a literal (*err gets a static message). */
int tsql_py_to_json(tsql_buf *b, const char *repr, size_t n, const char **err);

#endif
