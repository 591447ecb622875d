/* pyrepr.c — Python repr() text of values; see pyrepr.h. */
#include "text/pyrepr.h"

#include <ctype.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "text/jsonlex.h"

/* ---- floats ------------------------------------------------------------------------- */

/* The locale's decimal point when it is a single byte other than '.', else 0. */
static char locale_point(void)
{
    const char *dp = localeconv()->decimal_point;
    return (dp && dp[0] && dp[0] != '.' && !dp[1]) ? dp[0] : 0;
}

/* Shortest decimal digits that read back as x (x finite, > 0): fills digits (no
 * leading zeros, no trailing zeros) and returns the number of digits; *decpt is the
 * position of the decimal point relative to the first digit (value = 0.DIGITS × 10^decpt). */
static int shortest_digits(double x, char *digits, int *decpt)
{
    char tmp[40];
    char lp = locale_point();
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    if ((bits & ((UINT64_C(1) << 52) - 1)) == 0) {
        /* a power of two: the doubles below it are twice as dense as those above, so
         * p digits may read back while p + 1 do not; the first p that does, in order */
        for (int prec = 1; prec <= 17; prec++) {
            snprintf(tmp, sizeof tmp, "%.*e", prec - 1, x);
            if (prec == 17 || strtod(tmp, NULL) == x) break;
        }
    } else {
        /* Elsewhere the values that read back as x lie symmetrically around it, and
         * x rounded to p + 1 digits is at least as close as x rounded to p digits: once
         * p digits read back, so do more. The least such p by bisection (17 always
         * does): ~5 conversions instead of up to 17, the same digits. First 15 digits:
         * when they read back, the least p is at most 15, and x rounded to 15 digits is
         * that p-digit number padded with zeros (x lies within half an ulp, ~1.1e-16
         * relative, of it, and 15-digit numbers are more than 1e-15 apart relative), so
         * its digits less the trailing zeros (dropped below) are the answer: one
         * conversion for most values. Not for subnormals: their ulp is wider. */
        int lo = 1, hi = 17;
        if (isnormal(x)) {
            snprintf(tmp, sizeof tmp, "%.14e", x);
            if (strtod(tmp, NULL) == x) lo = hi = 0;
            else lo = 16;
        }
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            snprintf(tmp, sizeof tmp, "%.*e", mid - 1, x);
            if (strtod(tmp, NULL) == x) hi = mid;
            else lo = mid + 1;
        }
        if (lo) snprintf(tmp, sizeof tmp, "%.*e", lo - 1, x);
    }
    /* tmp is "d[.ddd]e±XX" (with the locale's point) */
    int nd = 0;
    const char *p = tmp;
    for (; *p && *p != 'e'; p++)
        if (*p >= '0' && *p <= '9') digits[nd++] = *p;
        else if (*p != '.' && *p != lp) break;
    int exp10 = atoi(p + 1);
    while (nd > 1 && digits[nd - 1] == '0') nd--;
    digits[nd] = 0;
    *decpt = exp10 + 1;
    return nd;
}

int tsql_py_float(double x, char *buf)
{
    if (isnan(x)) return (int)(strcpy(buf, "nan"), 3);
    if (isinf(x)) return x > 0 ? (strcpy(buf, "inf"), 3) : (strcpy(buf, "-inf"), 4);
    char *o = buf;
    if (signbit(x)) {
        *o++ = '-';
        x = -x;
    }
    if (x == 0) {
        strcpy(o, "0.0");
        return (int)(o - buf) + 3;
    }
    char d[24];
    int decpt;
    int nd = shortest_digits(x, d, &decpt);
    if (decpt <= -4 || decpt > 16) {
        /* exponent form: d[.ddd]e±XX (at least two exponent digits) */
        *o++ = d[0];
        if (nd > 1) {
            *o++ = '.';
            memcpy(o, d + 1, (size_t)nd - 1);
            o += nd - 1;
        }
        int e = decpt - 1;
        o += sprintf(o, "e%c%02d", e < 0 ? '-' : '+', e < 0 ? -e : e);
    } else if (decpt <= 0) {
        *o++ = '0';
        *o++ = '.';
        for (int i = 0; i < -decpt; i++) *o++ = '0';
        memcpy(o, d, (size_t)nd);
        o += nd;
    } else if (decpt >= nd) {
        memcpy(o, d, (size_t)nd);
        o += nd;
        for (int i = nd; i < decpt; i++) *o++ = '0';
        *o++ = '.';
        *o++ = '0';
    } else {
        memcpy(o, d, (size_t)decpt);
        o += decpt;
        *o++ = '.';
        memcpy(o, d + decpt, (size_t)(nd - decpt));
        o += nd - decpt;
    }
    *o = 0;
    return (int)(o - buf);
}

