/*
 * jsonlex.h — the small JSON lexing steps the event reader is built from.
 *
 * All functions work on a contiguous buffer [p, end). The reader hands them one chunk
 * (or a stitched copy of an event that crossed a chunk boundary), so "ran off the end"
 * is not an error here but a request for more text: functions return NULL and set
 * lx->incomplete. A real syntax error sets lx->err (a static message) and lx->at.
 */
#ifndef TSQL_JSONLEX_H
#define TSQL_JSONLEX_H

#include <stddef.h>
#include <stdint.h>

#define TSQL_MAX_DEPTH 512 /* nesting deeper than this is rejected, not recursed */

typedef struct tsql_lex {
    const char *end;       /* end of the buffer */
    int incomplete;        /* set when a token runs past end */
    const char *err;       /* static message on a syntax error */
    const char *at;        /* where the error is */
} tsql_lex;

static inline const char *tsql_skip_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')) p++;
    return p;
}

/* p at '"'. Returns the position after the closing quote; *has_esc = 1 if the string
 * holds a backslash escape. NULL on incomplete. */
const char *tsql_lex_string(tsql_lex *lx, const char *p, int *has_esc);

/* p at the first byte of a number. Returns its end; NULL (err) if it is not a number. */
const char *tsql_lex_number(tsql_lex *lx, const char *p);

/* Skips any JSON value starting at p. Returns its end or NULL (incomplete or err). */
const char *tsql_lex_skip_value(tsql_lex *lx, const char *p);

/* Appends the value at p with insignificant whitespace removed to *out (growing it with
 * realloc). Returns the end of the value or NULL. */
struct tsql_buf;
const char *tsql_lex_copy_compact(tsql_lex *lx, const char *p, struct tsql_buf *out);

/* Decodes the JSON string s[0..n) (without quotes, with escapes) into out as UTF-8.
 * Invalid escapes are copied through. Returns 0, or -1 on OOM. */
int tsql_unescape(const char *s, size_t n, struct tsql_buf *out);

/* Parses a JSON number text as microseconds into exact integer nanoseconds.
 * Returns 0 on success (*inexact = 1 when digits below 1 ns were rounded away),
 * -1 if it is not a number or does not fit in int64 ns. */
int tsql_parse_us_to_ns(const char *s, size_t n, int64_t *ns, int *inexact);

/* Parses a canonical JSON integer (-?(0|[1-9][0-9]*), fits int64). Returns 0 or -1. */
int tsql_parse_int64(const char *s, size_t n, int64_t *out);

/* Parses any JSON number text to the double Python's float() would give. */
double tsql_parse_double(const char *s, size_t n);

#endif
