/*
 * norm_rope.c — the RMSNorm extension family (aiter / vLLM / sglang RMSNorm, fused with
 * a residual add, a quantisation or a padding; sheet RMSNorm) and the RoPE extensions
 * (sgl_kernel / aiter rotary embeddings, fused QK-RoPE + KV-cache writes; docs/perf-models.md).
 *
 *   R(E, C)  = (E / C)·(2·C + 2) + 2·E      (real division: a double)
 *   Rb(E, C) = E·p + E·p + C·p              (input, output, weight)
 * with E the element count, C the channels and p the bytes per element.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "perfmodel/extension.h"
#include "perfmodel/inference_formulas.h"

typedef struct rms {
    pm_shape s;
    const char *dtype;
    int64_t E, C, M;
    int p;
} rms;

/* reads op_shape / dtype / stride from index i, C from dims[ci][0]; adds the
 * parameters */
static int rms_read(pm_ctx *c, int i, int ci, rms *r)
{
    pm_shape ch;
    if (pm_dims(c, i, &r->s) || pm_type(c, i, &r->dtype) || pm_dims(c, ci, &ch)) return -1;
    if (ch.n < 1) return pm_err(c, "%s: Input Dims[%d] is empty", c->name, ci);
    r->C = ch.d[0];
    r->E = pm_numel(c, &r->s);
    if (r->C == 0) return pm_err(c, "%s: 0 channels", c->name);
    r->M = r->E / r->C;
    r->p = pm_bpe(r->dtype);
    const char *dt[2] = {r->dtype, NULL};
    if (pm_p_shape(c, "op_shape", &r->s) || pm_p_str_tuple(c, "dtype_in_out", dt, 2) ||
        pm_p_stride(c, "stride_input", i, PM_KEYOPT) || pm_p_none(c, "stride_output") ||
        pm_p_int(c, "num_channels", r->C) || pm_p_bool(c, "has_bias", 0) || pm_p_bool(c, "is_affine", 1) ||
        pm_p_bool(c, "is_training", 0))
        return -1;
    if (!r->p) return pm_err(c, "%s: unknown bytes per element of %s", c->name, r->dtype ? r->dtype : "None");
    return 0;
}

double tsql_rmsnorm_flops(int64_t E, int64_t C) { return ((double)E / (double)C) * (double)(2 * C + 2) + (double)(E * 2); }

double tsql_rmsnorm_bytes(int64_t E, int64_t C, int64_t bpe) { return (double)(E * bpe + E * bpe + C * bpe); }

static double R(const rms *r) { return tsql_rmsnorm_flops(r->E, r->C); }

/* int(conc[i]) or dflt when missing / not an integer */
static int64_t conc_int_or(pm_ctx *c, int i, int64_t dflt)
{
    const char *s = pm_conc_opt(c, i);
    if (!s) return dflt;
    char *end;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end) return dflt;
    return v;
}