int tsql_py_put_float(tsql_buf *b, double x)
{
    char tmp[TSQL_PY_FLOAT_BUFSZ];
    int n = tsql_py_float(x, tmp);
    return tsql_bput(b, tmp, (size_t)n);
}

int tsql_py_put_int(tsql_buf *b, long long v)
{
    char tmp[24];
    int n = snprintf(tmp, sizeof tmp, "%lld", v);
    return tsql_bput(b, tmp, (size_t)n);
}

/* ---- strings ------------------------------------------------------------------------ */

/* Decodes one UTF-8 sequence at s[0..n) (surrogates encoded as 3 bytes are accepted).
 * Returns its length and sets *cp, or 0 when the byte does not start a valid sequence. */
static int utf8_decode(const unsigned char *s, size_t n, unsigned *cp)
{
    unsigned c = s[0];
    int len;
    unsigned min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    } else if (c >= 0xC2 && c <= 0xDF) {
        len = 2, c &= 0x1F, min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3, c &= 0x0F, min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4, c &= 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if ((size_t)len > n) return 0;
    for (int i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        c = (c << 6) | (s[i] & 0x3F);
    }
    if (c < min || c > 0x10FFFF) return 0;
    *cp = c;
    return len;
}

/* str.isprintable() for one code point, from a compact table: control and format
 * characters, separators other than ' ', surrogates and private-use areas are not
 * printable. (Unassigned code points, which Python also escapes, are not tracked.) */
static int py_printable(unsigned c)
{
    static const unsigned ranges[][2] = {
        {0x00, 0x1F},       {0x7F, 0xA0},       {0xAD, 0xAD},       {0x600, 0x605},
        {0x61C, 0x61C},     {0x6DD, 0x6DD},     {0x70F, 0x70F},     {0x890, 0x891},
        {0x8E2, 0x8E2},     {0x1680, 0x1680},   {0x180E, 0x180E},   {0x2000, 0x200F},
        {0x2028, 0x202F},   {0x205F, 0x2064},   {0x2066, 0x206F},   {0x3000, 0x3000},
        {0xD800, 0xF8FF},   {0xFEFF, 0xFEFF},   {0xFFF9, 0xFFFB},   {0xFFFE, 0xFFFF},
        {0x110BD, 0x110BD}, {0x110CD, 0x110CD}, {0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3},
        {0x1D173, 0x1D17A}, {0xE0001, 0xE0001}, {0xE0020, 0xE007F}, {0xF0000, 0x10FFFF},
    };
    for (size_t i = 0; i < sizeof ranges / sizeof *ranges; i++)
        if (c >= ranges[i][0] && c <= ranges[i][1]) return 0;
    return 1;
}

