/*
 * test_jsonout.c — unit test for core/text/jsonout.c's doubles: tsql_json_double writes
 * µs times with whole ns (n / 1000) without snprintf; its text must be exactly what
 * the general path ("%.15g", else 16, else 17 digits, the first that reads back) gives,
 * for thousandths of every size, the fast path's edges, and doubles that are not
 * thousandths.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text/jsonout.h"

static int g_same, g_cases, g_fast;

static void reference(double x, char *o)
{
    if (!isfinite(x)) {
        strcpy(o, "null");
        return;
    }
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(o, 32, "%.*g", prec, x);
        if (strtod(o, NULL) == x) break;
    }
}

static void compare(double x)
{
    tsql_buf b = {0};
    char exp[40];
    if (tsql_json_double(&b, x)) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    reference(x, exp);
    g_cases++;
    if (b.n == strlen(exp) && memcmp(b.p, exp, b.n) == 0) g_same++;
    else if (g_cases - g_same <= 5) fprintf(stderr, "json_double(%a): got %.*s, expected %s\n", x, (int)b.n, b.p, exp);
    if ((double)llround(x * 1000.0) / 1000.0 == x && x >= 0.001 && x < 1e12) g_fast++;
    free(b.p);
}

static uint64_t g_rng = 0x2545F4914F6CDD1Du;
static uint64_t next64(void)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return g_rng;
}

/* the object writer: "key":value members, no spaces, separators only between members */
static int object_ok(void)
{
    tsql_buf b = {0};
    int first = 1, bad = tsql_bputc(&b, '{');
    bad |= tsql_json_key(&b, &first, "name") || tsql_json_text(&b, "a\"b");
    bad |= tsql_json_key(&b, &first, "stream") || tsql_json_i64(&b, -7);
    bad |= tsql_json_key(&b, &first, "none") || tsql_json_text(&b, NULL);
    bad |= tsql_json_key(&b, &first, "max") || tsql_json_i64(&b, INT64_MIN);
    bad |= tsql_bputc(&b, '}');
    int ok = !bad && strcmp(b.p, "{\"name\":\"a\\\"b\",\"stream\":-7,\"none\":null,\"max\":-9223372036854775808}") == 0;
    if (!ok) fprintf(stderr, "test_jsonout: object writer gave %s\n", b.p ? b.p : "(null)");
    free(b.p);
    return ok;
}

int main(void)
{
    for (long long n = 0; n <= 200000; n++) compare((double)n / 1000.0);       /* 0 .. 200 µs */
    for (int i = 0; i < 200000; i++) {
        long long n = (long long)(next64() % 1000000000000000ull);              /* up to 1e12 */
        compare((double)n / 1000.0);
        compare((double)(n % 100000000) / 1000.0);
    }
    const double edges[] = {0.001, 0.0009, 0.0005, 0.0015, 999999999999.999, 1e12, 1e12 - 0.001,
                            999999999999.9995, 123456789012.345, 0.1, 0.2, 0.3, 1.0, 2.5, 1e-300,
                            -0.001, -1.5, 0.0, -0.0, 4503599627370.496, 1e15, 1e16};
    for (size_t i = 0; i < sizeof edges / sizeof *edges; i++) {
        compare(edges[i]);
        compare(nextafter(edges[i], 0));
        compare(nextafter(edges[i], INFINITY));
    }
    for (int i = 0; i < 200000; i++) { /* doubles that are mostly not thousandths */
        uint64_t u = next64();
        double x;
        memcpy(&x, &u, sizeof x);
        compare(x);
        compare((double)(next64() % 100000000) / (double)(1 + next64() % 9973));
        compare((double)(next64() % 10000000) / 10000.0); /* tenths of a ns */
    }
    int ok = g_same == g_cases && g_fast > g_cases / 3 && object_ok();
    printf("test_jsonout: %d passed, %d failed (%d doubles compared, %d by the fast path)\n", ok, !ok,
           g_cases, g_fast);
    return !ok;
}
