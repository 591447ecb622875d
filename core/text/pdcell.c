/*
 * pdcell.c — pandas' read_csv reading of one cell (see pdcell.h).
 */
#include "text/pdcell.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static int blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

static int digit(char c) { return c >= '0' && c <= '9'; }

static int same_nocase(const char *s, size_t n, const char *word)
{
    if (strlen(word) != n) return 0;
    for (size_t i = 0; i < n; i++) {
        char a = s[i], b = word[i];
        if (a >= 'A' && a <= 'Z') a = (char)(a - 'A' + 'a');
        if (a != b) return 0;
    }
    return 1;
}

int tsql_pd_is_na(const char *s, size_t n)
{
    static const char *const na[] = {"",     "#N/A", "#N/A N/A", "#NA",  "-1.#IND", "-1.#QNAN", "-NaN",
                                     "-nan", "1.#IND", "1.#QNAN", "<NA>", "N/A",     "NA",       "NULL",
                                     "NaN",  "None", "n/a",      "nan",  "null"};
    for (size_t i = 0; i < sizeof na / sizeof *na; i++)
        if (strlen(na[i]) == n && memcmp(na[i], s, n) == 0) return 1;
    return 0;
}

int tsql_pd_parse_int(const char *s, size_t n, long long *out)
{
    size_t i = 0;
    while (i < n && blank(s[i])) i++;
    int neg = 0;
    if (i < n && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
    if (i >= n || !digit(s[i])) return 0;
    /* accumulate towards the sign so INT64_MIN fits */
    int64_t v = 0;
    for (; i < n && digit(s[i]); i++) {
        int d = s[i] - '0';
        if (neg ? v < (INT64_MIN + d) / 10 : v > (INT64_MAX - d) / 10) return 0;
        v = neg ? v * 10 - d : v * 10 + d;
    }
    while (i < n && blank(s[i])) i++;
    if (i != n) return 0;
    *out = (long long)v;
    return 1;
}

/* 10^k for k = 0..308, each the double nearest to it (the compiler rounds a literal
 * correctly), as pandas' table */
#define TSQL_TEN(p) 1e##p##0, 1e##p##1, 1e##p##2, 1e##p##3, 1e##p##4, 1e##p##5, 1e##p##6, 1e##p##7, 1e##p##8, 1e##p##9
static const double pow10_table[309] = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
    TSQL_TEN(1), TSQL_TEN(2), TSQL_TEN(3), TSQL_TEN(4), TSQL_TEN(5), TSQL_TEN(6), TSQL_TEN(7),
    TSQL_TEN(8), TSQL_TEN(9), TSQL_TEN(10), TSQL_TEN(11), TSQL_TEN(12), TSQL_TEN(13), TSQL_TEN(14),
    TSQL_TEN(15), TSQL_TEN(16), TSQL_TEN(17), TSQL_TEN(18), TSQL_TEN(19), TSQL_TEN(20), TSQL_TEN(21),
    TSQL_TEN(22), TSQL_TEN(23), TSQL_TEN(24), TSQL_TEN(25), TSQL_TEN(26), TSQL_TEN(27), TSQL_TEN(28),
    TSQL_TEN(29),
    1e300, 1e301, 1e302, 1e303, 1e304, 1e305, 1e306, 1e307, 1e308};
#undef TSQL_TEN

int tsql_pd_parse_float(const char *s, size_t n, double *out)
{
    enum { MAX_DIGITS = 17 };
    size_t i = 0;
    while (i < n && blank(s[i])) i++;
    size_t start = i, end = n;
    while (end > start && blank(s[end - 1])) end--;
    /* the infinities are recognised by name (the whole trimmed cell; pandas compares
     * the cell itself, which has no blanks in our inputs) */
    if (same_nocase(s + start, end - start, "inf") || same_nocase(s + start, end - start, "+inf") ||
        same_nocase(s + start, end - start, "infinity") || same_nocase(s + start, end - start, "+infinity")) {
        *out = HUGE_VAL;
        return 1;
    }
    if (same_nocase(s + start, end - start, "-inf") || same_nocase(s + start, end - start, "-infinity")) {
        *out = -HUGE_VAL;
        return 1;
    }
    int neg = 0;
    if (i < n && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
    double x = 0;
    long long exponent = 0;
    int ndigits = 0, ndecimals = 0;
    for (; i < n && digit(s[i]); i++) {
        if (ndigits < MAX_DIGITS) {
            x = x * 10. + (s[i] - '0');
            ndigits++;
        } else {
            exponent++;
        }
    }
    if (i < n && s[i] == '.') {
        i++;
        for (; i < n && ndigits < MAX_DIGITS && digit(s[i]); i++) {
            x = x * 10. + (s[i] - '0');
            ndigits++;
            ndecimals++;
        }
        while (i < n && digit(s[i])) i++; /* digits beyond the 17th are dropped */
        exponent -= ndecimals;
    }
    if (ndigits == 0) return 0;
    if (neg) x = -x;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        size_t mark = i++;
        int eneg = 0;
        if (i < n && (s[i] == '-' || s[i] == '+')) eneg = s[i++] == '-';
        long long e = 0; /* at most 17 digits: no overflow */
        int edigits = 0;
        for (; i < n && edigits < MAX_DIGITS && digit(s[i]); i++) {
            e = e * 10 + (s[i] - '0');
            edigits++;
        }
        if (edigits == 0) i = mark; /* a bare "e" is not part of the number */
        exponent += eneg ? -e : e;
    }
    if (exponent > 308) return 0; /* out of range: pandas rejects the cell */
    if (exponent > 0) x *= pow10_table[exponent];
    else if (exponent < -308) {
        if (exponent < -616) x = 0.;
        else {
            x /= pow10_table[-308 - exponent];
            x /= pow10_table[308];
        }
    } else x /= pow10_table[-exponent];
    if (x == HUGE_VAL || x == -HUGE_VAL) return 0;
    while (i < n && blank(s[i])) i++;
    if (i != n) return 0;
    *out = x;
    return 1;
}

int tsql_pd_parse_bool(const char *s, size_t n)
{
    static const char *const t[] = {"True", "TRUE", "true"}, *const f[] = {"False", "FALSE", "false"};
    for (int k = 0; k < 3; k++) {
        if (strlen(t[k]) == n && memcmp(t[k], s, n) == 0) return 1;
        if (strlen(f[k]) == n && memcmp(f[k], s, n) == 0) return 0;
    }
    return -1;
}

/* digits with an optional sign and blanks around */
static int integer_text(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && blank(s[i])) i++;
    if (i < n && (s[i] == '-' || s[i] == '+')) i++;
    if (i >= n || !digit(s[i])) return 0;
    while (i < n && digit(s[i])) i++;
    while (i < n && blank(s[i])) i++;
    return i == n;
}

tsql_pd_kind tsql_pd_cell_kind(const char *s, size_t n)
{
    long long i;
    double d;
    if (tsql_pd_is_na(s, n)) return TSQL_PD_NA;
    if (tsql_pd_parse_int(s, n, &i)) return TSQL_PD_INT;
    if (integer_text(s, n)) return TSQL_PD_STR; /* beyond int64: pandas keeps it as uint64 or text */
    if (tsql_pd_parse_float(s, n, &d)) return TSQL_PD_FLOAT;
    if (tsql_pd_parse_bool(s, n) >= 0) return TSQL_PD_BOOL;
    return TSQL_PD_STR;
}
