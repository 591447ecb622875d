/*
 * reader_part.c — the pieces' shared steps (reader_part.h): guessing an element start
 * of traceEvents, and joining the top-level members read by the first and last piece.
 */
#include "input/reader_part.h"

#include <stdlib.h>
#include <string.h>

static int is_ws(unsigned char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* 1 if the member name at p (after '"', n bytes available) is one an event usually
 * starts with. */
static int event_key(const unsigned char *p, size_t n)
{
    static const char *const keys[] = {"ph", "cat", "name", "pid", "tid", "ts", "dur",
                                       "id", "args", "s", "bp", "tts", "sf", "stack"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        size_t k = strlen(keys[i]);
        if (k + 1 <= n && !memcmp(p, keys[i], k) && p[k] == '"') return 1;
    }
    return 0;
}

int64_t tsql_find_bound_in(const unsigned char *w, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (w[i] != '}') continue;
        size_t j = i + 1;
        while (j < n && is_ws(w[j])) j++;
        if (j >= n || w[j] != ',') continue;
        j++;
        while (j < n && is_ws(w[j])) j++;
        if (j >= n || w[j] != '{') continue;
        size_t b = j++;
        while (j < n && is_ws(w[j])) j++;
        if (j >= n || w[j] != '"' || !event_key(w + j + 1, n - j - 1)) continue;
        return (int64_t)b;
    }
    return -1;
}

int tsql_join_meta(tsql_buf *meta, tsql_buf *first, tsql_buf *last)
{
    *meta = *first;
    *first = (tsql_buf){0};
    if (!last || !last->n) return 0;
    if (!meta->n) {
        free(meta->p);
        *meta = *last;
        *last = (tsql_buf){0};
        return 0;
    }
    if (tsql_buf_reserve(meta, last->n)) return -1;
    meta->p[meta->n++] = ',';
    memcpy(meta->p + meta->n, last->p + 1, last->n - 1); /* without its '{' */
    meta->n += last->n - 1;
    return 0;
}
