/* buf.h — a growable byte buffer (text being built: args JSON, repr text, stitched events). */
#ifndef TSQL_BUF_H
#define TSQL_BUF_H

#include <stddef.h>

typedef struct tsql_buf { char *p; size_t n, cap; } tsql_buf;

/* Makes room for extra more bytes past n. 0, or -1 on OOM (the buffer is unchanged). */
int tsql_buf_reserve(tsql_buf *b, size_t extra);

#endif
