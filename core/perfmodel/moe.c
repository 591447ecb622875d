/*
 * moe.c — mixture-of-experts models (docs/perf-models.md "MoE"): fused kernels
 * (aiter fused MoE, fmoe g1u1), two-stage "unfused" GEMMs (aiter ck / cktile stages,
 * the Triton / GPTQ-AWQ / flydsl pseudo ops, sglang's invoke_fused_moe_kernel) and the
 * auxiliary ops (top-k, sorting, shared-expert append).
 *
 * M tokens, K hidden dim, N intermediate dim, E experts, k top-k, g = 2 when gated;
 * Eact = E·(1 − ((E−k)/E)^M) experts are expected to be touched:
 *   fused   F = 2·M·K·N·k·g + 2·M·K·N·k + M·K·(2k−1)
 *           B = M·K·ib + Eact·N·K·wb·g + Eact·N·K·wb + M·K·ob
 *   up      F = 2·M·K·N·k·g          B = M·K·ib + Eact·g·K·N·wb + M·N·k·ob
 *   down    F = 2·M·N·K·k            B = M·N·k·ib + Eact·N·K·wb + M·K·ob
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "perfmodel/extension.h"
#include "perfmodel/inference_formulas.h"

enum { FUSED, UP, DOWN };

typedef struct moe {
    int kind;
    int64_t M, K, N, E, k;
    int gated;
    double ib, wb, ob;
} moe;

double tsql_moe_active_experts(int64_t E, int64_t topk, int64_t M)
{
    return (double)E * (1.0 - pow((double)(E - topk) / (double)E, (double)M));
}

static int64_t mulc(int *o, int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r)) *o = 1;
    return r;
}

int tsql_moe_eval(int kind, int64_t M, int64_t K, int64_t N, int64_t E, int64_t topk, int gated, double ib,
                  double wb, double ob, int64_t *flops, double *bytes)
{
    int o = 0;
    int64_t g = gated ? 2 : 1, f;
    double m = (double)M, k = (double)K, n = (double)N, ea = tsql_moe_active_experts(E, topk, M);
#define X(a, b) mulc(&o, (a), (b))
    /* left to right as Python evaluates it: this fixes the last digit of the doubles */
    if (kind == TSQL_MOE_FUSED) {
        int64_t up = X(X(X(X(X(2, M), K), N), topk), g), down = X(X(X(X(2, M), K), N), topk);
        if (__builtin_add_overflow(up, down, &f) || __builtin_add_overflow(f, X(X(M, K), 2 * topk - 1), &f)) o = 1;
        *bytes = m * k * ib + ea * n * k * wb * (double)g + ea * n * k * wb + m * k * ob;
    } else if (kind == TSQL_MOE_UP) {
        f = X(X(X(X(X(2, M), K), N), topk), g);
        *bytes = m * k * ib + ea * (double)g * k * n * wb + m * n * (double)topk * ob;
    } else {
        f = X(X(X(X(2, M), N), K), topk);
        *bytes = m * n * (double)topk * ib + ea * n * k * wb + m * k * ob;
    }
#undef X
    *flops = f;
    return o ? -1 : 0;
}

static int finish(pm_ctx *c, const moe *m, const char *precision)
{
    int64_t f;
    double b;
    int kind = m->kind == FUSED ? TSQL_MOE_FUSED : m->kind == UP ? TSQL_MOE_UP : TSQL_MOE_DOWN;
    if (tsql_moe_eval(kind, m->M, m->K, m->N, m->E, m->k, m->gated, m->ib, m->wb, m->ob, &f, &b))
        return PM_FAIL(c, "%s: a count does not fit in 64 bits", c->name);
    pm_spec_raw(c, "matrix", precision);
    return pm_done(c, (double)f, b);
}

static int params(pm_ctx *c, const moe *m, int with_gated, const char *in, const char *w, const char *out,
                  int n_dtypes)
{
    if (pm_p_int(c, "num_tokens", m->M) || pm_p_int(c, "hidden_dim", m->K) || pm_p_int(c, "inter_dim", m->N) ||
        pm_p_int(c, "num_experts", m->E) || pm_p_int(c, "topk", m->k) ||
        (with_gated && pm_p_bool(c, "gated", m->gated)))
        return -1;
    if (n_dtypes >= 1 && pm_p_str(c, "input_dtype", in)) return -1;
    if (n_dtypes >= 2 && pm_p_str(c, "weight_dtype", w)) return -1;
    if (n_dtypes >= 3 && pm_p_str(c, "output_dtype", out)) return -1;
    return 0;
}

