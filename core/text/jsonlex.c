/* jsonlex.c — JSON lexing steps over one contiguous buffer; see jsonlex.h. */
#include "text/jsonlex.h"

#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"

/* Bytes of w equal to c have their high bit set in the result (SWAR). */
static inline uint64_t has_byte(uint64_t w, uint64_t c)
{
    uint64_t x = w ^ (c * 0x0101010101010101ull);
    return (x - 0x0101010101010101ull) & ~x & 0x8080808080808080ull;
}

const unsigned char tsql_ws_byte[256] = {[' '] = 1, ['\n'] = 1, ['\r'] = 1, ['\t'] = 1};

const unsigned char tsql_num_byte[256] = {
    ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1,
    ['7'] = 1, ['8'] = 1, ['9'] = 1, ['-'] = 1, ['+'] = 1, ['.'] = 1, ['e'] = 1, ['E'] = 1,
};

const char *tsql_skip_ws_slow(const char *p, const char *end)
{
#if defined(__SSE2__)
    /* indentation of pretty-printed traces: 16 bytes at a time */
    while (end - p >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
        __m128i w = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')),
                                              _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))),
                                 _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\r')),
                                              _mm_cmpeq_epi8(v, _mm_set1_epi8('\t'))));
        unsigned m = (unsigned)_mm_movemask_epi8(w) ^ 0xFFFFu;
        if (m) return p + __builtin_ctz(m);
        p += 16;
    }
#endif
    while (p < end && tsql_is_ws(*p)) p++;
    return p;
}

const char *tsql_lex_string_slow(tsql_lex *lx, const char *p, int *has_esc)
{
    const char *s = p + 1;
    const char *end = lx->end;
    int esc = 0;
    for (;;) {
#if defined(__SSE2__)
        while (end - s >= 16) {
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)s);
            unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(
                _mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
            if (m) {
                s += __builtin_ctz(m);
                goto found;
            }
            s += 16;
        }
#endif
        /* find the next '"' or '\\' eight bytes at a time */
        while (end - s >= 8) {
            uint64_t w;
            memcpy(&w, s, 8);
            uint64_t m = has_byte(w, '"') | has_byte(w, '\\');
            if (m) {
                s += __builtin_ctzll(m) >> 3;
                goto found;
            }
            s += 8;
        }
        while (s < end && *s != '"' && *s != '\\') s++;
        if (s >= end) {
            lx->incomplete = 1;
            return NULL;
        }
    found:
        if (*s == '"') {
            if (has_esc) *has_esc = esc;
            return s + 1;
        }
        /* backslash: skip it and the escaped byte */
        esc = 1;
        s += 2;
        if (s > end) {
            lx->incomplete = 1;
            return NULL;
        }
    }
}

const char *tsql_lex_number_slow(tsql_lex *lx, const char *p)
{
    const char *q = p;
    while (q < lx->end) {
        char c = *q;
        if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E')
            q++;
        else
            break;
    }
    if (q == lx->end) {
        lx->incomplete = 1;
        return NULL;
    }
    if (q == p) {
        lx->err = "expected a JSON value";
        lx->at = p;
        return NULL;
    }
    return q;
}

/* Matches a literal (true/false/null, and NaN/Infinity which Python's json accepts). */
static const char *lex_literal(tsql_lex *lx, const char *p)
{
    static const char *const lits[] = {"true", "false", "null", "NaN", "Infinity", "-Infinity"};
    for (size_t i = 0; i < sizeof lits / sizeof *lits; i++) {
        size_t n = strlen(lits[i]);
        size_t avail = (size_t)(lx->end - p);
        size_t k = avail < n ? avail : n;
        if (memcmp(p, lits[i], k) != 0) continue;
        if (avail < n) {
            lx->incomplete = 1;
            return NULL;
        }
        return p + n;
    }
    lx->err = "expected a JSON value";
    lx->at = p;
    return NULL;
}

/* tsql_buf_reserve's test inline: the buffer is almost always big enough. */
static inline int buf_need(tsql_buf *b, size_t extra)
{
    return b->n + extra <= b->cap ? 0 : tsql_buf_reserve(b, extra);
}

