/* test_core.c — unit tests of core/ without SQLite: lexing, numbers, interning,
 * compact columns, and the tree built from tests/data/tree_rules.json. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/icol.h"
#include "store/intern.h"
#include "text/jsonlex.h"
#include "store/store.h"
#include "load/load.h"

static int passed, failed;

#define CHECK_I(got, want)                                                                \
    do {                                                                                  \
        long long g_ = (long long)(got), w_ = (long long)(want);                          \
        if (g_ == w_) passed++;                                                           \
        else {                                                                            \
            failed++;                                                                     \
            fprintf(stderr, "%s:%d: %s = %lld, want %lld\n", __FILE__, __LINE__, #got, g_, w_); \
        }                                                                                 \
    } while (0)

#define CHECK_S(got, want)                                                                \
    do {                                                                                  \
        const char *g_ = (got), *w_ = (want);                                             \
        if (g_ && w_ && strcmp(g_, w_) == 0) passed++;                                    \
        else {                                                                            \
            failed++;                                                                     \
            fprintf(stderr, "%s:%d: %s = '%s', want '%s'\n", __FILE__, __LINE__, #got,    \
                    g_ ? g_ : "(null)", w_ ? w_ : "(null)");                              \
        }                                                                                 \
    } while (0)

static int64_t ns_of(const char *s, int *inexact)
{
    int64_t ns = -1;
    *inexact = -1;
    if (tsql_parse_us_to_ns(s, strlen(s), &ns, inexact)) return -999;
    return ns;
}

static void test_numbers(void)
{
    int inex;
    CHECK_I(ns_of("1428625731622.25", &inex), 1428625731622250LL);
    CHECK_I(inex, 0);
    CHECK_I(ns_of("1606910596297023", &inex), 1606910596297023000LL);
    CHECK_I(ns_of("0.001", &inex), 1);
    CHECK_I(ns_of("0.0004", &inex), 0);
    CHECK_I(inex, 1);
    CHECK_I(ns_of("0.0005", &inex), 1); /* half away from zero */
    CHECK_I(ns_of("-2.5", &inex), -2500);
    CHECK_I(ns_of("1.5e3", &inex), 1500000);
    CHECK_I(ns_of("15E-1", &inex), 1500);
    CHECK_I(ns_of("0", &inex), 0);
    CHECK_I(ns_of("abc", &inex), -999);
    CHECK_I(ns_of("1e400", &inex), -999);
    CHECK_I(ns_of("99999999999999999999", &inex), -999); /* beyond int64 ns */
    int64_t v = 0;
    CHECK_I(tsql_parse_int64("-9223372036854775808", 20, &v), 0);
    CHECK_I(v == INT64_MIN, 1);
    CHECK_I(tsql_parse_int64("9223372036854775808", 19, &v), -1);
    CHECK_I(tsql_parse_int64("007", 3, &v), -1); /* not canonical: would not print back */
    CHECK_I(tsql_parse_int64("-0", 2, &v), -1);
    CHECK_I(tsql_parse_int64("1.0", 3, &v), -1);
    /* the double of ns/1000 equals strtod of the text */
    CHECK_I(tsql_ns_to_us(1428625731622250LL) == 1428625731622.25, 1);
    CHECK_I(tsql_ns_to_us(1428625731622251LL) == strtod("1428625731622.251", NULL), 1);
}

static void test_lex(void)
{
    const char *s = "\"a\\\"b\\\\\" rest";
    tsql_lex lx = {.end = s + strlen(s)};
    int esc = 0;
    const char *e = tsql_lex_string(&lx, s, &esc);
    CHECK_I(e - s, 8);
    CHECK_I(esc, 1);
    const char *inc = "\"abcdefghijklmnop";
    tsql_lex lx2 = {.end = inc + strlen(inc)};
    CHECK_I(tsql_lex_string(&lx2, inc, NULL) == NULL, 1);
    CHECK_I(lx2.incomplete, 1);
    const char *v = "{ \"a\" : [1, 2, {\"b\": null}], \"c\": \"x}\" } tail";
    tsql_lex lx3 = {.end = v + strlen(v)};
    tsql_buf out = {0};
    e = tsql_lex_copy_compact(&lx3, v, &out);
    CHECK_I(e != NULL, 1);
    tsql_buf_reserve(&out, 1);
    out.p[out.n] = 0;
    CHECK_S(out.p, "{\"a\":[1,2,{\"b\":null}],\"c\":\"x}\"}");
    free(out.p);
    const char *bad = "[1, 2}";
    tsql_lex lx4 = {.end = bad + strlen(bad)};
    CHECK_I(tsql_lex_skip_value(&lx4, bad) == NULL, 1);
    CHECK_I(lx4.err != NULL, 1);
    tsql_buf u = {0};
    const char *esc_s = "a\\u00e9\\n\\ud83d\\ude00";
    CHECK_I(tsql_unescape(esc_s, strlen(esc_s), &u), 0);
    CHECK_S(u.p, "a\xc3\xa9\n\xf0\x9f\x98\x80");
    free(u.p);
}