/* (E, ., .) / (., K, N0): N = N0·(K // w1[2]) ; gated when w1[1] == 2N */
static int fused_weights(pm_ctx *c, int i1, int i2, moe *m)
{
    pm_shape w1, w2;
    if (pm_dims_n(c, i1, 3, &w1) || pm_dims_n(c, i2, 3, &w2)) return -1;
    if (w1.d[2] == 0) return pm_err(c, "%s: weight inner size 0", c->name);
    m->E = w1.d[0], m->K = w2.d[1];
    m->N = pm_mul(c, w2.d[2], m->K / w1.d[2]);
    m->gated = w1.d[1] == 2 * m->N;
    return 0;
}

static int64_t int_arg(pm_ctx *c, const char *key, int *found)
{
    const cJSON *v = pm_arg(c, key);
    *found = v != NULL;
    if (!v) return 0;
    if (cJSON_IsNumber(v)) return (int64_t)v->valuedouble;
    if (cJSON_IsBool(v)) return cJSON_IsTrue(v);
    if (cJSON_IsString(v)) return strtoll(v->valuestring, NULL, 10);
    return 0;
}

static int triton_unfused(pm_ctx *c, int up)
{
    moe m = {.kind = up ? UP : DOWN};
    pm_shape x, r;
    if (pm_dims(c, 0, &x) || pm_dims(c, 1, &r)) return pm_status(c);
    if (x.n < 2 || r.n < 2) return PM_FAIL(c, "%s: expected (tokens, hidden) and router logits", c->name);
    if (pm_len(c->types) < 2) return PM_FAIL(c, "%s: fewer than 2 input types", c->name);
    int fk, fg;
    m.M = x.d[0], m.K = m.N = x.d[1], m.E = r.d[1];
    m.k = int_arg(c, "MoE topk", &fk);
    m.gated = (int)int_arg(c, "MoE GEMM gated", &fg);
    if (!fk || !fg) return PM_FAIL(c, "%s: args lack \"MoE topk\" / \"MoE GEMM gated\"", c->name);
    if (!c->nkernels || !c->kernels[0]) return PM_FAIL(c, "%s: no kernel to read the weight type from", c->name);
    char low[512];
    size_t i = 0;
    for (const char *p = c->kernels[0]; *p && i + 1 < sizeof low; p++) low[i++] = (char)tolower((unsigned char)*p);
    low[i] = 0;
    const char *wdt = strstr(low, "mxfp4") || strstr(low, "fp4") ? "FP4"
                    : strstr(low, "fp8") || strstr(low, "e4m3") ? "FP8" : NULL;
    const char *in = pm_type_opt(c, 0);
    m.ib = pm_dtb(in, 0), m.wb = pm_dtb(wdt, 0), m.ob = m.ib;
    if (params(c, &m, 1, in, wdt, NULL, 2)) return pm_status(c);
    if (!m.ib || !m.wb) return PM_FAIL(c, "%s: unknown input or weight dtype", c->name);
    return finish(c, &m, tsql_dtype_precision(wdt));
}

static int gptq(pm_ctx *c, int up)
{
    moe m = {.kind = up ? UP : DOWN};
    pm_shape x, w;
    if (pm_dims(c, 0, &x) || pm_dims(c, up ? 1 : 2, &w)) return pm_status(c);
    if (x.n < 2 || w.n < (up ? 2 : 3)) return PM_FAIL(c, "%s: unexpected Input Dims shapes", c->name);
    int fk, fg;
    m.M = x.d[0], m.K = x.d[1], m.E = w.d[0];
    m.k = int_arg(c, "MoE topk", &fk);
    if (!fk) return PM_FAIL(c, "%s: args lack \"MoE topk\"", c->name);
    if (up) {
        m.gated = (int)int_arg(c, "MoE GEMM gated", &fg);
        if (!fg) m.gated = 1;
        m.N = m.gated ? w.d[1] / 2 : w.d[1];
    } else {
        m.N = pm_mul(c, w.d[2], 2);
    }
    const char *in = c->types ? pm_type_opt(c, 0) : "BFloat16";
    m.ib = pm_dtb(in, 2), m.wb = 0.5, m.ob = m.ib;
    if (params(c, &m, up, in, NULL, NULL, 1)) return pm_status(c);
    return finish(c, &m, tsql_dtype_precision(in));
}