int tsql_py_put_str(tsql_buf *b, const char *s, size_t n)
{
    /* Python picks ' unless the text has ' and no " */
    int has_sq = memchr(s, '\'', n) != NULL, has_dq = memchr(s, '"', n) != NULL;
    char q = (has_sq && !has_dq) ? '"' : '\'';
    if (tsql_bputc(b, q)) return -1;
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0, run = 0; /* run: start of the pending verbatim bytes */
    while (i < n) {
        unsigned cp;
        int len = utf8_decode(u + i, n - i, &cp);
        const char *esc = NULL;
        char tmp[12];
        if (len == 0) { /* not UTF-8: escape the byte */
            snprintf(tmp, sizeof tmp, "\\x%02x", u[i]);
            esc = tmp;
            len = 1;
        } else if (cp == (unsigned char)q || cp == '\\') {
            tmp[0] = '\\', tmp[1] = (char)cp, tmp[2] = 0;
            esc = tmp;
        } else if (cp == '\t') {
            esc = "\\t";
        } else if (cp == '\n') {
            esc = "\\n";
        } else if (cp == '\r') {
            esc = "\\r";
        } else if (!py_printable(cp)) {
            if (cp < 0x100) snprintf(tmp, sizeof tmp, "\\x%02x", cp);
            else if (cp < 0x10000) snprintf(tmp, sizeof tmp, "\\u%04x", cp);
            else snprintf(tmp, sizeof tmp, "\\U%08x", cp);
            esc = tmp;
        }
        if (esc) {
            if (tsql_bput(b, s + run, i - run) || tsql_bputs(b, esc)) return -1;
            run = i + (size_t)len;
        }
        i += (size_t)len;
    }
    if (tsql_bput(b, s + run, n - run)) return -1;
    return tsql_bputc(b, q);
}

/* ---- containers from cJSON ----------------------------------------------------------- */

static int repr_json(tsql_buf *b, const cJSON *v, int flags, int depth)
{
    if (!v || cJSON_IsNull(v)) return tsql_bputs(b, "None");
    if (depth > TSQL_MAX_DEPTH) return tsql_bputs(b, "...");
    if (cJSON_IsTrue(v)) return tsql_bputs(b, "True");
    if (cJSON_IsFalse(v)) return tsql_bputs(b, "False");
    if (cJSON_IsNumber(v)) {
        double d = v->valuedouble;
        if (d == floor(d) && fabs(d) < 9007199254740992.0) return tsql_py_put_int(b, (long long)d);
        return tsql_py_put_float(b, d);
    }
    if (cJSON_IsString(v)) return tsql_py_put_str(b, v->valuestring, strlen(v->valuestring));
    if (cJSON_IsRaw(v)) return tsql_bputs(b, v->valuestring ? v->valuestring : "None");
    int obj = cJSON_IsObject(v);
    int tup = !obj && (flags & TSQL_PY_TUPLES);
    if (tsql_bputc(b, obj ? '{' : tup ? '(' : '[')) return -1;
    int count = 0;
    for (const cJSON *c = v->child; c; c = c->next, count++) {
        if (count && tsql_bput(b, ", ", 2)) return -1;
        if (obj) {
            const char *k = c->string ? c->string : "";
            if (tsql_py_put_str(b, k, strlen(k)) || tsql_bput(b, ": ", 2)) return -1;
        }
        if (repr_json(b, c, flags, depth + 1)) return -1;
    }
    if (tup && count == 1 && tsql_bputc(b, ',')) return -1;
    return tsql_bputc(b, obj ? '}' : tup ? ')' : ']');
}

int tsql_pyrepr_json(tsql_buf *b, const cJSON *v, int flags)
{
    return repr_json(b, v, flags, 0);
}

/* ---- containers from JSON text -------------------------------------------------------- */

typedef struct walker {
    const char *p, *end;
    const char *err;
    int flags;
    tsql_buf tmp; /* unescaped strings */
} walker;

static void skip_ws(walker *w) { w->p = tsql_skip_ws(w->p, w->end); }

static int fail(walker *w, const char *msg)
{
    if (!w->err) w->err = msg;
    return -2;
}

static int lit(walker *w, const char *word, const char *out, tsql_buf *b)
{
    size_t n = strlen(word);
    if ((size_t)(w->end - w->p) < n || memcmp(w->p, word, n) != 0) return fail(w, "invalid JSON literal");
    w->p += n;
    return tsql_bputs(b, out);
}

static int walk_string(walker *w, const char **s, size_t *n)
{
    const char *q = w->p + 1;
    int esc = 0;
    while (q < w->end && *q != '"') {
        if ((unsigned char)*q < 0x20) return fail(w, "control character in JSON string");
        if (*q == '\\') {
            esc = 1;
            q++;
        }
        q++;
    }
    if (q >= w->end) return fail(w, "unterminated JSON string");
    const char *body = w->p + 1;
    size_t len = (size_t)(q - body);
    w->p = q + 1;
    if (!esc) {
        *s = body;
        *n = len;
        return 0;
    }
    w->tmp.n = 0;
    if (tsql_unescape(body, len, &w->tmp)) return -1;
    *s = w->tmp.p;
    *n = w->tmp.n;
    return 0;
}

