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

#endif
