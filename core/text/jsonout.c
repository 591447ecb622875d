/* jsonout.c — JSON string literals and doubles; see jsonout.h. */
#include "text/jsonout.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1 for the bytes a JSON string must escape: control characters, '"' and '\\' */
static int needs_escape(unsigned char c)
{
    return c < 0x20 || c == '"' || c == '\\';
}

int tsql_json_quote(tsql_buf *b, const char *s, size_t n)
{
    if (tsql_buf_reserve(b, n * 6 + 2)) return -1;
    char *o = b->p + b->n;
    *o++ = '"';
    size_t i = 0;
    while (i < n) {
        /* copy the run of plain bytes in one go (kernel names are long and plain) */
        size_t j = i;
        while (j < n && !needs_escape((unsigned char)s[j])) j++;
        memcpy(o, s + i, j - i);
        o += j - i;
        if (j == n) break;
        unsigned char c = (unsigned char)s[j];
        if (c == '"' || c == '\\') {
            *o++ = '\\';
            *o++ = (char)c;
        } else {
            o += sprintf(o, "\\u%04x", c);
        }
        i = j + 1;
    }
    *o++ = '"';
    b->n = (size_t)(o - b->p);
    return 0;
}

int tsql_json_double(tsql_buf *b, double x)
{
    if (tsql_buf_reserve(b, 32)) return -1;
    char *o = b->p + b->n;
    if (!isfinite(x)) {
        memcpy(o, "null", 4); /* NOLINT(bugprone-not-null-terminated-result): b is length-counted */
        b->n += 4;
        return 0;
    }
    int len = 0;
    for (int prec = 15; prec <= 17; prec++) {
        len = snprintf(o, 32, "%.*g", prec, x);
        if (strtod(o, NULL) == x) break;
    }
    b->n += (size_t)len;
    return 0;
}

int tsql_json_float(tsql_buf *b, double x)
{
    size_t at = b->n;
    if (tsql_json_double(b, x)) return -1;
    for (size_t i = at; i < b->n; i++)
        if (b->p[i] == '.' || b->p[i] == 'e' || b->p[i] == 'n') return 0; /* n: null */
    if (tsql_buf_reserve(b, 2)) return -1;
    memcpy(b->p + b->n, ".0", 2);
    b->n += 2;
    return 0;
}