static int walk_number(walker *w, tsql_buf *b)
{
    const char *s = w->p, *q = s;
    if (q < w->end && *q == '-') q++;
    const char *int_start = q;
    while (q < w->end && *q >= '0' && *q <= '9') q++;
    if (q == int_start) return fail(w, "invalid JSON number");
    if ((*int_start == '0' && q - int_start > 1)) return fail(w, "invalid JSON number");
    int is_float = 0;
    if (q < w->end && *q == '.') {
        is_float = 1;
        const char *f = ++q;
        while (q < w->end && *q >= '0' && *q <= '9') q++;
        if (q == f) return fail(w, "invalid JSON number");
    }
    if (q < w->end && (*q == 'e' || *q == 'E')) {
        is_float = 1;
        q++;
        if (q < w->end && (*q == '+' || *q == '-')) q++;
        const char *e = q;
        while (q < w->end && *q >= '0' && *q <= '9') q++;
        if (q == e) return fail(w, "invalid JSON number");
    }
    w->p = q;
    if (!is_float) {
        /* ints print as written (Python ints have no size limit), "-0" as 0 */
        if (q - s == 2 && s[0] == '-' && s[1] == '0') return tsql_bputc(b, '0');
        return tsql_bput(b, s, (size_t)(q - s));
    }
    return tsql_py_put_float(b, tsql_parse_double(s, (size_t)(q - s)));
}

static int walk_value(walker *w, tsql_buf *b, int depth)
{
    skip_ws(w);
    if (w->p >= w->end) return fail(w, "unexpected end of JSON text");
    if (depth > TSQL_MAX_DEPTH) return fail(w, "JSON nested too deeply");
    char c = *w->p;
    int rc;
    switch (c) {
    case 'n': return lit(w, "null", "None", b);
    case 't': return lit(w, "true", "True", b);
    case 'f': return lit(w, "false", "False", b);
    case 'N': return lit(w, "NaN", "nan", b);
    case 'I': return lit(w, "Infinity", "inf", b);
    case '"': {
        const char *s = "";
        size_t n = 0;
        if ((rc = walk_string(w, &s, &n))) return rc;
        return tsql_py_put_str(b, s, n);
    }
    case '[':
    case '{': {
        int obj = c == '{';
        int tup = !obj && (w->flags & TSQL_PY_TUPLES);
        if (tsql_bputc(b, obj ? '{' : tup ? '(' : '[')) return -1;
        w->p++;
        skip_ws(w);
        int count = 0;
        if (w->p < w->end && *w->p == (obj ? '}' : ']')) {
            w->p++;
        } else {
            for (;;) {
                if (count && tsql_bput(b, ", ", 2)) return -1;
                if (obj) {
                    skip_ws(w);
                    if (w->p >= w->end || *w->p != '"') return fail(w, "expected a key in JSON object");
                    const char *s = "";
                    size_t n = 0;
                    if ((rc = walk_string(w, &s, &n))) return rc;
                    if (tsql_py_put_str(b, s, n)) return -1;
                    skip_ws(w);
                    if (w->p >= w->end || *w->p != ':') return fail(w, "expected ':' in JSON object");
                    w->p++;
                    if (tsql_bput(b, ": ", 2)) return -1;
                }
                if ((rc = walk_value(w, b, depth + 1))) return rc;
                count++;
                skip_ws(w);
                if (w->p < w->end && *w->p == ',') {
                    w->p++;
                    continue;
                }
                if (w->p < w->end && *w->p == (obj ? '}' : ']')) {
                    w->p++;
                    break;
                }
                return fail(w, obj ? "expected ',' or '}' in JSON object" : "expected ',' or ']' in JSON array");
            }
        }
        if (tup && count == 1 && tsql_bputc(b, ',')) return -1;
        return tsql_bputc(b, obj ? '}' : tup ? ')' : ']');
    }
    default:
        if (c == '-' && w->end - w->p >= 9 && memcmp(w->p, "-Infinity", 9) == 0)
            return lit(w, "-Infinity", "-inf", b);
        if (c == '-' || (c >= '0' && c <= '9')) return walk_number(w, b);
        return fail(w, "invalid JSON value");
    }
}

