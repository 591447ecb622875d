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
#include <string.h>

#define TSQL_MAX_DEPTH 512 /* nesting deeper than this is rejected, not recursed */

typedef struct tsql_lex {
    const char *end;       /* end of the buffer */
    int incomplete;        /* set when a token runs past end */
    const char *err;       /* static message on a syntax error */
    const char *at;        /* where the error is */
} tsql_lex;

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Bytes that may continue a JSON number token: 0-9 + - . e E (tsql_lex_number). */
extern const unsigned char tsql_num_byte[256];

/* a[0..n) == b[0..n) for a small n known at the call (member names): word loads
 * instead of a memcmp call, which the compiler does not inline for most lengths */
static inline __attribute__((always_inline)) int tsql_eq(const char *a, const char *b, size_t n)
{
    if (n >= 8) {
        uint64_t x, y, u, v;
        for (size_t i = 0; i + 8 < n; i += 8) {
            memcpy(&x, a + i, 8);
            memcpy(&y, b + i, 8);
            if (x != y) return 0;
        }
        memcpy(&u, a + n - 8, 8);
        /* cppcheck-suppress pointerOutOfBoundsCond ; callers pass n <= both lengths */
        memcpy(&v, b + n - 8, 8);
        return u == v;
    }
    if (n >= 4) {
        uint32_t x, y, u, v;
        memcpy(&x, a, 4);
        memcpy(&y, b, 4);
        memcpy(&u, a + n - 4, 4);
        /* cppcheck-suppress pointerOutOfBoundsCond ; as above */
        memcpy(&v, b + n - 4, 4);
        return x == y && u == v;
    }
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i]) return 0;
    return 1;
}

/* 1 for JSON whitespace: ' ', '\n', '\r', '\t' */
extern const unsigned char tsql_ws_byte[256];

static inline int tsql_is_ws(char c)
{
    return tsql_ws_byte[(unsigned char)c];
}

const char *tsql_skip_ws_slow(const char *p, const char *end);

static inline const char *tsql_skip_ws(const char *p, const char *end)
{
    /* the common cases inline: no space, the one after ':', and a line break with the
     * indentation of a pretty-printed trace */
    if (p < end && !tsql_is_ws(*p)) return p;
    if (end - p >= 2 && p[0] == ' ' && !tsql_is_ws(p[1])) return p + 1;
#if defined(__SSE2__)
    if (end - p >= 17 && p[0] == '\n') {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + 1));
        unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(' '))) ^ 0xFFFFu;
        if (m) {
            const char *q = p + 1 + __builtin_ctz(m);
            if (!tsql_is_ws(*q)) return q;
        }
    }
#endif
    return tsql_skip_ws_slow(p, end);
}

/* p at '"'. Returns the position after the closing quote; *has_esc = 1 if the string
 * holds a backslash escape. NULL on incomplete. */
const char *tsql_lex_string_slow(tsql_lex *lx, const char *p, int *has_esc);

static inline const char *tsql_lex_string(tsql_lex *lx, const char *p, int *has_esc)
{
#if defined(__SSE2__)
    /* member names and short values end within the first 16 bytes */
    if (lx->end - p >= 17) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + 1));
        unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(
            _mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
        if (m) {
            const char *q = p + 1 + __builtin_ctz(m);
            if (*q == '"') {
                if (has_esc) *has_esc = 0;
                return q + 1;
            }
        }
    }
#endif
    return tsql_lex_string_slow(lx, p, has_esc);
}

/* p at the first byte of a number. Returns its end; NULL (err) if it is not a number. */
const char *tsql_lex_number_slow(tsql_lex *lx, const char *p);

