/* test_kernel_op.c — unit tests of core/analysis/kernel_op.c: the glob matcher, the
 * label vocabulary, first-match order and CPU-op rules. (The shipped rules are data
 * and are tested on real kernel names in tests/sql/compare/.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/kernel_op.h"
#include "check.h"

static int g(const char *pat, const char *s)
{
    return tsql_glob_ci(pat, s, strlen(s));
}

static void test_glob(void)
{
    CHECK(g("*", ""));
    CHECK(g("*", "anything"));
    CHECK(g("", ""));
    CHECK(!g("", "a"));
    CHECK(g("cijk_*", "Cijk_Alik_Bljk_BBS_BH"));
    CHECK(!g("cijk_*", "xCijk_"));
    CHECK(g("*gemm*", "sm90_xmma_GEMM_bf16"));
    CHECK(g("*GEMM*", "cutlass_80_tensorop_s1688gemm_64x64"));
    CHECK(!g("*gemm", "gemm_x"));
    CHECK(g("*gemm", "x_gemm"));
    CHECK(g("a?c", "abc"));
    CHECK(!g("a?c", "ac"));
    CHECK(g("*mean*pow*rsqrt*", "triton_red_fused_add_mean_mul_pow_rsqrt_0"));
    CHECK(!g("*pow*mean*rsqrt*", "triton_red_fused_add_mean_mul_pow_rsqrt_0"));
    /* backtracking over repeated prefixes */
    CHECK(g("*aab", "aaaaab"));
    CHECK(!g("*aab", "aaaaa"));
    CHECK(g("**x**", "yyxyy"));
    /* a name with an embedded NUL is matched on its length only */
    CHECK(tsql_glob_ci("ab", "abc", 2));
}

static void test_labels(void)
{
    /* the ids index the vocabulary, and map back from the classifiers' pointers */
    CHECK(tsql_kop_labels[TSQL_KOP_NLABELS] == NULL);
    CHECK_STR(tsql_kop_labels[TSQL_KOP_ATTENTION], "Attention");
    CHECK_STR(tsql_kop_labels[TSQL_KOP_LAYERNORM_GEMM], "LayerNorm+GEMM");
    for (int i = 0; i < TSQL_KOP_NLABELS; i++) {
        CHECK(tsql_kop_labels[i] != NULL);
        CHECK_EQ(tsql_kop_label_id(tsql_kop_label(tsql_kop_labels[i])), i);
    }
    CHECK_STR(tsql_kop_label("GEMM"), "GEMM");
    CHECK_STR(tsql_kop_label("RMSNorm+GEMM"), "RMSNorm+GEMM");
    CHECK(tsql_kop_label("gemm") == NULL); /* labels are exact */
    CHECK(tsql_kop_label(NULL) == NULL);
    size_t n = 0;
    while (tsql_kop_labels[n]) n++;
    CHECK_EQ(n, 21);
}

static void test_rules(void)
{
    tsql_kop_rules *r = tsql_kop_rules_new();
    CHECK(r != NULL);
    CHECK_STR(tsql_kop_classify(r, "anything", NULL), "Other");
    CHECK_EQ(tsql_kop_rules_add(r, "*", NULL, "NotALabel"), -1);
    CHECK_EQ(tsql_kop_rules_add(r, NULL, NULL, "GEMM"), -1);
    /* a CPU-op rule first: the same name under two ops */
    CHECK_EQ(tsql_kop_rules_add(r, "*nchwtonhwc*", "*conv*", "Conv"), 0);
    CHECK_EQ(tsql_kop_rules_add(r, "*nchwtonhwc*", "", "Elementwise"), 0);
    CHECK_EQ(tsql_kop_rules_add(r, "*softmax*", NULL, "Softmax"), 0);
    CHECK_EQ(tsql_kop_rules_add(r, "*topk_softmax*", NULL, "MoE"), 0); /* shadowed */
    CHECK_EQ(tsql_kop_rules_count(r), 4);
    const char *k = "void cudnn::ops::nchwToNhwcKernel<float>";
    CHECK_STR(tsql_kop_classify(r, k, "aten::cudnn_convolution"), "Conv");
    CHECK_STR(tsql_kop_classify(r, k, "aten::copy_"), "Elementwise");
    CHECK_STR(tsql_kop_classify(r, k, NULL), "Elementwise");
    CHECK_STR(tsql_kop_classify(r, "topk_softmax", NULL), "Softmax");
    CHECK_STR(tsql_kop_classify(r, NULL, NULL), "Other");
    CHECK_STR(tsql_kop_classify(NULL, "x", NULL), "Other");
    tsql_kop_rules_free(r);
    tsql_kop_rules_free(NULL);
}

/* the memo gives what the rules give: per (name, CPU op), NULL and "" CPU ops apart,
 * and forgets its labels when a rule is added */