/* Shared walker of skip_value and copy_compact: out == NULL only skips. */
static const char *walk_value(tsql_lex *lx, const char *p, tsql_buf *out)
{
    unsigned char stack[TSQL_MAX_DEPTH]; /* expected closer per open container */
    int depth = 0;
    int want_value = 1;     /* next token must be a value */
    const char *end = lx->end;
    for (;;) {
        p = tsql_skip_ws(p, end);
        if (p >= end) {
            lx->incomplete = 1;
            return NULL;
        }
        const char *tok = p;
        char c = *p;
        if (c == '"') {
            p = tsql_lex_string(lx, p, NULL);
            if (!p) return NULL;
            want_value = 0;
        } else if (c == '{' || c == '[') {
            if (depth == TSQL_MAX_DEPTH) {
                lx->err = "nesting deeper than 512 levels";
                lx->at = p;
                return NULL;
            }
            stack[depth++] = (unsigned char)(c == '{' ? '}' : ']');
            p++;
            want_value = 1;
            /* allow an empty container */
            const char *q = tsql_skip_ws(p, end);
            if (q >= end) {
                lx->incomplete = 1;
                return NULL;
            }
            if ((unsigned char)*q == stack[depth - 1]) {
                if (out) {
                    if (buf_need(out, 2)) goto oom;
                    out->p[out->n++] = c;
                }
                tok = q;
                p = q + 1;
                depth--;
                want_value = 0;
            }
        } else if (c == '}' || c == ']') {
            if (!depth || stack[depth - 1] != (unsigned char)c || want_value) {
                lx->err = "unbalanced brackets or trailing comma";
                lx->at = p;
                return NULL;
            }
            depth--;
            p++;
        } else if (c == ',' || c == ':') {
            if (!depth || want_value) {
                lx->err = "unexpected separator";
                lx->at = p;
                return NULL;
            }
            p++;
            want_value = 1;
        } else if ((c >= '0' && c <= '9') || c == '-') {
            if (c == '-' && end - p > 1 && p[1] == 'I')
                p = lex_literal(lx, p);
            else
                p = tsql_lex_number(lx, p);
            if (!p) return NULL;
            want_value = 0;
        } else {
            p = lex_literal(lx, p);
            if (!p) return NULL;
            want_value = 0;
        }
        if (out) {
            size_t n = (size_t)(p - tok);
            if (buf_need(out, n)) goto oom;
            if (n == 1) out->p[out->n] = *tok; /* brackets and separators: no call */
            else memcpy(out->p + out->n, tok, n);
            out->n += n;
        }
        if (!depth && !want_value) return p;
    }
oom:
    lx->err = "out of memory";
    lx->at = p;
    return NULL;
}

const char *tsql_lex_skip_value(tsql_lex *lx, const char *p)
{
    return walk_value(lx, p, NULL);
}