int tsql_pyrepr_text(tsql_buf *b, const char *json, size_t n, int flags, const char **err)
{
    walker w = {.p = json, .end = json + n, .flags = flags};
    size_t start = b->n;
    int rc = walk_value(&w, b, 0);
    if (rc == 0) {
        skip_ws(&w);
        if (w.p != w.end) rc = fail(&w, "trailing text after the JSON value");
    }
    free(w.tmp.p);
    if (rc == -2) {
        b->n = start; /* drop the partial text */
        if (b->p) b->p[b->n] = 0;
        if (err) *err = w.err;
    }
    return rc;
}

/* ---- Python literal text → JSON --------------------------------------------------------- */

typedef struct lit_reader {
    const char *p, *end;
    const char *err;
} lit_reader;

static int lit_fail(lit_reader *r, const char *msg)
{
    if (!r->err) r->err = msg;
    return -2;
}

static void lit_ws(lit_reader *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\n' || *r->p == '\t')) r->p++;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* appends code point cp as a JSON string character (inside quotes) */
static int json_cp(tsql_buf *b, unsigned cp)
{
    char tmp[16];
    if (cp == '"' || cp == '\\') {
        tmp[0] = '\\', tmp[1] = (char)cp;
        return tsql_bput(b, tmp, 2);
    }
    if (cp < 0x20 || (cp >= 0xD800 && cp <= 0xDFFF)) {
        int n = snprintf(tmp, sizeof tmp, "\\u%04x", cp);
        return tsql_bput(b, tmp, (size_t)n);
    }
    unsigned char u[4];
    int n;
    if (cp < 0x80) u[0] = (unsigned char)cp, n = 1;
    else if (cp < 0x800) u[0] = (unsigned char)(0xC0 | cp >> 6), u[1] = (unsigned char)(0x80 | (cp & 0x3F)), n = 2;
    else if (cp < 0x10000)
        u[0] = (unsigned char)(0xE0 | cp >> 12), u[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F)),
        u[2] = (unsigned char)(0x80 | (cp & 0x3F)), n = 3;
    else
        u[0] = (unsigned char)(0xF0 | cp >> 18), u[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F)),
        u[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F)), u[3] = (unsigned char)(0x80 | (cp & 0x3F)), n = 4;
    return tsql_bput(b, (const char *)u, (size_t)n);
}

static int lit_string(lit_reader *r, tsql_buf *b)
{
    char q = *r->p++;
    if (tsql_bputc(b, '"')) return -1;
    while (r->p < r->end && *r->p != q) {
        unsigned char c = (unsigned char)*r->p;
        if (c != '\\') {
            /* copy one UTF-8 sequence (or byte) verbatim, escaping JSON specials */
            if (c == '"' || c < 0x20) {
                if (json_cp(b, c)) return -1;
            } else if (tsql_bputc(b, (char)c)) {
                return -1;
            }
            r->p++;
            continue;
        }
        if (r->end - r->p < 2) return lit_fail(r, "unterminated escape");
        char e = r->p[1];
        r->p += 2;
        unsigned cp;
        int ndig = 0;
        switch (e) {
        case 'n': cp = '\n'; break;
        case 't': cp = '\t'; break;
        case 'r': cp = '\r'; break;
        case '0': cp = 0; break;
        case '\\': cp = '\\'; break;
        case '\'': cp = '\''; break;
        case '"': cp = '"'; break;
        case 'x': ndig = 2; break;
        case 'u': ndig = 4; break;
        case 'U': ndig = 8; break;
        default: return lit_fail(r, "unknown escape in string");
        }
        if (ndig) {
            if (r->end - r->p < ndig) return lit_fail(r, "short escape in string");
            cp = 0;
            for (int i = 0; i < ndig; i++) {
                int h = hexval(r->p[i]);
                if (h < 0) return lit_fail(r, "bad hex escape in string");
                cp = cp * 16 + (unsigned)h;
            }
            r->p += ndig;
            if (cp > 0x10FFFF) return lit_fail(r, "escape out of range");
        }
        if (json_cp(b, cp)) return -1;
    }
    if (r->p >= r->end) return lit_fail(r, "unterminated string");
    r->p++;
    return tsql_bputc(b, '"');
}