static void test_memo(void)
{
    tsql_kop_rules *r = tsql_kop_rules_new();
    CHECK_EQ(tsql_kop_rules_add(r, "*k*", "*", "Conv"), 0);
    CHECK_EQ(tsql_kop_rules_add(r, "*k*", NULL, "GEMM"), 0);
    for (int pass = 0; pass < 2; pass++) { /* the second pass reads the memo */
        CHECK_STR(tsql_kop_classify_memo(r, "k", "aten::mm"), "Conv");
        CHECK_STR(tsql_kop_classify_memo(r, "k", ""), "Conv"); /* "" matches "*" */
        CHECK_STR(tsql_kop_classify_memo(r, "k", NULL), "GEMM"); /* no CPU op: not */
        CHECK_STR(tsql_kop_classify_memo(r, "x", NULL), "Other");
        CHECK_STR(tsql_kop_classify_memo(r, NULL, NULL), "Other");
    }
    /* more distinct names than the first table holds: it grows, labels stay right */
    char name[32];
    for (int i = 0; i < 5000; i++) {
        snprintf(name, sizeof name, "%s%d", i % 2 ? "k" : "x", i);
        CHECK_STR(tsql_kop_classify_memo(r, name, NULL), i % 2 ? "GEMM" : "Other");
    }
    for (int i = 0; i < 5000; i += 7) {
        snprintf(name, sizeof name, "%s%d", i % 2 ? "k" : "x", i);
        CHECK_STR(tsql_kop_classify_memo(r, name, NULL), i % 2 ? "GEMM" : "Other");
    }
    CHECK_EQ(tsql_kop_rules_add(r, "x*", NULL, "Softmax"), 0);
    CHECK_STR(tsql_kop_classify_memo(r, "x", NULL), "Softmax");
    CHECK_STR(tsql_kop_classify_memo(r, "x2", NULL), "Softmax");
    CHECK_STR(tsql_kop_classify_memo(NULL, "x", NULL), "Other");
    tsql_kop_rules_free(r);
}

/* the content key: equal rules, equal keys; any change of text or order, another key */
static void test_rules_key(void)
{
    tsql_kop_rules *a = tsql_kop_rules_new(), *b = tsql_kop_rules_new(), *c = tsql_kop_rules_new();
    CHECK(a && b && c);
    if (!a || !b || !c) return;
    CHECK(tsql_kop_rules_key(a) == tsql_kop_rules_key(b));
    tsql_kop_rules_add(a, "ab*", NULL, "GEMM");
    tsql_kop_rules_add(a, "x*", "aten::mm", "Other");
    tsql_kop_rules_add(b, "ab*", NULL, "GEMM");
    tsql_kop_rules_add(b, "x*", "aten::mm", "Other");
    CHECK(tsql_kop_rules_key(a) == tsql_kop_rules_key(b));
    tsql_kop_rules_add(c, "a", NULL, "GEMM"); /* fields do not run together: "a" + "b*" */
    tsql_kop_rules_add(c, "b*x*", "aten::mm", "Other");
    CHECK(tsql_kop_rules_key(a) != tsql_kop_rules_key(c));
    tsql_kop_rules_add(b, "y*", NULL, "GEMM");
    CHECK(tsql_kop_rules_key(a) != tsql_kop_rules_key(b));
    tsql_kop_rules_free(a);
    tsql_kop_rules_free(b);
    tsql_kop_rules_free(c);
}

/* the part of a name the rules see: without the parameter list that ends a demangled
 * name, with everything else kept */
static void test_name_len(void)
{
    static const struct {
        const char *name;
        size_t want;
    } cases[] = {
        {"void f<int>(cudnn::reduced_divisor, int)", 11},            /* "void f<int>" */
        {"void at::native::(anonymous namespace)::g<(T)0>(int (*)(int), long)", 47},
        {"Memcpy HtoD (Pageable -> Device)", 32},                    /* after a space: kept */
        {"Memset (Device)", 15},
        {"(all in parentheses)", 20},
        {"nvjet_sm90_tst_128x64_64x8_1x2_h_bz_TNT", 39},             /* no list */
        {"f(unbalanced))", 14},
        {"", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK_EQ(tsql_kop_name_len(cases[i].name, strlen(cases[i].name)), cases[i].want);
    /* a rule then sees the name only: a word in a parameter type does not match */
    tsql_kop_rules *r = tsql_kop_rules_new();
    CHECK(r != NULL);
    if (!r) return;
    CHECK_EQ(tsql_kop_rules_add(r, "*reduce*", NULL, "Reduce"), 0);
    CHECK_STR(tsql_kop_classify(r, "void pad<float>(cudnn::reduced_divisor)", NULL), "Other");
    CHECK_STR(tsql_kop_classify(r, "void reduce_kernel<float>(int)", NULL), "Reduce");
    tsql_kop_rules_free(r);
}

int main(void)
{
    test_glob();
    test_name_len();
    test_labels();
    test_rules();
    test_rules_key();
    test_memo();
    return check_report("test_kernel_op");
}