static int invoke_fused_moe(pm_ctx *c)
{
    if (pm_len(c->dims) < 9) return PM_FAIL(c, "%s: fewer than 9 Input Dims", c->name);
    pm_shape w, t;
    if (pm_dims_n(c, 1, 3, &w) || pm_dims_n(c, 8, 2, &t)) return pm_status(c);
    int64_t E = w.d[0], N = w.d[1], K = w.d[2], T = t.d[0], k = t.d[1], mw = pm_mul(c, T, k);
    const char *in = pm_type_opt(c, 0), *wt = pm_type_opt(c, 1), *o3 = pm_type_opt(c, 3);
    const char *out = o3 && o3[0] ? o3 : in;
    double ib = pm_dtb(in, 2), wb = pm_dtb(wt, 1), ob = pm_dtb(out, 2);
    if (pm_p_int(c, "m_work", mw) || pm_p_int(c, "num_tokens", T) || pm_p_int(c, "topk", k) ||
        pm_p_int(c, "N", N) || pm_p_int(c, "K", K) || pm_p_int(c, "num_experts", E) ||
        pm_p_str(c, "input_dtype", in) || pm_p_str(c, "weight_dtype", wt) || pm_p_str(c, "output_dtype", out))
        return pm_status(c);
    double e = E > 0 ? tsql_moe_active_experts(E, k, T) : 0;
    int64_t f = pm_mul(c, pm_mul(c, pm_mul(c, 2, mw), N), K);
    double b = (double)mw * (double)K * ib + e * (double)N * (double)K * wb + (double)mw * (double)N * ob;
    pm_spec(c, "matrix", wt);
    return pm_done(c, (double)f, b);
}

/* operands of the top-k / sorting ops: every dims[i] that is a non-empty list of ints */
static int aux_sort(pm_ctx *c)
{
    int n = pm_len(c->dims);
    int64_t maxc = 0, sumb = 0;
    const char *best = NULL;
    int have_best = 0;
    c->t.n = 0;
    int bad = tsql_bputc(&c->t, '[');
    int first = 1;
    for (int i = 0; i < n && !bad; i++) {
        const cJSON *d = cJSON_GetArrayItem(c->dims, i);
        if (!cJSON_IsArray(d) || !cJSON_GetArraySize(d)) continue;
        int ok = 1;
        int64_t cnt = 1;
        for (const cJSON *e = d->child; e && ok; e = e->next) {
            ok = cJSON_IsNumber(e) && e->valuedouble == floor(e->valuedouble);
            if (ok) cnt = pm_mul(c, cnt, (int64_t)e->valuedouble);
        }
        if (!ok) continue;
        const char *ty = pm_type_opt(c, i);
        if (!first) bad |= tsql_bput(&c->t, ", ", 2);
        first = 0;
        bad |= tsql_bput(&c->t, "((", 2);
        int j = 0;
        for (const cJSON *e = d->child; e; e = e->next, j++) {
            if (j) bad |= tsql_bput(&c->t, ", ", 2);
            bad |= tsql_py_put_int(&c->t, (long long)e->valuedouble);
        }
        if (j == 1) bad |= tsql_bputc(&c->t, ',');
        bad |= tsql_bput(&c->t, "), ", 3);
        bad |= ty ? tsql_py_put_str(&c->t, ty, strlen(ty)) : tsql_bputs(&c->t, "None");
        bad |= tsql_bputc(&c->t, ')');
        if (!have_best || cnt > maxc) best = ty, maxc = cnt, have_best = 1;
        int b = pm_bpe(ty);
        if (b) sumb = pm_add(c, sumb, pm_mul(c, cnt, b));
    }
    bad |= tsql_bputc(&c->t, ']');
    if (bad) return pm_nomem(c), pm_status(c);
    if (pm_p_repr(c, "operands", c->t.p)) return pm_status(c);
    pm_spec(c, "vector", best);
    return pm_done(c, (double)maxc, sumb ? (double)sumb : NAN);
}