int pm_rmsnorm(pm_ctx *c)
{
    rms r;
    double f, b;
    int64_t E, C, M;
    int p;
#define READ(i, ci) do { if (rms_read(c, (i), (ci), &r)) return pm_status(c); E = r.E, C = r.C, M = r.M, p = r.p; } while (0)
    if (pm_is(c, "aiter_rms_norm")) {
        READ(0, 1);
        f = R(&r), b = tsql_rmsnorm_bytes(E, C, p);
    } else if (pm_is(c, "aiter_rmsnorm")) {
        READ(1, 2);
        f = R(&r), b = tsql_rmsnorm_bytes(E, C, p);
    } else if (pm_is(c, "aiter_rmsnorm2d_fwd_with_add_ck")) {
        READ(1, 4);
        f = (double)E + R(&r), b = (double)((2 * E * p + C * p) + 2 * E * p);
    } else if (pm_is(c, "aiter_rmsnorm2d_fwd_with_dynamicquant_ck")) {
        READ(1, 3);
        f = R(&r) + (double)(2 * E), b = (double)(E * p + C * p + E * 1 + M * 1 * 4);
    } else if (pm_is(c, "aiter_rmsnorm_quant")) {
        READ(1, 3);
        int64_t gs = conc_int_or(c, 5, 0);
        if (gs <= 0) gs = C;
        int64_t ng = (C + gs - 1) / gs;
        f = R(&r) + (double)(2 * E), b = (double)(E * p + C * p + E * 1 + M * ng * 4);
    } else if (pm_is(c, "vllm_rocm_aiter_rmsnorm_fp8_group_quant") ||
               pm_is(c, "vllm_rocm_aiter_rmsnorm_with_add_fp8_group_quant")) {
        int add = pm_is(c, "vllm_rocm_aiter_rmsnorm_with_add_fp8_group_quant");
        READ(0, add ? 2 : 1);
        const char *s;
        int64_t gs;
        if (pm_conc(c, add ? 4 : 3, &s) || pm_parse_int(c, s, "group_size", &gs)) return pm_status(c);
        if (gs == 0) return PM_FAIL(c, "%s: group size 0", c->name);
        int64_t ng = (C + gs - 1) / gs;
        if (add) f = R(&r) + (double)(3 * E), b = (double)(E * p + E * p + C * p + E * 1 + E * p + M * ng * 4);
        else f = R(&r) + (double)(2 * E), b = (double)(E * p + C * p + E * 1 + M * ng * 4);
    } else if (pm_is(c, "vllm_rocm_aiter_triton_add_rmsnorm_pad")) {
        READ(0, 1);
        const char *s;
        int64_t pad;
        if (pm_conc(c, 4, &s) || pm_parse_int(c, s, "pad", &pad)) return pm_status(c);
        int64_t n_out = pad > 0 ? ((C + pad - 1) / pad) * pad : C;
        f = (double)E + R(&r), b = (double)((2 * E * p + C * p) + M * n_out * p + M * C * p);
    } else if (pm_is(c, "fused_rms_mxfp4_quant")) {
        READ(0, 1);
        const cJSON *d3 = pm_at_opt(c->dims, 3), *d6 = pm_at_opt(c->dims, 6);
        int x2 = pm_len(c->dims) > 3 && pm_len(d3) == 2, res = pm_len(c->dims) > 6 && pm_len(d6) == 2;
        int64_t n2 = 0;
        if (x2 && pm_int(c, cJSON_GetArrayItem(d3, 1), "n2", &n2)) return pm_status(c);
        double rr = R(&r);
        f = rr;
        if (res) f += (double)(M * C);
        if (x2) f += (double)(int64_t)(rr * (double)(M * n2) / (double)(E > 1 ? E : 1));
        f += (double)(2 * E);
        int64_t blocks = E / 32; /* one scale byte per 32 elements (floor division) */
        b = (double)(E * p + C * p) + (double)E * 0.5 + (double)blocks;
        if (res) b += (double)(E * p + E * p);
        if (x2) b += (double)(M * n2 * p + n2 * p + M * n2 * p);
    } else {
        return PM_FAIL(c, "%s: no RMSNorm model for class %s", c->name, c->cls);
    }
#undef READ
    pm_spec(c, "vector", r.dtype);
    return pm_done(c, f, b);
}

/* ---- RoPE ---- */