static inline const char *tsql_lex_number(tsql_lex *lx, const char *p)
{
    const char *q = p;
    const char *end = lx->end;
#if defined(__SSE2__)
    if (end - p >= 16) {
        /* digits (0x30-0x39, positive as signed bytes) and . - + e E */
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
        __m128i d = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)),
                                  _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
        __m128i o = _mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('.')), _mm_cmpeq_epi8(v, _mm_set1_epi8('-'))),
            _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('e')),
                                      _mm_cmpeq_epi8(v, _mm_set1_epi8('E'))),
                         _mm_cmpeq_epi8(v, _mm_set1_epi8('+'))));
        unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(d, o)) ^ 0xFFFFu;
        if (m) {
            q = p + __builtin_ctz(m);
            if (q > p) return q;
            return tsql_lex_number_slow(lx, p);
        }
        q = p + 16;
    }
#endif
    while (q < end && tsql_num_byte[(unsigned char)*q]) q++;
    if (q < end && q > p) return q;
    return tsql_lex_number_slow(lx, p);
}

/* Length of the run of ASCII digits at p (p + 16 <= end with SSE2). */
static inline unsigned tsql_digits16(const char *p)
{
#if defined(__SSE2__)
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i d = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)),
                              _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
    return (unsigned)__builtin_ctz((unsigned)_mm_movemask_epi8(d) ^ 0x1FFFFu);
#else
    unsigned n = 0;
    while (n < 16 && (unsigned)(p[n] - '0') < 10u) n++;
    return n;
#endif
}

/* Value of the n <= 18 ASCII digits at p. */
static inline uint64_t tsql_digits_value(const char *p, unsigned n)
{
    uint64_t v = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (n >= 8) {
        /* eight digits at once (SWAR): pairs, then quads, then the eight */
        uint64_t w;
        memcpy(&w, p, 8);
        w -= UINT64_C(0x3030303030303030);
        w = (w * 10) + (w >> 8);
        w = (((w & UINT64_C(0x000000FF000000FF)) * UINT64_C(0x000F424000000064)) +
             (((w >> 16) & UINT64_C(0x000000FF000000FF)) * UINT64_C(0x0000271000000001))) >> 32;
        v = w;
        p += 8;
        n -= 8;
    }
#endif
    for (unsigned i = 0; i < n; i++) v = v * 10 + (unsigned)(p[i] - '0');
    return v;
}

/* The usual spelling of a time in µs, [0-9]{1,15}(.[0-9]{1,3})? followed by a byte
 * that cannot continue a number, read into exact ns in one pass: returns its end, or
 * NULL when the text is anything else (then lex and parse it the general way). */
static inline const char *tsql_lex_us_fast(const char *p, const char *end, int64_t *ns)
{
    if (end - p < 24) return NULL;
    unsigned n = tsql_digits16(p);
    if (n == 0 || n > 15) return NULL;
    const char *q = p + n;
    unsigned frac = 0;
    if (*q == '.') {
        while (frac < 3 && (unsigned)(q[1 + frac] - '0') < 10u) frac++;
        if (!frac) return NULL;
    }
    const char *e = frac ? q + 1 + frac : q;
    if (tsql_num_byte[(unsigned char)*e]) return NULL;
    uint64_t v = tsql_digits_value(p, n);
    for (unsigned i = 0; i < frac; i++) v = v * 10 + (unsigned)(q[1 + i] - '0');
    static const int64_t scale[4] = {1000, 100, 10, 1};
    *ns = (int64_t)v * scale[frac];
    return e;
}

/* A canonical JSON integer -?(0|[1-9][0-9]{0,17}) followed by a byte that cannot
 * continue a number (as tsql_lex_number + tsql_parse_int64 would accept): returns its
 * end with *out set, or NULL for anything else. */
static inline const char *tsql_lex_int_fast(const char *p, const char *end, int64_t *out)
{
    if (end - p < 24) return NULL;
    int neg = *p == '-';
    const char *d = p + neg;
    unsigned n = tsql_digits16(d);
    if (n == 0 || n > 15 || (d[0] == '0' && n > 1) || (neg && n == 1 && d[0] == '0'))
        return NULL;
    if (tsql_num_byte[(unsigned char)d[n]]) return NULL;
    int64_t v = (int64_t)tsql_digits_value(d, n);
    *out = neg ? -v : v;
    return d + n;
}

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
