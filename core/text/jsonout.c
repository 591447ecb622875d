/* jsonout.c — JSON string literals and doubles; see jsonout.h. */
#include "text/jsonout.h"

#include <locale.h>
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

/*
 * FAST PATH: most doubles written here are µs times with whole ns, x = n / 1000. For
 * 0.001 <= x < 1e12, when n / 1000 rounds to x exactly, "%.15g" prints n / 1000's own
 * digits (n has at most 15, the 15-digit grid at x's size is no coarser than 0.001 and
 * x is far closer to n / 1000 than half a step of it) in fixed notation, and they read
 * back as x; so they are written directly, without snprintf and strtod (~1.5 k
 * instructions). Only with '.' as the locale's decimal point, as snprintf would write.
 * Returns the length written at o, or 0 when x is not such a number.
 */
static int put_thousandths(double x, char *o)
{
    if (!(x >= 0.001 && x < 1e12)) return 0;
    long long n = llround(x * 1000.0);
    if ((double)n / 1000.0 != x) return 0;
    const char *dp = localeconv()->decimal_point;
    if (!dp || dp[0] != '.' || dp[1]) return 0;
    char tmp[24];
    int k = 0;
    long long ip = n / 1000;
    int frac = (int)(n % 1000);
    do tmp[k++] = (char)('0' + ip % 10); while ((ip /= 10) != 0);
    int len = 0;
    while (k) o[len++] = tmp[--k];
    if (frac) {
        o[len++] = '.';
        o[len++] = (char)('0' + frac / 100);
        if (frac % 100) {
            o[len++] = (char)('0' + frac / 10 % 10);
            if (frac % 10) o[len++] = (char)('0' + frac % 10);
        }
    }
    return len;
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
    int len = put_thousandths(x, o);
    if (len) {
        b->n += (size_t)len;
        return 0;
    }
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

int tsql_json_key(tsql_buf *b, int *first, const char *key)
{
    if (!*first && tsql_bputc(b, ',')) return -1;
    *first = 0;
    return tsql_json_quote(b, key, strlen(key)) || tsql_bputc(b, ':');
}

int tsql_json_text(tsql_buf *b, const char *s)
{
    return s ? tsql_json_quote(b, s, strlen(s)) : tsql_bputs(b, "null");
}

int tsql_json_i64(tsql_buf *b, int64_t v)
{
    char tmp[24];
    size_t n = 0;
    uint64_t m = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    do tmp[n++] = (char)('0' + m % 10); while ((m /= 10) != 0);
    if (v < 0) tmp[n++] = '-';
    if (tsql_buf_reserve(b, n + 1)) return -1;
    for (size_t i = 0; i < n; i++) b->p[b->n + i] = tmp[n - 1 - i];
    b->n += n;
    b->p[b->n] = 0;
    return 0;
}
