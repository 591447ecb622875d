/*
 * jsonout.h — writing JSON text: string literals and doubles (shortest round-trip
 * form, what Python's repr prints). Used wherever tracesql builds JSON values.
 */
#ifndef TSQL_JSONOUT_H
#define TSQL_JSONOUT_H

#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"

/* Appends s[0..n) as a JSON string literal. 0, or -1 on OOM. */
int tsql_json_quote(tsql_buf *b, const char *s, size_t n);
/* Appends x in its shortest round-trip form; null for NaN and infinities. */
int tsql_json_double(tsql_buf *b, double x);
/* The same, but an integral value keeps a ".0" (4.0, not 4): JSON readers that keep int
 * and float apart (Python's) then read a float, as the value was. */
int tsql_json_float(tsql_buf *b, double x);

/* The JSON object writer: members as "key":value, no spaces (the form SQLite's JSON
 * functions print). tsql_json_key writes the separator (none before the first member:
 * *first starts at 1 for each object), the quoted key and ':'; the value follows. */
int tsql_json_key(tsql_buf *b, int *first, const char *key);
/* Appends s as a JSON string, null for NULL. */
int tsql_json_text(tsql_buf *b, const char *s);
/* Appends v in decimal (no snprintf: these are written per kernel of large lists). */
int tsql_json_i64(tsql_buf *b, int64_t v);

#endif
