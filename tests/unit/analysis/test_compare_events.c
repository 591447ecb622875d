/* test_compare_events.c — core/analysis/compare_events.c on the hand-made traces of
 * tests/data/compare/modules.json (layers from nn.Module blocks; the kernels k1..k13 of
 * its generator, make_module_trace.py) and tests/sql/compare/sglang_like.json (layers
 * from kernel patterns), with a few rules of our own (the shipped rules are data). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare_events.h"
#include "check.h"
#include "load/load.h"

static tsql_kop_rules *test_rules(void)
{
    tsql_kop_rules *r = tsql_kop_rules_new();
    CHECK(r != NULL);
    if (!r) return NULL;
    CHECK_EQ(tsql_kop_rules_add(r, "*RMSNorm*", NULL, "RMSNorm"), 0); /* before *flash*: flashinfer::norm */
    CHECK_EQ(tsql_kop_rules_add(r, "*gemm*", NULL, "GEMM"), 0);
    CHECK_EQ(tsql_kop_rules_add(r, "nvjet*", NULL, "GEMM"), 0);
    CHECK_EQ(tsql_kop_rules_add(r, "*flash*", NULL, "Attention"), 0);
    CHECK_EQ(tsql_kop_rules_add(r, "*Prefill*", NULL, "Attention"), 0);
    CHECK_EQ(tsql_kop_rules_add(r, "*Decode*", NULL, "Attention"), 0);
    CHECK_EQ(tsql_kop_rules_add(r, "Memcpy*", NULL, "Memcpy"), 0);
    CHECK_EQ(tsql_kop_rules_add(r, "*elementwise*", NULL, "Elementwise"), 0);
    return r;
}

static const char *op_of(const tsql_cmp_events *e, uint32_t i)
{
    return e->op[i] == TSQL_CMP_NO_OP ? NULL : tsql_kop_labels[e->op[i]];
}

