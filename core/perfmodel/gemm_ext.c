/*
 * gemm_ext.c — the GEMMs of TraceLens's extensions (aiter a16w16 / a8w8-blockscale /
 * FP4 GEMMs, vLLM's unquantized ROCm GEMM, batched FP4 / FP8 GEMMs; sheet GEMM,
 * docs/perf-models.md). Formulas are the core GEMM's:
 *   F = 2·M·N·K + (M·N if bias),  Bytes = M·K·b1 + K·N·b2 + M·N·bo + (N·bb if bias)
 * (× B for the batched ones); the bytes per element may be 0.5 (FP4), making Bytes a
 * double.
 */
#include <math.h>
#include <string.h>

#include "perfmodel/extension.h"

typedef struct xg {
    int64_t B, M, N, K;
    int bias, batched;
    double b1, b2, bo, bb;     /* 0 = unknown (Bytes null) */
    const char *dt[3];
    int has_precision;         /* precision below is the model's (NULL → no spec); else
                                  the precision of dt[0] when non-empty */
    const char *precision;
} xg;

static int finish(pm_ctx *c, const xg *g)
{
    if (pm_gemm_common_params(c)) return pm_status(c);
    int64_t f = pm_mul(c, pm_mul(c, pm_mul(c, 2, g->M), g->N), g->K);
    if (g->bias) f = pm_add(c, f, pm_mul(c, g->M, g->N));
    double b = NAN;
    if (g->b1 && g->b2 && g->bo && g->bb) {
        double M = (double)g->M, N = (double)g->N, K = (double)g->K;
        b = M * K * g->b1 + K * N * g->b2 + M * N * g->bo + (g->bias ? N : 0) * g->bb;
    }
    if (g->batched) {
        f = pm_mul(c, g->B, f);
        b = (double)g->B * b;
    }
    if (g->has_precision) pm_spec_raw(c, "matrix", g->precision);
    else if (g->dt[0] && g->dt[0][0]) pm_spec(c, "matrix", g->dt[0]);
    return pm_done(c, (double)f, b);
}

/* "B, M, N, K, bias, dtype_A_B" */
static int std_params(pm_ctx *c, const xg *g)
{
    if (pm_p_int(c, "B", g->B) || pm_p_int(c, "M", g->M) || pm_p_int(c, "N", g->N) || pm_p_int(c, "K", g->K) ||
        pm_p_bool(c, "bias", g->bias) || pm_p_str_tuple(c, "dtype_A_B", g->dt, 3))
        return -1;
    return 0;
}

static const char *or_empty(const char *s) { return s ? s : ""; }

/* integer ceiling of a / b; -1 when b is 0 */
static int64_t ceil_div(int64_t a, int64_t b) { return b ? (a + b - 1) / b : -1; }

static int blockscale(pm_ctx *c)
{
    pm_shape a, w;
    if (pm_dims(c, 0, &a) || pm_dims(c, 1, &w)) return pm_status(c);
    if (a.n < 2 || w.n < 1) return PM_FAIL(c, "%s: unexpected A / B shapes", c->name);
    xg g = {.B = 1, .M = a.d[0], .K = a.d[1], .N = w.d[0]};
    const char *t0 = pm_type_opt(c, 0), *t1 = pm_type_opt(c, 1);
    g.dt[0] = or_empty(t0), g.dt[1] = or_empty(t1), g.dt[2] = "c10::bfloat16";
    g.b1 = pm_bpe(t0), g.b2 = pm_bpe(t1), g.bo = g.bb = 2;
    if (std_params(c, &g)) return pm_status(c);
    if (pm_len(c->dims) > 3) {
        pm_shape s2, s3;
        if (pm_dims(c, 2, &s2) || pm_dims(c, 3, &s3)) return pm_status(c);
        int64_t bk = s2.n ? ceil_div(g.K, s2.d[s2.n - 1]) : -1, bn = s3.n ? ceil_div(g.N, s3.d[0]) : -1;
        const char *sd = pm_len(c->types) > 2 ? pm_type_opt(c, 2) : "float32";
        if (pm_p_str(c, "quant_scheme", "a8w8_blockscale") || pm_p_str(c, "quant_granularity", "per_block") ||
            (bk >= 0 ? pm_p_int(c, "block_k", bk) : pm_p_none(c, "block_k")) ||
            (bn >= 0 ? pm_p_int(c, "block_n", bn) : pm_p_none(c, "block_n")) || pm_p_str(c, "scale_dtype", sd))
            return pm_status(c);
    }
    pm_shape o = {.n = 2, .d = {g.M, g.N}};
    if (pm_p_shape(c, "output_shape", &o) || pm_p_str(c, "output_dtype", "c10::bfloat16")) return pm_status(c);
    return finish(c, &g);
}