static int lit_value(lit_reader *r, tsql_buf *b, int depth)
{
    lit_ws(r);
    if (r->p >= r->end) return lit_fail(r, "unexpected end of literal");
    if (depth > TSQL_MAX_DEPTH) return lit_fail(r, "literal nested too deeply");
    static const struct { const char *word, *json; } words[] = {
        {"None", "null"}, {"True", "true"}, {"False", "false"}, {"nan", "null"}, {"inf", "null"}, {"-inf", "null"},
    };
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
        size_t n = strlen(words[i].word);
        if ((size_t)(r->end - r->p) >= n && memcmp(r->p, words[i].word, n) == 0 &&
            ((size_t)(r->end - r->p) == n || !(isalnum((unsigned char)r->p[n]) || r->p[n] == '_'))) {
            r->p += n;
            return tsql_bputs(b, words[i].json);
        }
    }
    char c = *r->p;
    if (c == '\'' || c == '"') return lit_string(r, b);
    if (c == '(' || c == '[' || c == '{') {
        char close = c == '(' ? ')' : c == '[' ? ']' : '}';
        int obj = c == '{';
        r->p++;
        if (tsql_bputc(b, obj ? '{' : '[')) return -1;
        int count = 0, rc;
        for (;;) {
            lit_ws(r);
            if (r->p < r->end && *r->p == close) {
                r->p++;
                break;
            }
            if (count && tsql_bputc(b, ',')) return -1;
            if (obj) {
                lit_ws(r);
                if (r->p >= r->end || (*r->p != '\'' && *r->p != '"')) return lit_fail(r, "dict key is not a string");
                if ((rc = lit_string(r, b))) return rc;
                lit_ws(r);
                if (r->p >= r->end || *r->p != ':') return lit_fail(r, "expected ':' in dict");
                r->p++;
                if (tsql_bputc(b, ':')) return -1;
            }
            if ((rc = lit_value(r, b, depth + 1))) return rc;
            count++;
            lit_ws(r);
            if (r->p < r->end && *r->p == ',') {
                r->p++;
                continue;
            }
            if (r->p < r->end && *r->p == close) {
                r->p++;
                break;
            }
            return lit_fail(r, "expected ',' or a closing bracket");
        }
        return tsql_bputc(b, obj ? '}' : ']');
    }
    /* a number: Python int or float spelling */
    const char *s = r->p;
    if (r->p < r->end && (*r->p == '-' || *r->p == '+')) r->p++;
    int digits = 0, is_float = 0;
    while (r->p < r->end && (isdigit((unsigned char)*r->p) || *r->p == '.' || *r->p == 'e' || *r->p == 'E' ||
                             ((*r->p == '-' || *r->p == '+') && (r->p[-1] == 'e' || r->p[-1] == 'E')))) {
        if (isdigit((unsigned char)*r->p)) digits++;
        else is_float = 1;
        r->p++;
    }
    if (!digits) return lit_fail(r, "invalid literal");
    double v = tsql_parse_double(s, (size_t)(r->p - s));
    if (!is_float) {
        /* ints verbatim (JSON has no size limit either), without a leading '+' */
        if (*s == '+') s++;
        return tsql_bput(b, s, (size_t)(r->p - s));
    }
    if (!isfinite(v)) return tsql_bputs(b, "null");
    return tsql_py_put_float(b, v);
}

int tsql_py_to_json(tsql_buf *b, const char *repr, size_t n, const char **err)
{
    lit_reader r = {.p = repr, .end = repr + n};
    size_t start = b->n;
    int rc = lit_value(&r, b, 0);
    if (rc == 0) {
        lit_ws(&r);
        if (r.p != r.end) rc = lit_fail(&r, "trailing text after the literal");
    }
    if (rc == -2) {
        b->n = start;
        if (b->p) b->p[b->n] = 0;
        if (err) *err = r.err;
    }
    return rc;
}
