/*
 * test_pyrepr.c — unit test for core/text/pyrepr.c's floats: tsql_py_float's digits
 * (found by bisection except at powers of two) are the shortest that read back, the
 * same as a plain search from 1 digit up, on ~300 k doubles: random bit patterns, ratios
 * like the report's means, powers of two and their neighbours, subnormals; and Python's
 * repr() of a few known values.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text/pyrepr.h"

static int g_pass, g_fail;

#define CHECK_STR(got, exp) \
    do { \
        if (strcmp((got), (exp)) == 0) g_pass++; \
        else { g_fail++; fprintf(stderr, "%s:%d: got \"%s\", expected \"%s\"\n", __FILE__, __LINE__, (got), (exp)); } \
    } while (0)

/* The reference: the first digit count from 1 up that reads back, as Python's repr
 * picks it, formatted the way tsql_py_float formats its digits. */
static void reference(double x, char *out)
{
    char tmp[40];
    int prec = 1;
    for (; prec < 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*e", prec - 1, fabs(x));
        if (strtod(tmp, NULL) == fabs(x)) break;
    }
    snprintf(tmp, sizeof tmp, "%.*e", prec - 1, fabs(x));
    /* digits and exponent of tmp, then the same layout rules as repr() */
    char d[24];
    int nd = 0;
    const char *p = tmp;
    for (; *p != 'e'; p++)
        if (*p >= '0' && *p <= '9') d[nd++] = *p;
    int decpt = atoi(p + 1) + 1;
    while (nd > 1 && d[nd - 1] == '0') nd--;
    char *o = out;
    if (signbit(x)) *o++ = '-';
    if (decpt <= -4 || decpt > 16) {
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
}

static uint64_t g_rng = 0x9E3779B97F4A7C15u;
static uint64_t next64(void)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return g_rng;
}

static int g_same, g_cases;
static void compare(double x)
{
    if (!isfinite(x) || x == 0) return;
    char got[TSQL_PY_FLOAT_BUFSZ], exp[64];
    tsql_py_float(x, got);
    reference(x, exp);
    g_cases++;
    if (strcmp(got, exp) == 0) g_same++;
    else if (g_cases - g_same <= 5) fprintf(stderr, "py_float(%a): got %s, reference %s\n", x, got, exp);
}

int main(void)
{
    char b[TSQL_PY_FLOAT_BUFSZ];
    static const struct { double x; const char *repr; } known[] = {
        {0.1, "0.1"}, {0.30000000000000004, "0.30000000000000004"}, {1e16, "1e+16"},
        {123456789012345680.0, "1.2345678901234568e+17"}, {1e-5, "1e-05"}, {0.0001, "0.0001"},
        {5e-324, "5e-324"}, {2.0, "2.0"}, {1.7976931348623157e308, "1.7976931348623157e+308"},
        {83.6661529411765, "83.6661529411765"}, {-0.5, "-0.5"}, {9007199254740993.0, "9007199254740992.0"},
        {2.2250738585072014e-308, "2.2250738585072014e-308"}, {1.0 / 3, "0.3333333333333333"},
    };
    for (size_t i = 0; i < sizeof known / sizeof *known; i++) {
        tsql_py_float(known[i].x, b);
        CHECK_STR(b, known[i].repr);
    }
    for (int i = 0; i < 100000; i++) { /* random bit patterns */
        uint64_t u = next64();
        double x;
        memcpy(&x, &u, sizeof x);
        compare(x);
    }
    for (int i = 0; i < 100000; i++) /* means and rates: ratios of modest integers */
        compare((double)(next64() % 100000000) / (double)(1 + next64() % 9973));
    for (int e = -1074; e <= 1023; e++) { /* powers of two and their neighbours */
        double p = ldexp(1.0, e);
        compare(p);
        compare(nextafter(p, 0));
        compare(nextafter(p, INFINITY));
        compare(3 * p);
    }
    for (int i = 0; i < 30000; i++) { /* subnormals and short decimals */
        uint64_t u = next64() % (UINT64_C(1) << 52);
        double x;
        memcpy(&x, &u, sizeof x);
        compare(x);
        compare((double)(next64() % 100000) / 1000.0);
    }
    if (g_same == g_cases) g_pass++;
    else {
        g_fail++;
        fprintf(stderr, "py_float: %d of %d doubles differ from the reference\n", g_cases - g_same, g_cases);
    }
    printf("test_pyrepr: %d passed, %d failed (%d doubles compared)\n", g_pass, g_fail, g_cases);
    return g_fail > 0;
}
