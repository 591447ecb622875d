/* buf.c — the growable byte buffer used by the reader and the args expander. */
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