static int append_shared(pm_ctx *c)
{
    pm_shape a, b;
    if (pm_dims(c, 0, &a)) return pm_status(c);
    if (pm_len(c->dims) > 1 && pm_dims_nonempty(c, 1)) {
        if (pm_dims(c, 1, &b)) return pm_status(c);
    } else {
        b = a;
    }
    int64_t out[PM_MAX_RANK];
    if (tsql_broadcast(a.d, a.n, b.d, b.n, out) < 0)
        return PM_FAIL(c, "%s: the input shapes do not broadcast", c->name);
    const char *t[3];
    t[0] = pm_len(c->types) ? pm_type_opt(c, 0) : "int";
    t[1] = pm_len(c->types) > 1 ? pm_type_opt(c, 1) : "float";
    t[2] = t[1];
    if (pm_p_shape(c, "shape_in1", &a) || pm_p_shape(c, "shape_in2", &b) ||
        pm_p_str_tuple(c, "dtype_in1_in2_out", t, 3) || pm_p_none(c, "stride_input1") ||
        pm_p_none(c, "stride_input2") || pm_p_none(c, "stride_output"))
        return pm_status(c);
    int64_t n1 = pm_numel(c, &a), n2 = pm_numel(c, &b);
    int b1 = pm_bpe(t[0]), b2 = pm_bpe(t[1]);
    int64_t by = pm_mul(c, 2, pm_add(c, pm_mul(c, n1, b1 ? b1 : 4), pm_mul(c, n2, b2 ? b2 : 4)));
    pm_spec(c, "vector", t[1]);
    return pm_done(c, (double)n1, (double)by);
}