const char *tsql_lex_copy_compact(tsql_lex *lx, const char *p, tsql_buf *out)
{
    return walk_value(lx, p, out);
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Appends code point cp as UTF-8 (surrogates become U+FFFD). */
static void put_utf8(tsql_buf *o, unsigned cp)
{
    if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD;
    if (cp < 0x80) {
        o->p[o->n++] = (char)cp;
    } else if (cp < 0x800) {
        o->p[o->n++] = (char)(0xC0 | (cp >> 6));
        o->p[o->n++] = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        o->p[o->n++] = (char)(0xE0 | (cp >> 12));
        o->p[o->n++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o->p[o->n++] = (char)(0x80 | (cp & 0x3F));
    } else {
        o->p[o->n++] = (char)(0xF0 | (cp >> 18));
        o->p[o->n++] = (char)(0x80 | ((cp >> 12) & 0x3F));
        o->p[o->n++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o->p[o->n++] = (char)(0x80 | (cp & 0x3F));
    }
}

/* Reads \uXXXX at s[i..]; returns the code unit or -1. */
static long read_u4(const char *s, size_t n, size_t i)
{
    if (i + 6 > n || s[i] != '\\' || s[i + 1] != 'u') return -1;
    long v = 0;
    for (size_t k = 2; k < 6; k++) {
        int h = hexval(s[i + k]);
        if (h < 0) return -1;
        v = v * 16 + h;
    }
    return v;
}

int tsql_unescape(const char *s, size_t n, tsql_buf *out)
{
    if (tsql_buf_reserve(out, n + 1)) return -1; /* decoding never grows the text */
    for (size_t i = 0; i < n;) {
        char c = s[i];
        if (c != '\\' || i + 1 >= n) {
            out->p[out->n++] = c;
            i++;
            continue;
        }
        char e = s[i + 1];
        const char *simple = strchr("\"\\/bfnrt", e);
        if (simple && e) {
            static const char map[] = "\"\\/\b\f\n\r\t";
            out->p[out->n++] = map[simple - "\"\\/bfnrt"];
            i += 2;
            continue;
        }
        long u = read_u4(s, n, i);
        if (u < 0) { /* invalid escape: keep the text */
            out->p[out->n++] = c;
            i++;
            continue;
        }
        i += 6;
        unsigned cp = (unsigned)u;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            long lo = read_u4(s, n, i);
            if (lo >= 0xDC00 && lo <= 0xDFFF) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + ((unsigned)lo - 0xDC00);
                i += 6;
            }
        }
        put_utf8(out, cp); /* at most 4 bytes from at least 6 input bytes */
    }
    out->p[out->n] = 0;
    return 0;
}

int tsql_parse_int64(const char *s, size_t n, int64_t *out)
{
    size_t i = 0;
    int neg = 0;
    if (i < n && s[i] == '-') {
        neg = 1;
        i++;
    }
    if (i >= n || n - i > 19) return -1;
    if (s[i] == '0' && n - i > 1) return -1;
    if (neg && n - i == 1 && s[i] == '0') return -1; /* "-0" would not print back */
    uint64_t v = 0;
    for (; i < n; i++) {
        unsigned d = (unsigned)(s[i] - '0');
        if (d > 9) return -1;
        v = v * 10 + d;
    }
    if (neg) {
        if (v > (uint64_t)INT64_MAX + 1) return -1;
        *out = (int64_t)(0 - v);
    } else {
        if (v > (uint64_t)INT64_MAX) return -1;
        *out = (int64_t)v;
    }
    return 0;
}

int tsql_parse_us_to_ns(const char *s, size_t n, int64_t *ns, int *inexact)
{
    size_t i = 0;
    int neg = 0;
    if (i < n && (s[i] == '-' || s[i] == '+')) {
        neg = s[i] == '-';
        i++;
    }
    uint64_t mant = 0;   /* significant digits kept */
    int ndig = 0;        /* digits in mant */
    int exp10 = 0;       /* value = mant * 10^exp10 µs */
    int lost = 0;        /* non-zero digits dropped */
    int any = 0;
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
        any = 1;
        if (ndig < 19) {
            mant = mant * 10 + (unsigned)(s[i] - '0');
            if (mant) ndig++;
        } else {
            exp10++;
            if (s[i] != '0') lost = 1;
        }
    }
    if (i < n && s[i] == '.') {
        i++;
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
            any = 1;
            if (ndig < 19) {
                mant = mant * 10 + (unsigned)(s[i] - '0');
                if (mant) ndig++;
                exp10--;
            } else if (s[i] != '0') {
                lost = 1;
            }
        }
    }
    if (!any) return -1;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        int eneg = 0;
        if (i < n && (s[i] == '-' || s[i] == '+')) {
            eneg = s[i] == '-';
            i++;
        }
        int e = 0, edig = 0;
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, edig++)
            if (e < 10000) e = e * 10 + (s[i] - '0');
        if (!edig) return -1;
        exp10 += eneg ? -e : e;
    }
    if (i != n) return -1;
    int shift = exp10 + 3; /* to nanoseconds */
    uint64_t v = mant;
    if (mant == 0) {
        v = 0;
    } else if (shift >= 0) {
        for (int k = 0; k < shift; k++) {
            if (v > UINT64_MAX / 10) return -1;
            v *= 10;
        }
    } else {
        uint64_t rem_nonzero = 0, half = 0;
        for (int k = 0; k < -shift; k++) {
            if (v == 0) break;
            unsigned d = (unsigned)(v % 10);
            v /= 10;
            if (k == -shift - 1) half = d >= 5; else rem_nonzero |= d;
            if (k < -shift - 1 && d) rem_nonzero = 1;
            if (d) lost = 1;
        }
        (void)rem_nonzero;
        if (half) v++; /* round half away from zero */
    }
    if (v > (uint64_t)INT64_MAX) return -1;
    *ns = neg ? -(int64_t)v : (int64_t)v;
    *inexact = lost;
    return 0;
}

double tsql_parse_double(const char *s, size_t n)
{
    char tmp[64];
    if (n >= sizeof tmp) n = sizeof tmp - 1;
    memcpy(tmp, s, n);
    tmp[n] = 0;
    /* strtod follows LC_NUMERIC; JSON always uses '.', so translate if needed */
    const char *dp = localeconv()->decimal_point;
    if (dp && dp[0] && dp[0] != '.' && !dp[1]) {
        char *dot = strchr(tmp, '.');
        if (dot) *dot = dp[0];
    }
    return strtod(tmp, NULL);
}
