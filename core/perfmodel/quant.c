/*
 * quant.c — the element-wise extension models (docs/perf-models.md): per-token /
 * per-group FP8 quantisers (sheet BinaryElementwise), MXFP4 quantisers (GroupQuant),
 * gated activations silu/gelu_and_mul (UnaryElementwise), the sampler
 * mixed_sample_outer_exponential (elementwise), the custom all-reduce / all-gather ops
 * (CustomCollective) and the mHC / top-k softplus ops.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "perfmodel/extension.h"

/* ---- quantisation ---- */

/* MXFP4: F = 2·E, Bytes = E·b + E·0.5 + (E // 32)·1 */
static int mxfp4(pm_ctx *c, int i, int with_stride)
{
    pm_shape s;
    const char *dt;
    if (pm_dims(c, i, &s) || pm_type(c, i, &dt)) return pm_status(c);
    const char *d2[2] = {dt, dt};
    if (pm_p_shape(c, "op_shape", &s) || pm_p_str_tuple(c, "dtype_in_out", d2, 2) ||
        (with_stride ? pm_p_stride(c, "stride_input", i, PM_KEYOPT) : pm_p_none(c, "stride_input")) ||
        pm_p_none(c, "stride_output"))
        return pm_status(c);
    int64_t E = pm_numel(c, &s);
    int b = pm_bpe(dt);
    int64_t blocks = E / 32; /* one scale byte per 32 elements (floor division) */
    pm_spec(c, "vector", dt);
    return pm_done(c, (double)pm_mul(c, 2, E), b ? (double)(E * b) + (double)E * 0.5 + (double)blocks : NAN);
}

int pm_quant(pm_ctx *c)
{
    if (pm_is(c, "per_group_quant")) {
        pm_shape out, in1, in2;
        if (pm_dims(c, 0, &out) || pm_dims(c, 1, &in1) || pm_dims(c, 2, &in2)) return pm_status(c);
        const char *t[3];
        if (pm_type(c, 1, &t[0]) || pm_type(c, 2, &t[1]) || pm_type(c, 0, &t[2])) return pm_status(c);
        if (pm_p_shape(c, "shape_in1", &in1) || pm_p_shape(c, "shape_in2", &in2) ||
            pm_p_shape(c, "shape_out", &out) || pm_p_str_tuple(c, "dtype_in1_in2_out", t, 3) ||
            pm_p_stride(c, "stride_input1", 1, PM_STRICT) || pm_p_stride(c, "stride_input2", 2, PM_STRICT) ||
            pm_p_stride(c, "stride_output", 0, PM_STRICT))
            return pm_status(c);
        int bo = pm_bpe(t[2]), b1 = pm_bpe(t[0]), b2 = pm_bpe(t[1]);
        if (!bo || !b1 || !b2) return PM_FAIL(c, "%s: unknown bytes per element", c->name);
        int64_t no = pm_numel(c, &out), n1 = pm_numel(c, &in1), n2 = pm_numel(c, &in2);
        pm_spec(c, "vector", t[0]);
        return pm_done(c, (double)no * 2.59375, (double)(no * bo + n1 * b1 + n2 * b2));
    }
    if (pm_is(c, "vllm_triton_per_token_group_quant_fp8")) {
        const cJSON *d0 = pm_at_opt(c->dims, 0);
        pm_shape x = {0};
        if (d0 && pm_shape_of(c, d0, "Input Dims[0]", &x)) return pm_status(c);
        int64_t M = 1, N = 1;
        if (x.n >= 2) M = x.d[0], N = x.d[1];
        else if (x.n == 1) N = x.d[0];
        int64_t gs = 128;
        const char *g = pm_conc_opt(c, 1);
        if (g && strcmp(g, "none") != 0 && strcmp(g, "None") != 0) {
            char *end;
            long long v = strtoll(g, &end, 10);
            if (end != g && !*end) gs = v;
        }
        if (gs == 0) return PM_FAIL(c, "%s: group size 0", c->name);
        int64_t ng = (N + gs - 1) / gs;
        if (ng < 1) ng = 1;
        const char *dx = pm_len(c->types) ? pm_type_opt(c, 0) : "";
        const char *t[3] = {dx, NULL, "c10::float8_e4m3fn"};
        pm_shape e = {0};
        if (pm_p_shape(c, "shape_in1", &x) || pm_p_shape(c, "shape_in2", &e) || pm_p_shape(c, "shape_out", &x) ||
            pm_p_str_tuple(c, "dtype_in1_in2_out", t, 3) || pm_p_none(c, "stride_input1") ||
            pm_p_none(c, "stride_input2") || pm_p_none(c, "stride_output"))
            return pm_status(c);
        int b = pm_bpe(dx);
        pm_spec(c, "vector", dx);
        return pm_done(c, (double)(6 * M * N), b ? (double)(M * N * b + M * N * 1 + M * ng * 4) : NAN);
    }
    if (pm_is(c, "fused_flatten_mxfp4_quant") || pm_is(c, "sglang_quant_dynamic_mxfp4_quant")) return mxfp4(c, 0, pm_is(c, "fused_flatten_mxfp4_quant"));
    if (pm_is(c, "fused_dynamic_mx_quant_moe_sort_hip")) return mxfp4(c, 2, 1);
    if (pm_is(c, "aiter_fused_dynamic_mxfp4_quant_moe_sort_hip")) return mxfp4(c, 2, 0);
    if (pm_is(c, "aiter_dynamic_per_group_scaled_quant_fp4")) return mxfp4(c, 1, 0);
    return PM_FAIL(c, "%s: no quantisation model for class %s", c->name, c->cls);
}

