/* buf.c — the growable byte buffer used by the reader and the args expander. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/buf.h"

int tsql_buf_reserve(tsql_buf *b, size_t extra)
{
    if (b->n + extra <= b->cap) return 0;
    size_t nc = b->cap ? b->cap : 256;
    while (nc < b->n + extra) nc *= 2;
    char *p = realloc(b->p, nc);
    if (!p) return -1;
    b->p = p;
    b->cap = nc;
    return 0;
}

int tsql_bprintf(tsql_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || tsql_buf_reserve(b, (size_t)n + 1)) return -1;
    va_start(ap, fmt);
    vsnprintf(b->p + b->n, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->n += (size_t)n;
    return 0;
}