static void test_intern_icol(void)
{
    tsql_intern t;
    tsql_intern_init(&t);
    uint32_t a = tsql_intern_add(&t, "kernel", 6);
    uint32_t b = tsql_intern_add(&t, "cpu_op", 6);
    CHECK_I(a != b, 1);
    CHECK_I(tsql_intern_add(&t, "kernel", 6), a);
    char buf[32];
    for (int i = 0; i < 5000; i++) {
        int n = snprintf(buf, sizeof buf, "name%d", i);
        tsql_intern_add(&t, buf, (size_t)n);
    }
    CHECK_I(tsql_intern_find(&t, "name4321", 8) != 0, 1);
    CHECK_S(tsql_intern_str(&t, a), "kernel");
    tsql_intern_free(&t);

    tsql_icol c = {0};
    tsql_icol_reserve(&c, 10);
    tsql_icol_set(&c, 0, 5000000000LL);
    tsql_icol_set(&c, 1, TSQL_NULL);
    tsql_icol_set(&c, 2, 5000000001LL);
    tsql_icol_set(&c, 3, -5000000000LL); /* far from the base: overflow map */
    tsql_icol_set(&c, 4, INT64_MAX);
    CHECK_I(tsql_icol_get(&c, 0), 5000000000LL);
    CHECK_I(tsql_icol_get(&c, 1) == TSQL_NULL, 1);
    CHECK_I(tsql_icol_get(&c, 2), 5000000001LL);
    CHECK_I(tsql_icol_get(&c, 3), -5000000000LL);
    CHECK_I(tsql_icol_get(&c, 4) == INT64_MAX, 1);
    tsql_icol_free(&c);
}

static void test_tree(void)
{
    tsql_error err = {0};
    tsql_trace *t = tsql_trace_load("tests/data/tree_rules.json", NULL, &err);
    CHECK_I(t != NULL, 1);
    if (!t) {
        fprintf(stderr, "load failed: %s\n", err.msg);
        return;
    }
    CHECK_I(t->n, 36);
    CHECK_I(t->parent[1], 0);                       /* B in A */
    CHECK_I(t->parent[4], 0);                       /* D starts at B's end: sibling */
    CHECK_I((t->flags[5] & TSQL_F_TL_DROPPED) != 0, 1); /* E overruns A by 50 µs */
    CHECK_I(t->parent[7], 0);                       /* H bleeds 0.5 µs out of G */
    CHECK_I(t->parent[20], 2);                      /* kernel -> its launch */
    CHECK_I(t->parent[33], 32);                     /* python frame by parent id */
    CHECK_I(t->kernels.n, 8);
    CHECK_I(t->kernels.tl_launcher[0], 1);
    CHECK_I(t->kernels.tl_launcher[2], 10);         /* "execute" skipped */
    CHECK_I(t->kernels.link[5], TSQL_LINK_CORRELATION);
    CHECK_I(t->kernels.runtime[7], TSQL_NONE);      /* launch outside the trace */
    CHECK_I(t->rank, 3);
    CHECK_I(t->world_size, 8);
    CHECK_I(t->base_time_ns, 1700000000000000000LL);
    tsql_buf b = {0};
    CHECK_I(tsql_trace_args_json(t, 20, &b) > 0, 1);
    CHECK_S(b.p, "{\"correlation\":1,\"stream\":7,\"device\":0,\"grid\":[8,1,1],\"block\":[128,1,1],"
                 "\"registers per thread\":32,\"shared memory\":0}");
    free(b.p);
    tsql_trace_free(t);

    /* memory ceiling: fails cleanly */
    tsql_load_opts o = {.mem_limit = 1};
    tsql_error e2 = {0};
    tsql_trace *t2 = tsql_trace_load("tests/data/tree_rules.json", &o, &e2);
    CHECK_I(t2 == NULL, 1);
    CHECK_I(e2.code, TSQL_ENOMEM);
    tsql_trace_free(t2);
}

/* The columns sized from the text's length: capacity only, no rows; nothing with a
 * memory ceiling (its message counts the events read when the columns grow). */
static void test_reserve(void)
{
    tsql_trace *t = calloc(1, sizeof *t);
    if (!t) {
        failed++;
        return;
    }
    CHECK_I(tsql_store_reserve_for(t, 1000), 0);
    CHECK_I(t->cap, 0); /* small text: the columns start small */
    CHECK_I(tsql_store_reserve_for(t, 10 << 20), 0);
    CHECK_I(t->cap, (10 << 20) / 256);
    CHECK_I(t->cap_pool, (10 << 20) / 256);
    CHECK_I(t->n, 0);
    CHECK_I(tsql_store_reserve_for(t, 100 << 20), 0);
    CHECK_I(t->cap, (10 << 20) / 256); /* only an empty store is sized */
    t->ts_ns[t->cap - 1] = 42;         /* every row is there */
    CHECK_I(t->ts_ns[t->cap - 1], 42);
    tsql_trace_free(t);
    t = calloc(1, sizeof *t);
    if (!t) {
        failed++;
        return;
    }
    t->mem_limit = 1 << 30;
    CHECK_I(tsql_store_reserve_for(t, 10 << 20), 0);
    CHECK_I(t->cap, 0);
    tsql_trace_free(t);
}

int main(void)
{
    test_numbers();
    test_lex();
    test_intern_icol();
    test_tree();
    test_reserve();
    printf("test_core: %d passed, %d failed\n", passed, failed);
    return failed != 0;
}