/* ---- gated activations: out = act(x[:, :n]) · x[:, n:] ---- */

int pm_activation(pm_ctx *c)
{
    pm_shape s;
    const char *tin, *tout;
    if (pm_dims(c, 0, &s) || pm_type(c, 1, &tin) || pm_type(c, 0, &tout)) return pm_status(c);
    const char *dt[2] = {tin, tout};
    if (pm_p_shape(c, "op_shape", &s) || pm_p_str_tuple(c, "dtype_in_out", dt, 2) ||
        pm_p_stride(c, "stride_input", 1, PM_KEYOPT) || pm_p_stride(c, "stride_output", 0, PM_KEYOPT))
        return pm_status(c);
    int64_t E = pm_numel(c, &s);
    int k = pm_is(c, "aiter_gelu_and_mul") ? 8 : pm_is(c, "aiter_gelu_tanh_and_mul") ? 10 : 5;
    int bi = pm_bpe(tin), bo = pm_bpe(tout);
    if (!bi || !bo) return PM_FAIL(c, "%s: unknown bytes per element", c->name);
    pm_spec(c, "vector", tin);
    return pm_done(c, (double)(k * E), (double)(2 * E * bi + E * bo));
}

/* ---- sampler ---- */

int pm_sampler(pm_ctx *c)
{
    const cJSON *l = pm_at_opt(c->dims, 1);
    int64_t T = 1, V = 1;
    if (pm_len(l) > 0 && pm_int(c, cJSON_GetArrayItem(l, 0), "T", &T)) return pm_status(c);
    if (pm_len(l) > 1 && pm_int(c, cJSON_GetArrayItem(l, 1), "V", &V)) return pm_status(c);
    const char *dl = pm_len(c->types) > 1 ? pm_type_opt(c, 1) : "c10::bfloat16";
    const char *dn = pm_len(c->types) > 2 ? pm_type_opt(c, 2) : "float";
    if (pm_p_int(c, "T", T) || pm_p_int(c, "V", V) || pm_p_str(c, "dtype_logits", dl) ||
        pm_p_str(c, "dtype_noise", dn))
        return pm_status(c);
    int bl = pm_bpe(dl), bn = pm_bpe(dn);
    pm_spec(c, "vector", dl);
    return pm_done(c, (double)(2 * T * V), bl && bn ? (double)(T * V * bl + T * V * bn + T * 4) : NAN);
}

/* ---- custom collectives (no Compute Spec) ---- */