int pm_gemm_ext(pm_ctx *c)
{
    if (pm_is(c, "gemm_a8w8_blockscale")) return blockscale(c);
    pm_shape a, w;
    if (pm_dims(c, 0, &a) || pm_dims(c, 1, &w)) return pm_status(c);
    const char *t0 = pm_type_opt(c, 0), *t1 = pm_type_opt(c, 1), *t2 = pm_type_opt(c, 2);
    int nt = pm_len(c->types);
    xg g = {.B = 1};
    if (pm_is(c, "batched_gemm_a16wfp4") || pm_is(c, "batched_gemm_a8w8")) {
        if (a.n < 3 || w.n < 2) return PM_FAIL(c, "%s: expected 3-D A and B", c->name);
        int fp4 = pm_is(c, "batched_gemm_a16wfp4");
        g.batched = 1;
        if (fp4) g.B = a.d[0], g.M = a.d[1], g.N = w.d[1], g.K = a.d[2];
        else g.B = w.d[0], g.N = w.d[1], g.K = a.d[2], g.M = a.d[0] == g.B ? a.d[1] : a.d[0];
        g.dt[0] = t0, g.dt[1] = t1, g.dt[2] = "c10::bfloat16";
        g.b1 = pm_bpe(t0), g.b2 = fp4 ? 0.5 : pm_bpe(t1), g.bo = g.bb = 2;
        g.has_precision = 1, g.precision = fp4 ? "fp4" : tsql_dtype_precision(t1);
        if (std_params(c, &g)) return pm_status(c);
        return finish(c, &g);
    }
    if (a.n < 2 || w.n < 1) return PM_FAIL(c, "%s: unexpected A / B shapes", c->name);
    g.M = a.d[0], g.N = w.d[0], g.K = a.d[1];
    int unq = pm_is(c, "vllm_rocm_unquantized_gemm");
    if (unq || pm_is(c, "gemm_a16w16")) {
        g.bias = pm_len(c->dims) > 2 && pm_dims_nonempty(c, 2);
        g.dt[0] = t0, g.dt[1] = t1, g.dt[2] = unq ? (nt > 2 ? t2 : "") : t0;
        g.b1 = pm_bpe(t0), g.b2 = pm_bpe(t1);
        g.bo = g.bb = unq ? (g.bias ? pm_bpe(t2) : pm_bpe(t1)) : pm_bpe(g.dt[2]);
        if (unq) {
            if (pm_p_int(c, "M", g.M) || pm_p_int(c, "N", g.N) || pm_p_int(c, "K", g.K) ||
                pm_p_bool(c, "bias", g.bias) || pm_p_str_tuple(c, "dtype_A_B", g.dt, 3))
                return pm_status(c);
        } else if (std_params(c, &g)) {
            return pm_status(c);
        }
        return finish(c, &g);
    }
    if (pm_is(c, "gemm_a16w16_atomic_")) {
        g.dt[0] = t0, g.dt[1] = t1, g.dt[2] = nt >= 4 ? pm_type_opt(c, 3) : "c10::bfloat16";
    } else if (pm_is(c, "gemm_a16w16_asm")) {
        g.dt[0] = t0, g.dt[1] = t1, g.dt[2] = nt > 2 && pm_bpe(t2) ? t2 : t0;
    } else if (pm_is(c, "gemm_afp4wfp4")) {
        g.K = pm_mul(c, 2, a.d[1]);
        g.dt[0] = t0, g.dt[1] = t1, g.dt[2] = "c10::bfloat16";
        g.b1 = g.b2 = 0.5, g.bo = g.bb = 2, g.has_precision = 1, g.precision = "fp4";
        if (std_params(c, &g)) return pm_status(c);
        return finish(c, &g);
    } else {
        return PM_FAIL(c, "%s: no GEMM model for class %s", c->name, c->cls);
    }
    g.b1 = pm_bpe(t0), g.b2 = pm_bpe(t1), g.bo = g.bb = pm_bpe(g.dt[2]);
    if (std_params(c, &g)) return pm_status(c);
    return finish(c, &g);
}
