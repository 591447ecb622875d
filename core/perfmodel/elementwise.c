/*
 * elementwise.c — unary and binary elementwise models (reference semantics
 * 7.7): aten unary ops, replication_pad, upsample_nearest, primus_turbo quantizers;
 * aten binary ops with broadcasting and LigerSiLUMulFunction.
 *
 *   unary:  F = E,                Bytes = E·bpe_in + E·bpe_out
 *   binary: F = prod(broadcast),  Bytes = E1·bpe1 + E2·bpe2 + prod(broadcast)·bpe_out
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "perfmodel/internal.h"

int tsql_broadcast(const int64_t *a, int na, const int64_t *b, int nb, int64_t *out)
{
    int n = na > nb ? na : nb;
    if (n > PM_MAX_RANK) return -1;
    for (int i = 0; i < n; i++) {
        int64_t x = i - (n - na) >= 0 ? a[i - (n - na)] : 1;
        int64_t y = i - (n - nb) >= 0 ? b[i - (n - nb)] : 1;
        if (x != y && x != 1 && y != 1) return -1;
        out[i] = x > y ? x : y;
    }
    return n;
}

/* Bytes of a unary op; NAN when a bpe is unknown */
static double unary_bytes(pm_ctx *c, int64_t e, int bpe_in, int bpe_out)
{
    if (!bpe_in || !bpe_out) return NAN;
    return (double)pm_add(c, pm_mul(c, e, bpe_in), pm_mul(c, e, bpe_out));
}

/* aten unary ops: op_shape = dims[0]; output dtype/stride from input 1 when present */
static int unary_aten(pm_ctx *c)
{
    pm_shape s;
    if (!c->dims) return PM_FAIL(c, "%s: args have no \"Input Dims\"", c->name);
    if (pm_dims(c, 0, &s)) return pm_status(c);
    const char *tin, *tout = NULL;
    if (pm_type(c, 0, &tin)) return pm_status(c);
    const cJSON *d1 = pm_at_opt(c->dims, 1);
    int has_out = d1 && ((cJSON_IsArray(d1) && cJSON_GetArraySize(d1) > 0) || cJSON_IsTrue(d1) ||
                         (cJSON_IsNumber(d1) && d1->valuedouble != 0) || (cJSON_IsString(d1) && d1->valuestring[0]));
    if (has_out && pm_type(c, 1, &tout)) return pm_status(c);
    const char *dt[2] = {tin, tout};
    if (pm_p_shape(c, "op_shape", &s) || pm_p_str_tuple(c, "dtype_in_out", dt, 2) ||
        pm_p_stride(c, "stride_input", 0, PM_STRICT) ||
        (has_out ? pm_p_stride(c, "stride_output", 1, PM_STRICT) : pm_p_none(c, "stride_output")))
        return pm_status(c);
    if (!tin) return PM_FAIL(c, "%s: input dtype is None", c->name);
    int64_t e = pm_prod(c, s.d, s.n);
    int bpe_in = pm_bpe(tin), bpe_out = has_out && tout ? pm_bpe(tout) : bpe_in;
    pm_spec(c, "vector", tin);
    return pm_done(c, (double)e, unary_bytes(c, e, bpe_in, bpe_out));
}

/* replication_pad{1,2,3}d and upsample_nearest{1,2,3}d: output shape from conc[1] */
static int unary_resize(pm_ctx *c, int pad)
{
    pm_shape in, out;
    if (!c->dims) return PM_FAIL(c, "%s: args have no \"Input Dims\"", c->name);
    if (pm_dims(c, 0, &in)) return pm_status(c);
    const char *spec, *t0;
    if (pm_conc(c, 1, &spec)) return pm_status(c);
    int64_t v[PM_MAX_RANK];
    int nv;
    if (pm_parse_literal_list(c, spec, pad ? "padding" : "output_size", v, &nv, PM_MAX_RANK)) return pm_status(c);
    out = in;
    if (pad) {
        /* pairs apply innermost-first: pair i widens dimension -1-i */
        for (int i = 0; 2 * i + 1 < nv; i++) {
            int d = in.n - 1 - i;
            if (d < 0) return PM_FAIL(c, "%s: more padding pairs than dimensions", c->name);
            out.d[d] = pm_add(c, out.d[d], pm_add(c, v[2 * i], v[2 * i + 1]));
        }
    } else {
        if (in.n < 2 || 2 + nv > PM_MAX_RANK) return PM_FAIL(c, "%s: cannot form the output shape", c->name);
        out.n = 2 + nv;
        for (int i = 0; i < nv; i++) out.d[2 + i] = v[i];
    }
    if (pm_type(c, 0, &t0)) return pm_status(c);
    const char *dt[2] = {t0, t0};
    if (pm_p_shape(c, "input_shape", &in) || pm_p_shape(c, "output_shape", &out) || pm_p_shape(c, "op_shape", &out) ||
        pm_p_str_tuple(c, "dtype_in_out", dt, 2) || pm_p_stride(c, "stride_input", 0, PM_STRICT) ||
        pm_p_none(c, "stride_output"))
        return pm_status(c);
    if (!t0) return PM_FAIL(c, "%s: input dtype is None", c->name);
    int bpe = pm_bpe(t0);
    int64_t ein = pm_prod(c, in.d, in.n), eout = pm_prod(c, out.d, out.n);
    double bytes = bpe ? (double)pm_add(c, pm_mul(c, ein, bpe), pm_mul(c, eout, bpe)) : NAN;
    pm_spec(c, "vector", t0);
    return pm_done(c, (double)eout, bytes);
}