int pm_custom_collective(pm_ctx *c)
{
    pm_shape s, o = {0};
    const char *dt;
    int64_t E, F = 0;
    double b;
    if (pm_is(c, "aiter_fused_allreduce_rmsnorm") || pm_is(c, "aiter_fused_allreduce_rmsnorm_")) {
        int u = pm_is(c, "aiter_fused_allreduce_rmsnorm_");
        int i = u ? 0 : 2, ci = u ? 2 : 6;
        pm_shape ch;
        if (pm_dims(c, i, &s) || pm_type(c, i, &dt) || pm_dims(c, ci, &ch)) return pm_status(c);
        if (ch.n < 1 || ch.d[0] == 0) return PM_FAIL(c, "%s: no channel count", c->name);
        int64_t C = ch.d[0];
        if (pm_p_shape(c, "op_shape", &s) || pm_p_str(c, "dtype_in", dt) ||
            pm_p_stride(c, "stride_input", i, PM_KEYOPT) || pm_p_int(c, "num_channels", C))
            return pm_status(c);
        E = pm_numel(c, &s);
        F = E + (E / C) * (2 * C + 2) + E * 2;
        int p = pm_bpe(dt);
        if (!p) return PM_FAIL(c, "%s: unknown bytes per element", c->name);
        b = (double)((2 * E * p + C * p) + 2 * E * p);
        return pm_done(c, (double)F, b);
    }
    int have_out = 0;
    if (pm_is(c, "sgl_kernel_reg_all_gather_into_tensor")) {
        if (pm_dims(c, 0, &o) || pm_dims(c, 1, &s) || pm_type(c, 0, &dt)) return pm_status(c);
        if (pm_p_shape(c, "out_shape", &o) || pm_p_shape(c, "op_shape", &s) || pm_p_str(c, "dtype_in", dt))
            return pm_status(c);
        have_out = 1;
    } else {
        have_out = pm_is(c, "aiter_reduce_scatter") || pm_is(c, "aiter_all_gather_reg");
        if (pm_dims(c, 1, &s) || (have_out && pm_dims(c, 2, &o)) || pm_type(c, 1, &dt)) return pm_status(c);
        if (pm_p_shape(c, "op_shape", &s) || (have_out && pm_p_shape(c, "out_shape", &o)) ||
            pm_p_str(c, "dtype_in", dt) || pm_p_stride(c, "stride_input", 1, PM_KEYOPT))
            return pm_status(c);
    }
    E = pm_numel(c, &s);
    int p = pm_bpe(dt);
    if (!p) return PM_FAIL(c, "%s: unknown bytes per element", c->name);
    b = have_out ? (double)((E + pm_numel(c, &o)) * p) : (double)(2 * E * p);
    return pm_done(c, 0, b);
}

/* ---- mHC and top-k softplus ---- */

/* dims[i][j] */
static int dim_at(pm_ctx *c, int i, int j, int64_t *out)
{
    pm_shape s;
    if (pm_dims(c, i, &s)) return -1;
    if (j >= s.n) return pm_err(c, "%s: Input Dims[%d] has no entry %d", c->name, i, j);
    *out = s.d[j];
    return 0;
}

