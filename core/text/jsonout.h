/*
 * jsonout.h — writing JSON text: string literals and doubles (shortest round-trip
 * form, what Python's repr prints). Used wherever tracesql builds JSON values.
 */
#ifndef TSQL_JSONOUT_H
#define TSQL_JSONOUT_H

#include <stddef.h>

#include "util/buf.h"

/* Appends s[0..n) as a JSON string literal. 0, or -1 on OOM. */
int tsql_json_quote(tsql_buf *b, const char *s, size_t n);
/* Appends x in its shortest round-trip form; null for NaN and infinities. */
int tsql_json_double(tsql_buf *b, double x);
/* The same, but an integral value keeps a ".0" (4.0, not 4): JSON readers that keep int
 * and float apart (Python's) then read a float, as the value was. */
int tsql_json_float(tsql_buf *b, double x);

#endif