/* primus_turbo quantizers: fixed output dtype */
static int unary_quant(pm_ctx *c, int mxfp4)
{
    pm_shape s;
    if (!c->dims) return PM_FAIL(c, "%s: args have no \"Input Dims\"", c->name);
    if (pm_dims(c, 0, &s)) return pm_status(c);
    const char *tin;
    if (pm_type(c, 0, &tin)) return pm_status(c);
    const char *tout = mxfp4 ? "c10::Float4_e2m1fn_x2" : "c10::Float8_e4m3fnuz";
    const char *dt[2] = {tin, tout};
    if (pm_p_shape(c, "op_shape", &s) || pm_p_str_tuple(c, "dtype_in_out", dt, 2) ||
        pm_p_stride(c, "stride_input", 0, PM_OPT) || pm_p_none(c, "stride_output"))
        return pm_status(c);
    if (!tin) return PM_FAIL(c, "%s: input dtype is None", c->name);
    int64_t e = pm_prod(c, s.d, s.n);
    int bpe_in = pm_bpe(tin);
    double bytes;
    if (!mxfp4) {
        bytes = unary_bytes(c, e, bpe_in, pm_bpe(tout));
    } else {
        if (s.n != 2) return PM_FAIL(c, "%s: expected a 2-D input, got %d-D", c->name, s.n);
        int64_t M = s.d[0], N = s.d[1], mn = pm_mul(c, M, N);
        if (!bpe_in) bytes = NAN;
        else {
            int64_t b = pm_mul(c, mn, bpe_in);
            int64_t half = (mn + 1) >= 0 ? (mn + 1) / 2 : -((-(mn + 1) + 1) / 2);
            b = pm_add(c, b, pm_mul(c, 2, half));
            b = pm_add(c, b, pm_mul(c, M, (N + 31) / 32));
            b = pm_add(c, b, pm_mul(c, N, (M + 31) / 32));
            bytes = (double)b;
        }
    }
    pm_spec(c, "vector", tin);
    return pm_done(c, (double)e, bytes);
}

int pm_unary(pm_ctx *c)
{
    if (strcmp(c->cls, "aten_unary_elementwise") == 0) return unary_aten(c);
    if (strcmp(c->cls, "aten_replication_pad") == 0) return unary_resize(c, 1);
    if (strcmp(c->cls, "aten_upsample_nearest") == 0) return unary_resize(c, 0);
    if (strcmp(c->cls, "primus_turbo_quantize_fp8") == 0) return unary_quant(c, 0);
    if (strcmp(c->cls, "primus_turbo_quantize_mxfp4_dual") == 0) return unary_quant(c, 1);
    return PM_FAIL(c, "%s: no unary model %s", c->name, c->cls);
}

int pm_binary(pm_ctx *c)
{
    int liger = strcmp(c->cls, "liger_silu_mul_function") == 0;
    pm_shape a, b;
    if (!c->dims) return PM_FAIL(c, "%s: args have no \"Input Dims\"", c->name);
    if (pm_dims(c, 0, &a) || pm_dims(c, 1, &b)) return pm_status(c);
    const char *t[3] = {NULL, NULL, NULL};
    if (pm_type(c, 0, &t[0]) || pm_type(c, 1, &t[1])) return pm_status(c);
    int has_out = 0;
    if (!liger) {
        const cJSON *d2 = pm_at_opt(c->dims, 2);
        has_out = d2 && ((cJSON_IsArray(d2) && cJSON_GetArraySize(d2) > 0) || cJSON_IsTrue(d2) ||
                         (cJSON_IsNumber(d2) && d2->valuedouble != 0) || (cJSON_IsString(d2) && d2->valuestring[0]));
        if (has_out && pm_type(c, 2, &t[2])) return pm_status(c);
    }
    if (pm_p_shape(c, "shape_in1", &a) || pm_p_shape(c, "shape_in2", &b) ||
        pm_p_str_tuple(c, "dtype_in1_in2_out", t, 3) || pm_p_stride(c, "stride_input1", 0, PM_STRICT) ||
        pm_p_stride(c, "stride_input2", 1, PM_STRICT) ||
        (has_out ? pm_p_stride(c, "stride_output", 2, PM_STRICT) : pm_p_none(c, "stride_output")))
        return pm_status(c);
    int64_t bc[PM_MAX_RANK];
    int nbc = tsql_broadcast(a.d, a.n, b.d, b.n, bc);
    if (nbc < 0) return PM_FAIL(c, "%s: shapes not broadcastable", c->name);
    if (!t[0] || !t[1] || (has_out && !t[2])) return PM_FAIL(c, "%s: a dtype is None", c->name);
    int b1 = pm_bpe(t[0]), b2 = pm_bpe(t[1]), bo;
    if (has_out) bo = pm_bpe(t[2]);
    else if (b1 && b2) bo = (a.n > 0 && b.n > 0) ? (b1 > b2 ? b1 : b2) : b1;
    else bo = 0;
    int64_t e1 = pm_prod(c, a.d, a.n), e2 = pm_prod(c, b.d, b.n), eo = pm_prod(c, bc, nbc);
    double bytes = NAN;
    if (b1 && b2 && bo)
        bytes = (double)pm_add(c, pm_add(c, pm_mul(c, e1, b1), pm_mul(c, e2, b2)), pm_mul(c, eo, bo));
    pm_spec(c, "vector", t[0]);
    return pm_done(c, (double)eo, bytes);
}