int pm_mhc(pm_ctx *c)
{
    int64_t M = 0, n = 1, C = 0, hc3 = 0, K = 0, sk = 0, topk = 0, E = 0;
    int ti, has_hc3 = 1, matrix = 0;
    const char *maf;
    if (pm_is(c, "mhc_post")) {
        if (dim_at(c, 1, 0, &M) || dim_at(c, 0, 1, &n) || dim_at(c, 1, 1, &C)) return pm_status(c);
        ti = 1, has_hc3 = 0;
    } else if (pm_is(c, "mhc_pre_gemm_sqrsum")) {
        if (dim_at(c, 2, 0, &M) || dim_at(c, 2, 1, &n) || dim_at(c, 2, 2, &C) || dim_at(c, 3, 0, &hc3) ||
            dim_at(c, 3, 1, &K) || dim_at(c, 0, 0, &sk))
            return pm_status(c);
        ti = 2, matrix = 1;
    } else if (pm_is(c, "mhc_pre_big_fuse_rmsnorm")) {
        if (dim_at(c, 2, 0, &M) || dim_at(c, 2, 1, &C) || dim_at(c, 0, 1, &n) || dim_at(c, 6, 0, &hc3) ||
            dim_at(c, 3, 0, &sk))
            return pm_status(c);
        ti = 7;
    } else if (pm_is(c, "mhc_fused_post_pre_gemm_sqrsum")) {
        if (dim_at(c, 3, 0, &M) || dim_at(c, 3, 1, &C) || dim_at(c, 2, 1, &n) || dim_at(c, 7, 0, &hc3) ||
            dim_at(c, 7, 1, &K) || dim_at(c, 0, 0, &sk))
            return pm_status(c);
        ti = 3, matrix = 1;
    } else if (pm_is(c, "topk_softplus")) {
        if (dim_at(c, 2, 0, &M) || dim_at(c, 2, 1, &E) || dim_at(c, 0, 1, &topk)) return pm_status(c);
        C = E, ti = 2;
    } else {
        return PM_FAIL(c, "%s: no mHC model for class %s", c->name, c->cls);
    }
    const char *dt = pm_len(c->types) > ti ? pm_type_opt(c, ti) : "c10::BFloat16";
    int b = pm_bpe(dt);
    maf = matrix ? "matrix" : "vector";
    int64_t F;
    double B = NAN;
    if (pm_is(c, "topk_softplus")) {
        if (pm_p_int(c, "M", M) || pm_p_int(c, "E", E) || pm_p_int(c, "n", 1) || pm_p_int(c, "C", C) ||
            pm_p_int(c, "topk", topk) || pm_p_str(c, "dtype_in", dt))
            return pm_status(c);
        F = 6 * M * E;
        if (b) B = (double)(M * E * b + E * 4 + M * topk * 4 + M * topk * 4);
    } else {
        /* parameter order: M, n, C for post / pre_gemm; M, C, n for the fused ones */
        int mcn = pm_is(c, "mhc_pre_big_fuse_rmsnorm") || pm_is(c, "mhc_fused_post_pre_gemm_sqrsum");
        if (pm_p_int(c, "M", M) || (mcn ? pm_p_int(c, "C", C) || pm_p_int(c, "n", n)
                                        : pm_p_int(c, "n", n) || pm_p_int(c, "C", C)) ||
            (has_hc3 ? pm_p_int(c, "hc3", hc3) : pm_p_none(c, "hc3")))
            return pm_status(c);
        if (pm_is(c, "mhc_pre_gemm_sqrsum") || pm_is(c, "mhc_fused_post_pre_gemm_sqrsum")) {
            if (pm_p_int(c, "K", K) || pm_p_int(c, "split_k", sk)) return pm_status(c);
        } else if (pm_is(c, "mhc_pre_big_fuse_rmsnorm") && pm_p_int(c, "split_k", sk)) {
            return pm_status(c);
        }
        if (pm_p_str(c, "dtype_in", dt)) return pm_status(c);
        int64_t mn4 = M * n * 4 + M * n * n * 4;
        if (pm_is(c, "mhc_post")) {
            F = 2 * M * n * C * (n + 1);
            if (b) B = (double)(M * C * b + M * n * C * b + mn4 + M * n * C * b);
        } else if (pm_is(c, "mhc_pre_gemm_sqrsum")) {
            F = 2 * M * hc3 * K;
            if (b) B = (double)(M * n * C * b + hc3 * K * 4 + sk * M * hc3 * 4 + sk * M * 4);
        } else if (pm_is(c, "mhc_pre_big_fuse_rmsnorm")) {
            F = 2 * M * C * n + 5 * M * C;
            if (b) B = (double)(M * n * C * b + sk * M * hc3 * 4 + C * b + M * C * b + mn4);
        } else {
            F = 2 * M * n * C * (n + 1) + 2 * M * hc3 * K;
            if (b) B = (double)(M * C * b + 3 * (M * n * C * b) + mn4 + hc3 * K * 4 + (sk * M * hc3 * 4 + sk * M * 4));
        }
    }
    pm_spec(c, maf, dt);
    return pm_done(c, (double)F, B);
}