static int rope_mla(pm_ctx *c, int concat)
{
    pm_shape q, pe, kv;
    if (pm_dims_n(c, 0, 3, &q) || pm_dims(c, 1, &pe) || pm_dims(c, 2, &kv)) return pm_status(c);
    if (pe.n < 3 || kv.n < 2) return PM_FAIL(c, "%s: unexpected Input Dims shapes", c->name);
    int64_t T = q.d[0], QH = q.d[1], Dl = q.d[2], Dp = pe.d[2], KH = concat ? 1 : kv.d[1];
    const char *in;
    if (pm_type(c, 0, &in)) return pm_status(c);
    const char *t4 = pm_type_opt(c, 4), *t5 = pm_type_opt(c, 5);
    const char *kvt = t4 && t4[0] ? t4 : in, *out = t5 && t5[0] ? t5 : in;
    if (pm_p_int(c, "T", T) || pm_p_int(c, "QH", QH) || pm_p_int(c, "KH", KH) || pm_p_int(c, "D_lora", Dl) ||
        pm_p_int(c, "D_pe", Dp) || pm_p_str(c, "dtype_in", in) || pm_p_str(c, "dtype_kv", kvt) ||
        (concat && pm_p_str(c, "dtype_out", out)))
        return pm_status(c);
    int64_t f = 3 * (T * QH * Dp + T * KH * Dp);
    int bi = pm_bpe(in), bk = pm_bpe(kvt), bo = concat ? pm_bpe(out) : 0;
    if (!bk) bk = bi;
    if (!bo) bo = bi;
    double b = bi ? (double)((T * QH * Dl + T * QH * Dp) * bi + (T * KH * Dl + T * KH * Dp) * bi +
                             T * QH * (Dl + Dp) * (concat ? bo : bi) + T * KH * (Dl + Dp) * bk)
                  : NAN;
    pm_spec(c, "vector", in);
    return pm_done(c, (double)f, b);
}

int pm_rope_ext(pm_ctx *c)
{
    if (pm_is(c, "aiter_fused_qk_rope_cat_and_cache_mla")) return rope_mla(c, 0);
    if (pm_is(c, "fused_qk_rope_concat_and_cache_mla")) return rope_mla(c, 1);
    int64_t n;
    int bpe;
    const char *dtype;
    if (pm_is(c, "aiter_rope_cached_positions_2c_fwd_impl")) {
        pm_shape x, y;
        if (pm_dims(c, 2, &x) || pm_dims(c, 3, &y)) return pm_status(c);
        n = pm_add(c, pm_numel(c, &x), pm_numel(c, &y));
        if (pm_p_shape(c, "x_shape", &x) || pm_p_shape(c, "y_shape", &y) || pm_p_int(c, "num_elements", n))
            return pm_status(c);
        dtype = pm_len(c->types) ? pm_type_opt(c, 0) : NULL;
        bpe = pm_bpe(dtype);
    } else if (pm_is(c, "sgl_kernel_rotary_embedding")) {
        pm_shape q, k;
        if (pm_dims(c, 1, &q) || pm_dims(c, 2, &k)) return pm_status(c);
        if (q.n < 2 || k.n < 2) return PM_FAIL(c, "%s: unexpected query/key shapes", c->name);
        const char *hs_s = pm_conc_opt(c, 3);
        int64_t hs = q.d[q.n - 1];
        if (hs_s && strspn(hs_s, " \t") != strlen(hs_s) && pm_parse_int(c, hs_s, "head_size", &hs))
            return pm_status(c);
        int64_t rd = hs;
        const cJSON *d4 = pm_at_opt(c->dims, 4);
        if (pm_len(d4) >= 2 && pm_int(c, cJSON_GetArrayItem(d4, 1), "rotary_dim", &rd)) return pm_status(c);
        if (hs == 0) return PM_FAIL(c, "%s: head size 0", c->name);
        n = pm_mul(c, pm_mul(c, q.d[0], q.d[1] / hs + k.d[1] / hs), rd);
        if (pm_p_int(c, "num_elements", n)) return pm_status(c);
        dtype = pm_type_opt(c, 1);
        bpe = pm_bpe(dtype);
    } else {
        return PM_FAIL(c, "%s: no RoPE model for class %s", c->name, c->cls);
    }
    if (!bpe) bpe = 2;
    pm_spec(c, "vector", dtype);
    return pm_done(c, (double)pm_mul(c, 3, n), (double)pm_mul(c, pm_mul(c, 2, n), bpe));
}