int pm_moe(pm_ctx *c)
{
    moe m = {0};
    if (pm_is(c, "moe_triton_unfused_up")) return triton_unfused(c, 1);
    if (pm_is(c, "moe_triton_unfused_down")) return triton_unfused(c, 0);
    if (pm_is(c, "moe_gptq_awq_up")) return gptq(c, 1);
    if (pm_is(c, "moe_gptq_awq_down")) return gptq(c, 0);
    if (pm_is(c, "moe_triton_invoke_grouped_gemm")) return invoke_fused_moe(c);
    if (pm_is(c, "BiasedGroupedTopk") || pm_is(c, "MoeSortScatterGather")) return aux_sort(c);
    if (pm_is(c, "sglang_fused_append_shared_experts")) return append_shared(c);
    int fk = 0;
    pm_shape x;
    if (pm_is(c, "moe_aiter_fused_1stage") || pm_is(c, "moe_flydsl_stage1") || pm_is(c, "moe_flydsl_stage2")) {
        pm_shape r;
        if (pm_dims(c, 0, &x) || fused_weights(c, 1, 2, &m) || pm_dims(c, 3, &r)) return pm_status(c);
        if (x.n < 1 || r.n < 2) return PM_FAIL(c, "%s: unexpected Input Dims shapes", c->name);
        m.M = x.d[0], m.k = r.d[1];
        const char *in = pm_type_opt(c, 0), *w = pm_type_opt(c, 1);
        m.ib = pm_dtb(in, 2), m.wb = pm_dtb(w, 1), m.ob = m.ib;
        m.kind = pm_is(c, "moe_flydsl_stage1") ? UP : pm_is(c, "moe_flydsl_stage2") ? DOWN : FUSED;
        if (params(c, &m, 1, in, w, NULL, 2)) return pm_status(c);
        return finish(c, &m, tsql_dtype_precision(m.kind == FUSED ? in : w));
    }
    if (pm_is(c, "moe_aiter_fused_blockscale")) {
        if (pm_dims(c, 0, &x) || fused_weights(c, 2, 3, &m)) return pm_status(c);
        if (x.n < 1) return PM_FAIL(c, "%s: Input Dims[0] is empty", c->name);
        const char *ck;
        if (pm_conc(c, 8, &ck) || pm_parse_int(c, ck, "topk", &m.k)) return pm_status(c);
        m.M = x.d[0];
        const char *in = pm_type_opt(c, 1), *w = pm_type_opt(c, 2), *out = pm_type_opt(c, 0);
        m.ib = pm_dtb(in, 1), m.wb = pm_dtb(w, 1), m.ob = pm_dtb(out, 2);
        m.kind = FUSED;
        if (params(c, &m, 1, in, w, out, 3)) return pm_status(c);
        const char *pr = tsql_dtype_precision(in);
        if (pr && (!strcmp(pr, "fp8") || !strcmp(pr, "bf16"))) pr = "fp8";
        return finish(c, &m, pr);
    }
    (void)fk;
    pm_shape d0, d1, d2;
    const char *t0 = pm_type_opt(c, 0), *t1 = pm_type_opt(c, 1), *t2 = pm_type_opt(c, 2);
    if (pm_is(c, "moe_aiter_unfused_up")) {
        if (pm_dims_n(c, 0, 2, &d0) || pm_dims_n(c, 1, 3, &d1) || pm_dims_n(c, 2, 3, &d2)) return pm_status(c);
        m = (moe){.kind = UP, .M = d0.d[0], .K = d0.d[1], .E = d1.d[0], .k = d2.d[1], .N = d2.d[2]};
        m.gated = d1.d[1] == 2 * m.N;
        m.ib = pm_dtb(t0, 2), m.wb = pm_dtb(t1, 1), m.ob = pm_dtb(t2, 2);
        if (params(c, &m, 1, t0, t1, t2, 3)) return pm_status(c);
        return finish(c, &m, tsql_dtype_precision(t0));
    }
    if (pm_is(c, "moe_aiter_unfused_down")) {
        if (pm_dims_n(c, 0, 3, &d0) || pm_dims_n(c, 1, 3, &d1)) return pm_status(c);
        m = (moe){.kind = DOWN, .M = d0.d[0], .k = d0.d[1], .N = d0.d[2], .E = d1.d[0], .K = d1.d[1]};
        m.ib = pm_dtb(t0, 2), m.wb = pm_dtb(t1, 1), m.ob = pm_dtb(t2, 2);
        if (params(c, &m, 0, t0, t1, t2, 3)) return pm_status(c);
        return finish(c, &m, tsql_dtype_precision(t0));
    }
    if (pm_is(c, "moe_aiter_ck_stage1")) {
        pm_shape r;
        if (pm_dims(c, 0, &d0) || pm_dims(c, 1, &d1) || pm_dims_n(c, 2, 3, &d2) || pm_dims(c, 6, &r))
            return pm_status(c);
        if (d0.n < 1 || d1.n < 2 || r.n < 2 || d1.d[d1.n - 1] == 0)
            return PM_FAIL(c, "%s: unexpected Input Dims shapes", c->name);
        m = (moe){.kind = UP, .M = d0.d[0], .E = d2.d[0], .K = d2.d[1], .k = r.d[1]};
        m.N = pm_mul(c, d2.d[2], m.K / d1.d[d1.n - 1]);
        m.gated = d1.d[1] == 2 * m.N;
        m.ib = pm_dtb(t0, 2), m.wb = pm_dtb(t1, 1), m.ob = m.ib;
        if (params(c, &m, 1, t0, t1, NULL, 2)) return pm_status(c);
        return finish(c, &m, tsql_dtype_precision(t0));
    }
    if (pm_is(c, "moe_aiter_ck_stage2")) {
        if (pm_dims_n(c, 0, 3, &d0) || pm_dims(c, 1, &d1) || pm_dims_n(c, 2, 3, &d2)) return pm_status(c);
        m = (moe){.kind = DOWN, .M = d0.d[0], .k = d0.d[1], .E = d2.d[0], .K = d2.d[1]};
        int64_t mult = 1;
        if (d1.n) {
            if (d1.d[d1.n - 1] == 0) return PM_FAIL(c, "%s: division by zero", c->name);
            mult = m.K / d1.d[d1.n - 1];
        }
        m.N = pm_mul(c, d0.d[2], mult);
        m.ib = pm_dtb(t0, 2), m.wb = pm_dtb(t2, 1), m.ob = m.ib;
        if (params(c, &m, 0, t0, t2, NULL, 2)) return pm_status(c);
        return finish(c, &m, tsql_dtype_precision(t0));
    }
    return PM_FAIL(c, "%s: no MoE model for class %s", c->name, c->cls);
}
