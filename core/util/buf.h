/* buf.h — a growable byte buffer (text being built: args JSON, repr text, stitched events). */
#ifndef TSQL_BUF_H
#define TSQL_BUF_H

#include <stddef.h>
#include <string.h>

typedef struct tsql_buf { char *p; size_t n, cap; } tsql_buf;

/* Makes room for extra more bytes past n. 0, or -1 on OOM (the buffer is unchanged). */
int tsql_buf_reserve(tsql_buf *b, size_t extra);

/* Appends printf(fmt, ...) to b (kept a C string). 0 or -1 on OOM or a bad format. */
int tsql_bprintf(tsql_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Appends bytes / a C string / one char to b. 0 or -1 on OOM. */
static inline int tsql_bput(tsql_buf *b, const char *s, size_t n)
{
    if (tsql_buf_reserve(b, n + 1)) return -1;
    if (n && s) memcpy(b->p + b->n, s, n); /* s is NULL only when n is 0 */
    b->n += n;
    b->p[b->n] = 0; /* keep it a C string */
    return 0;
}
static inline int tsql_bputs(tsql_buf *b, const char *s) { return tsql_bput(b, s, strlen(s)); }
static inline int tsql_bputc(tsql_buf *b, char c) { return tsql_bput(b, &c, 1); }

#endif