static void test_modules(tsql_kop_rules *rules)
{
    tsql_error err = {0};
    tsql_trace *t = tsql_trace_load("tests/data/compare/modules.json", NULL, &err);
    CHECK(t != NULL);
    if (!t) return;
    tsql_cmp_events e;
    CHECK_EQ(tsql_cmp_events_build(t, rules, &e), 0);
    CHECK_EQ(e.n, 13);
    CHECK_EQ(e.module_layers, 1);
    if (e.n != 13) {
        tsql_trace_free(t);
        return;
    }
    /* k1..k13 in uid order: operation, step, phase, layer, pass (hand-derived from the
     * times in make_module_trace.py) */
    static const struct {
        const char *op;
        uint32_t step;
        int phase;
        int32_t layer;
        uint32_t pass;
    } want[13] = {
        {"Elementwise", 1, TSQL_PHASE_PREFILL, -1, 1},  /* before Net: the first pass's */
        {"GEMM", 1, TSQL_PHASE_PREFILL, 0, 1},          /* at Block_0's start */
        {"Attention", 1, TSQL_PHASE_PREFILL, 0, 1},     /* at its end - 0.5 */
        {"GEMM", 1, TSQL_PHASE_PREFILL, 1, 1},          /* at Block_1's start */
        {"GEMM", 1, TSQL_PHASE_NONE, -1, 1},            /* other thread: no layer, pass by time */
        {"Elementwise", 1, TSQL_PHASE_NONE, -1, 1},     /* in Head_0 */
        {"Elementwise", 0, TSQL_PHASE_NONE, -1, 2},     /* no launch: GPU time, after Net 2 */
        {"GEMM", 2, TSQL_PHASE_DECODE, 0, 2},           /* STEP[decode marker */
        {"Attention", 2, TSQL_PHASE_DECODE, 0, 2},      /* decode by name */
        {"GEMM", 2, TSQL_PHASE_MIXED, 1, 2},            /* the step's phases */
        {"GEMM", 2, TSQL_PHASE_MIXED, 1, 2},            /* marker without phase */
        {"Memcpy", 2, TSQL_PHASE_MIXED, -1, 2},         /* after Block_1: between passes */
        {"Attention", 2, TSQL_PHASE_PREFILL, -1, 2},    /* prefill by name */
    };
    for (uint32_t i = 0; i < 13; i++) {
        CHECK_STR(op_of(&e, i), want[i].op);
        CHECK_EQ(e.step[i], want[i].step);
        CHECK_EQ(e.phase[i], want[i].phase);
        CHECK_EQ(e.layer[i], want[i].layer);
        CHECK_EQ(e.pass[i], want[i].pass);
    }
    /* the probe: the launch's ts, or the GPU event's own when it has no launch */
    CHECK(e.t_probe[2] == 299.5);
    CHECK(e.t_probe[6] == 100700.0);
    /* CPU op: the aten::mm around the launch (k2), none around k3 */
    CHECK_STR(tsql_intern_str(&t->strings, e.cpu_op[1]), "aten::mm");
    CHECK_EQ(e.cpu_op[2], 0);
    /* groups: every event in exactly one, durations summed exactly in ns */
    uint64_t n = 0;
    int64_t ns = 0;
    for (size_t g = 0; g < e.ngroups; g++) {
        n += e.groups[g].n;
        ns += e.groups[g].dur_ns;
        CHECK_EQ(e.groups[g].ndur, e.groups[g].n);
    }
    CHECK_EQ(n, 13);
    CHECK_EQ(ns, (3 + 20 + 40 + 21 + 22 + 4 + 5 + 23 + 30 + 24 + 25 + 2 + 35) * 1000LL);
    /* k10 and k11: the same (op, phase, layer, name, CPU op), one group of two */
    int found = 0;
    for (size_t g = 0; g < e.ngroups; g++)
        if (e.groups[g].layer == 1 && e.groups[g].phase == TSQL_PHASE_MIXED) {
            found++;
            CHECK_EQ(e.groups[g].n, 2);
            CHECK_EQ(e.groups[g].dur_ns, 49000);
        }
    CHECK_EQ(found, 1);
    /* forward passes per phase: every event has one (the top module Net_0 runs twice;
     * work between runs belongs to the run before): (prefill, 1) k1-k4, (none, 1) k5 k6,
     * (none, 2) k7, (decode, 2) k8 k9, (mixed, 2) k10-k12, (prefill, 2) k13 */
    CHECK_EQ(e.npasses, 6);
    static const struct {
        int phase;
        uint32_t pass, n;
    } wp[6] = {{TSQL_PHASE_PREFILL, 1, 4}, {TSQL_PHASE_NONE, 1, 2}, {TSQL_PHASE_NONE, 2, 1},
               {TSQL_PHASE_DECODE, 2, 2},  {TSQL_PHASE_MIXED, 2, 3}, {TSQL_PHASE_PREFILL, 2, 1}};
    for (size_t p = 0; p < e.npasses && p < 6; p++) {
        CHECK_EQ(e.passes[p].phase, wp[p].phase);
        CHECK_EQ(e.passes[p].pass, wp[p].pass);
        CHECK_EQ(e.passes[p].n, wp[p].n);
    }
    /* how the phases were found: markers (k1-k4, k8, k10, k11... see make_module_trace.py) */
    CHECK_EQ(e.phase_src[0], TSQL_PSRC_MARKERS);
    CHECK_EQ(e.phase_src[8], TSQL_PSRC_KERNEL_NAMES);
    CHECK_EQ(e.phase_src[4], TSQL_PSRC_NONE);
    /* kernel pairs: by (layer, op, k, name) over both passes, with the first position */
    tsql_cmp_kernel_group *kg = NULL;
    size_t nkg = 0;
    CHECK_EQ(tsql_cmp_kernel_groups(t, &e, -1, &kg, &nkg), 0);
    CHECK_EQ(nkg, 5);
    static const struct {
        int32_t layer;
        const char *op;
        uint32_t k, n, pos;
        int64_t dur_ns;
    } wk[5] = {
        {0, "GEMM", 1, 2, 1, 43000},      /* k2 + k8 */
        {0, "Attention", 1, 1, 2, 40000}, /* k3 (flash_fwd) */
        {1, "GEMM", 1, 2, 1, 45000},      /* k4 + k10 */
        {0, "Attention", 1, 1, 2, 30000}, /* k9 (another name) */
        {1, "GEMM", 2, 1, 2, 25000},      /* k11: the second GEMM of layer 1 in pass 2 */
    };
    for (size_t i = 0; i < nkg && i < 5; i++) {
        CHECK_EQ(kg[i].layer, wk[i].layer);
        CHECK_STR(tsql_kop_labels[kg[i].op], wk[i].op);
        CHECK_EQ(kg[i].k, wk[i].k);
        CHECK_EQ(kg[i].n, wk[i].n);
        CHECK_EQ(kg[i].pos, wk[i].pos);
        CHECK_EQ(kg[i].dur_ns, wk[i].dur_ns);
    }
    free(kg);
    /* under the decode filter: k8 and k9 only, numbered again */
    CHECK_EQ(tsql_cmp_kernel_groups(t, &e, TSQL_PHASE_DECODE, &kg, &nkg), 0);
    CHECK_EQ(nkg, 2);
    if (nkg == 2) {
        CHECK_EQ(kg[0].pos, 1);
        CHECK_EQ(kg[0].dur_ns, 23000);
        CHECK_EQ(kg[1].pos, 2);
        CHECK_EQ(kg[1].dur_ns, 30000);
    }
    free(kg);
    tsql_cmp_events_free(&e);
    CHECK_EQ(e.n, 0);
    tsql_trace_free(t);
}

static void test_patterns(tsql_kop_rules *rules)
{
    tsql_error err = {0};
    tsql_trace *t = tsql_trace_load("tests/sql/compare/sglang_like.json", NULL, &err);
    CHECK(t != NULL);
    if (!t) return;
    tsql_cmp_events e;
    CHECK_EQ(tsql_cmp_events_build(t, rules, &e), 0);
    CHECK_EQ(e.module_layers, 0);
    /* two steps, each: 2 layers of 6 kernels (norm, gemm, attention, gemm, norm, gemm),
     * then the final norm and the LM head, outside the layers */
    CHECK_EQ(e.n, 2 * 14);
    uint32_t per_layer[2][2] = {{0, 0}, {0, 0}}, outside = 0;
    for (uint32_t i = 0; i < e.n; i++) {
        CHECK_EQ(e.pass[i], e.step[i]); /* one run of layers per step: its pass */
        if (e.layer[i] < 0) {
            outside++;
            continue;
        }
        CHECK(e.layer[i] < 2 && e.pass[i] >= 1 && e.pass[i] <= 2);
        if (e.layer[i] < 2 && e.pass[i] >= 1 && e.pass[i] <= 2) per_layer[e.pass[i] - 1][e.layer[i]]++;
    }
    for (int p = 0; p < 2; p++)
        for (int l = 0; l < 2; l++) CHECK_EQ(per_layer[p][l], 6);
    CHECK_EQ(outside, 4);
    /* phases from the SGLang markers: step 1 prefill, step 2 decode */
    for (uint32_t i = 0; i < e.n; i++)
        CHECK_EQ(e.phase[i], e.step[i] == 1 ? TSQL_PHASE_PREFILL : TSQL_PHASE_DECODE);
    tsql_cmp_events_free(&e);
    tsql_trace_free(t);
}

/* tests/data/compare/huge.json: two kernels of 9e15 µs in one group; their ns sum
 * exceeds int64 and saturates at its maximum instead of wrapping negative */
static void test_huge_durations(tsql_kop_rules *rules)
{
    tsql_error err = {0};
    tsql_trace *t = tsql_trace_load("tests/data/compare/huge.json", NULL, &err);
    CHECK(t != NULL);
    if (!t) return;
    tsql_cmp_events e;
    CHECK_EQ(tsql_cmp_events_build(t, rules, &e), 0);
    CHECK_EQ(e.ngroups, 1);
    if (e.ngroups == 1) {
        CHECK_EQ(e.groups[0].n, 2);
        CHECK_EQ(e.groups[0].ndur, 2);
        CHECK(e.groups[0].dur_ns == INT64_MAX);
    }
    tsql_cmp_events_free(&e);
    tsql_trace_free(t);
}

/* tests/data/compare/generate.json and towers.json (make_structure_traces.py): forward
 * passes of the top module, phases from the attention query length, layers of two towers */
static void test_structure(tsql_kop_rules *rules)
{
    tsql_error err = {0};
    tsql_trace *t = tsql_trace_load("tests/data/compare/generate.json", NULL, &err);
    CHECK(t != NULL);
    if (!t) return;
    tsql_cmp_events e;
    CHECK_EQ(tsql_cmp_events_build(t, rules, &e), 0);
    CHECK_EQ(e.module_layers, 1);
    uint32_t per_pass[5] = {0};
    for (uint32_t i = 0; i < e.n; i++) {
        CHECK(e.pass[i] >= 1 && e.pass[i] <= 4);
        if (e.pass[i] < 1 || e.pass[i] > 4) continue;
        per_pass[e.pass[i]]++;
        int want = e.pass[i] == 1 ? TSQL_PHASE_PREFILL : e.pass[i] == 4 ? TSQL_PHASE_NONE : TSQL_PHASE_DECODE;
        CHECK_EQ(e.phase[i], want);
        CHECK_EQ(e.phase_src[i], want ? TSQL_PSRC_SHAPES : TSQL_PSRC_NONE);
    }
    CHECK_EQ(per_pass[1], 9); /* setup + embedding + 2 layers of 3 + sampling */
    CHECK_EQ(per_pass[2], 8);
    CHECK_EQ(per_pass[4], 6); /* no attention */
    tsql_cmp_events_free(&e);
    tsql_trace_free(t);

    t = tsql_trace_load("tests/data/compare/towers.json", NULL, &err);
    CHECK(t != NULL);
    if (!t) return;
    CHECK_EQ(tsql_cmp_events_build(t, rules, &e), 0);
    int32_t maxl = -1;
    uint32_t outside = 0;
    for (uint32_t i = 0; i < e.n; i++) {
        if (e.layer[i] > maxl) maxl = e.layer[i];
        if (e.layer[i] < 0) outside++;
    }
    CHECK_EQ(maxl, 4); /* 3 vision + 2 text layers: 0..4 */
    CHECK_EQ(outside, 1); /* the head */
    tsql_cmp_events_free(&e);
    tsql_trace_free(t);
}

int main(void)
{
    tsql_kop_rules *rules = test_rules();
    if (rules) {
        test_modules(rules);
        test_patterns(rules);
        test_huge_durations(rules);
        test_structure(rules);
        tsql_kop_rules_free(rules);
    }
    return check_report("test_compare_events");
}
