/*
 * sdpa.c — scaled-dot-product attention family (reference semantics 7.6):
 * the aten SDPA ops, flash-attn (incl. varlen), aiter and FA3 entry points, Evoformer.
 *
 *   F     = B·H_Q·2·N_Q·N_KV·(d_qk + d_v)                  (÷ 2 if causal)
 *   Bytes = (B·N_Q·H_Q·d_qk + B·N_KV·H_KV·(d_qk + d_v) + B·N_Q·H_Q·d_v) · bpe,  bpe = 2
 * plus the backward formulas (recompute, dV, dP, dQ, dK, GQA reductions).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "perfmodel/internal.h"

/* ---- formulas ---- */

/* SDPA.flops_func / flops_bwd_func in doubles: exact for counts below 2^53, and the
 * varlen split passes real-valued lengths exactly like Python does. */
static double sdpa_f(double B, double NQ, double HQ, double NKV, double HKV, double dqk, double dv,
                     int causal, int bwd, int flash, const char **err)
{
    double f;
    if (!bwd) {
        f = B * HQ * (2 * NQ * NKV * dqk) + B * HQ * (2 * NQ * dv * NKV);
    } else {
        double g = floor(HQ / HKV) - 1; /* H_Q // H_KV − 1 */
        f = 0;
        if (flash) f += B * HQ * (2 * NQ * NKV * dqk);
        f += B * HQ * (2 * NKV * NQ * dv) + B * NKV * dv * g;
        f += B * HQ * (2 * NQ * NKV * dv);
        f += B * HQ * (2 * NQ * NKV * dqk);
        f += B * HQ * (2 * NKV * NQ * dqk) + B * NKV * dqk * g;
    }
    if (causal) {
        if (NQ != NKV) {
            *err = "causal=True but N_Q != N_KV";
            return NAN;
        }
        f /= 2;
    }
    return f;
}

int tsql_sdpa_flops(const tsql_sdpa_dims *d, int bwd, double *flops, const char **err)
{
    if (bwd && d->H_KV == 0) {
        *err = "division by zero (H_KV is 0)";
        return -1;
    }
    /* integer path (exact like Python ints), then the causal halving */
    tsql_perf p;
    tsql_perf_init(&p);
    pm_ctx c = {.p = &p, .name = "sdpa"};
    int64_t B = d->B, NQ = d->N_Q, HQ = d->H_Q, NKV = d->N_KV, HKV = d->H_KV, dqk = d->d_h_qk, dv = d->d_h_v;
    int64_t qk = pm_mul(&c, pm_mul(&c, pm_mul(&c, B, HQ), 2), pm_mul(&c, pm_mul(&c, NQ, NKV), dqk));
    int64_t pv = pm_mul(&c, pm_mul(&c, pm_mul(&c, B, HQ), 2), pm_mul(&c, pm_mul(&c, NQ, NKV), dv));
    int64_t f;
    if (!bwd) {
        f = pm_add(&c, qk, pv);
    } else {
        int64_t q = HQ / HKV;
        if ((HQ % HKV != 0) && ((HQ < 0) != (HKV < 0))) q--; /* floor division */
        int64_t g = q - 1;
        f = d->flash_impl ? qk : 0;
        f = pm_add(&c, f, pm_add(&c, pv, pm_mul(&c, pm_mul(&c, pm_mul(&c, B, NKV), dv), g)));
        f = pm_add(&c, f, pv);
        f = pm_add(&c, f, qk);
        f = pm_add(&c, f, pm_add(&c, qk, pm_mul(&c, pm_mul(&c, pm_mul(&c, B, NKV), dqk), g)));
    }
    if (c.ovf) {
        *err = "a count does not fit in 64 bits";
        return -1;
    }
    double r = (double)f;
    if (d->causal) {
        if (NQ != NKV) {
            *err = "causal=True but N_Q != N_KV";
            return -1;
        }
        r /= 2;
    }
    *flops = r;
    return 0;
}

double tsql_sdpa_bytes(const tsql_sdpa_dims *d, int bwd, int bpe)
{
    double B = (double)d->B, q = B * d->N_Q * d->H_Q * d->d_h_qk, k = B * d->N_KV * d->H_KV * d->d_h_qk,
           v = B * d->N_KV * d->H_KV * d->d_h_v, o = B * d->N_Q * d->H_Q * d->d_h_v;
    double e = bwd ? 2 * q + 2 * k + 2 * v + o : q + k + v + o;
    return e * bpe;
}

/* ---- per-op extraction ---- */

enum { L_BNHD, L_BHND, L_THD, L_EVO };      /* tensor layout */
enum { D_FLOAT, D_LENIENT, D_OPT, D_ZERO }; /* dropout: float(conc[i]) / lenient / if present / 0.0 */
enum { C_EVAL, C_LOWER, C_EVAL_OPT_TRUE, C_FALSE }; /* causal */

typedef struct sdpa_op {
    const char *cls;
    int q;          /* index of q in Input Dims (k, v follow) */
    int layout;
    int dmode, di;  /* dropout */
    int cmode, ci;  /* causal */
    int flash;
    int dtype;      /* 1: dtype_A_B = tuple(types[:2]) */
    int strides;    /* q/k/v strides parameters */
    int bwd_class;  /* forward entry computes the backward formulas */
    int varlen;     /* 0, or the Input Dims index of cu_seqlens_q */
    int li;         /* Concrete Inputs index of max_seqlen_q (varlen) */
} sdpa_op;

static const sdpa_op sdpa_ops[] = {
    {"flash_attention", 0, L_BNHD, D_FLOAT, 3, C_EVAL, 5, 1, 1, 1, 0, 0, 0},
    {"flash_attention_backward", 1, L_BNHD, D_OPT, 8, C_EVAL_OPT_TRUE, 10, 1, 1, 1, 1, 0, 0},
    {"flash_attention_varlen_forward", 0, L_THD, D_FLOAT, 7, C_EVAL, 9, 1, 1, 1, 0, 3, 5},
    {"flash_attention_varlen_backward", 1, L_THD, D_FLOAT, 13, C_EVAL, 15, 1, 1, 1, 1, 9, 11},
    {"aten__scaled_dot_product_cudnn_attention", 0, L_BHND, D_LENIENT, 5, C_LOWER, 6, 0, 1, 0, 0, 0, 0},
    {"aten__scaled_dot_product_efficient_attention", 0, L_BHND, D_LENIENT, 5, C_LOWER, 6, 0, 1, 0, 0, 0, 0},
    {"aten__scaled_dot_product_flash_attention", 0, L_BHND, D_LENIENT, 3, C_LOWER, 4, 1, 1, 0, 0, 0, 0},
    {"aiter__flash_attn_forward", 0, L_BNHD, D_LENIENT, 3, C_LOWER, 5, 1, 0, 0, 0, 0, 0},
    {"aiter__flash_attn_backward", 0, L_BNHD, D_LENIENT, 10, C_LOWER, 12, 1, 0, 0, 1, 0, 0},
    {"flash_attn_v3_forward", 0, L_BNHD, D_ZERO, 0, C_LOWER, 24, 1, 0, 0, 0, 0, 0},
    {"aiter__fmha_v3_forward", 1, L_BNHD, D_LENIENT, 4, C_LOWER, 6, 1, 0, 0, 0, 0, 0},
    {"aiter__fmha_v3_backward", 1, L_BNHD, D_LENIENT, 7, C_LOWER, 9, 1, 0, 0, 1, 0, 0},
    {"aiter__mha_fwd", 0, L_BNHD, D_LENIENT, 3, C_LOWER, 5, 1, 0, 0, 0, 0, 0},
    {"aiter__fmha_v3_fwd", 0, L_BNHD, D_LENIENT, 3, C_LOWER, 5, 1, 0, 0, 0, 0, 0},
    {"aiter__mha_bwd", 1, L_BNHD, D_LENIENT, 6, C_LOWER, 8, 1, 0, 0, 1, 0, 0},
    {"evoformer_attention", 0, L_EVO, D_ZERO, 0, C_FALSE, 0, 0, 0, 0, 0, 0, 0},
};

/* "True"/"False" via Python literal evaluation; integers are accepted as truthiness */
static int eval_bool(pm_ctx *c, const char *s, const char *what, int *out)
{
    int64_t v;
    if (s && (strcmp(s, "True") == 0 || strcmp(s, "False") == 0)) return pm_parse_literal_bool(c, s, what, out);
    if (s && s[0] && pm_parse_int(c, s, what, &v) == 0) return *out = v != 0, 0;
    return pm_err(c, "%s: %s: cannot evaluate '%s' as a boolean", c->name, what, s ? s : "None");
}

static int sdpa_dropout(pm_ctx *c, const sdpa_op *o, double *dropout)
{
    const char *s;
    *dropout = 0.0;
    switch (o->dmode) {
    case D_ZERO: return 0;
    case D_FLOAT: return pm_conc(c, o->di, &s) ? -1 : pm_parse_float(c, s, "dropout", dropout);
    case D_OPT:
        if (pm_len(c->conc) > o->di && (s = pm_conc_opt(c, o->di)) && s[0])
            return pm_parse_float(c, s, "dropout", dropout);
        return 0;
    default: /* lenient: '' and 'None' mean 0.0, unparsable text too */
        if (pm_conc(c, o->di, &s)) return -1;
        if (!s) return pm_err(c, "%s: dropout is None", c->name);
        if (s[0] && strcmp(s, "None") != 0) {
            double v;
            if (pm_try_float(s, &v) == 0) *dropout = v; /* a ValueError is swallowed */
        }
        return 0;
    }
}

static int sdpa_causal(pm_ctx *c, const sdpa_op *o, int *causal)
{
    const char *s;
    *causal = 0;
    switch (o->cmode) {
    case C_FALSE: return 0;
    case C_EVAL: return pm_conc(c, o->ci, &s) ? -1 : eval_bool(c, s, "causal", causal);
    case C_EVAL_OPT_TRUE:
        if (pm_len(c->conc) > o->ci && (s = pm_conc_opt(c, o->ci)) && s[0]) return eval_bool(c, s, "causal", causal);
        *causal = 1;
        return 0;
    default:
        if (pm_conc(c, o->ci, &s)) return -1;
        if (!s) return pm_err(c, "%s: causal is None", c->name);
        if (s[0] && strcmp(s, "None") != 0) *causal = strcasecmp(s, "true") == 0;
        return 0;
    }
}

int pm_sdpa(pm_ctx *c)
{
    const sdpa_op *o = NULL;
    for (size_t i = 0; i < sizeof sdpa_ops / sizeof *sdpa_ops; i++)
        if (strcmp(sdpa_ops[i].cls, c->cls) == 0) o = &sdpa_ops[i];
    if (!o) return PM_FAIL(c, "%s: no SDPA model %s", c->name, c->cls);
    if (!c->dims) return PM_FAIL(c, "%s: args have no \"Input Dims\"", c->name);

    int64_t B, NQ, HQ, NKV, HKV, dqk, dv;
    const char *dtype = NULL;
    if (o->layout == L_EVO) {
        pm_shape q;
        if (pm_dims(c, 0, &q)) return pm_status(c);
        if (q.n != 5) return PM_FAIL(c, "%s: q must be (Batch, N_seq, N_res, Head, Dim)", c->name);
        B = pm_mul(c, q.d[0], q.d[1]);
        NQ = NKV = q.d[2];
        HQ = HKV = q.d[3];
        dqk = dv = q.d[4];
        dtype = pm_len(c->types) ? pm_type_opt(c, 0) : NULL;
    } else {
        pm_shape s[3];
        for (int i = 0; i < 3; i++) {
            if (pm_dims(c, o->q + i, &s[i])) return pm_status(c);
            int need = o->layout == L_THD ? 3 : 4;
            if (s[i].n < need)
                return PM_FAIL(c, "%s: Input Dims[%d] has %d dimensions, need %d", c->name, o->q + i, s[i].n, need);
        }
        /* positions of B, H, N, d */
        static const int idx[3][4] = {{0, 2, 1, 3}, {0, 1, 2, 3}, {-1, 1, 0, 2}};
        const int *ix = idx[o->layout];
        int64_t v[3][4];
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 4; j++) v[i][j] = ix[j] < 0 ? 1 : s[i].d[ix[j]];
        if (o->layout != L_THD && (v[0][0] != v[1][0] || v[0][0] != v[2][0]))
            return PM_FAIL(c, "%s: batch sizes do not match: %lld != %lld != %lld", c->name, (long long)v[0][0],
                          (long long)v[1][0], (long long)v[2][0]);
        if (v[1][1] != v[2][1])
            return PM_FAIL(c, "%s: head sizes do not match for K and V: %lld != %lld", c->name,
                          (long long)v[1][1], (long long)v[2][1]);
        if (v[1][2] != v[2][2])
            return PM_FAIL(c, "%s: length sizes do not match for K and V: %lld != %lld", c->name,
                          (long long)v[1][2], (long long)v[2][2]);
        if (v[0][3] != v[1][3])
            return PM_FAIL(c, "%s: head dimensions do not match for Q and K: %lld != %lld", c->name,
                          (long long)v[0][3], (long long)v[1][3]);
        B = v[0][0], HQ = v[0][1], NQ = v[0][2], dqk = v[0][3];
        HKV = v[1][1], NKV = v[1][2], dv = v[2][3];
    }

    /* parameters */
    if (pm_p_int(c, "B", B) || pm_p_int(c, "N_Q", NQ) || pm_p_int(c, "H_Q", HQ) || pm_p_int(c, "N_KV", NKV) ||
        pm_p_int(c, "H_KV", HKV) || pm_p_int(c, "d_h_qk", dqk) || pm_p_int(c, "d_h_v", dv))
        return pm_status(c);
    if (o->dtype && !c->types) return PM_FAIL(c, "%s: args have no \"Input type\"", c->name);
    if (o->strides) {
        if (!c->strides) return PM_FAIL(c, "%s: args have no \"Input Strides\"", c->name);
        if (pm_p_stride(c, "q_stride", o->q, PM_STRICT) || pm_p_stride(c, "k_stride", o->q + 1, PM_STRICT) ||
            pm_p_stride(c, "v_stride", o->q + 2, PM_STRICT))
            return pm_status(c);
    }
    double dropout;
    int causal;
    /* varlen fields are read before dropout/causal (Python reads them in this order) */
    int64_t nsq = 0, nskv = 0;
    double lq = 0, lkv = 0;
    if (o->varlen) {
        pm_shape cq, ck;
        const char *sq, *skv;
        if (pm_dims(c, o->varlen, &cq) || pm_dims(c, o->varlen + 1, &ck)) return pm_status(c);
        if (cq.n < 1 || ck.n < 1) return PM_FAIL(c, "%s: cu_seqlens shapes are empty", c->name);
        nsq = cq.d[0] - 1;
        nskv = ck.d[0] - 1;
        if (pm_conc(c, o->li, &sq) || pm_parse_float(c, sq, "max_seqlen_q", &lq) || pm_conc(c, o->li + 1, &skv) ||
            pm_parse_float(c, skv, "max_seqlen_kv", &lkv))
            return pm_status(c);
    }
    if (sdpa_dropout(c, o, &dropout) || sdpa_causal(c, o, &causal)) return pm_status(c);
    if (o->layout != L_EVO && pm_p_float(c, "dropout", dropout)) return pm_status(c);
    if (pm_p_bool(c, "causal", causal) || pm_p_bool(c, "flash_impl", o->flash)) return pm_status(c);
    if (o->dtype) {
        if (pm_p_slice(c, "dtype_A_B", c->types, 0, 2)) return pm_status(c);
        dtype = pm_type_opt(c, 0);
    } else if (o->layout == L_EVO) {
        /* a one-element list, not a tuple */
        c->t.n = 0;
        if (tsql_bputc(&c->t, '[') ||
            (dtype ? tsql_py_put_str(&c->t, dtype, strlen(dtype)) : tsql_bputs(&c->t, "None")) ||
            tsql_bputc(&c->t, ']'))
            return pm_nomem(c), pm_status(c);
        char *repr = strdup(c->t.p);
        if (!repr) return pm_nomem(c), pm_status(c);
        int bad = pm_p_repr(c, "dtype_A_B", repr);
        free(repr);
        if (bad) return pm_status(c);
    }
    if (o->varlen && (pm_p_int(c, "num_seqs_q", nsq) || pm_p_int(c, "num_seqs_kv", nskv) ||
                      pm_p_float(c, "max_seqlen_q", lq) || pm_p_float(c, "max_seqlen_kv", lkv)))
        return pm_status(c);

    /* metrics */
    int bwd = o->bwd_class || c->bwd;
    const char *err = NULL;
    double f;
    tsql_sdpa_dims d = {B, NQ, HQ, NKV, HKV, dqk, dv, causal, o->flash};
    if (o->varlen && !c->bwd) {
        /* lower bound: one longest sequence plus (S − 1) equal shorter ones */
        f = sdpa_f((double)B, lq, (double)HQ, lkv, (double)HKV, (double)dqk, (double)dv, causal, bwd, o->flash, &err);
        if (!err && nsq > 1) {
            if (nskv == 1) return PM_FAIL(c, "%s: division by zero (num_seqs_kv == 1)", c->name);
            double nq = floor(((double)NQ - lq) / (double)(nsq - 1));
            double nkv = floor(((double)NKV - lkv) / (double)(nskv - 1));
            f += (double)(nsq - 1) * sdpa_f((double)B, nq, (double)HQ, nkv, (double)HKV, (double)dqk, (double)dv,
                                            causal, bwd, o->flash, &err);
        }
        if (err) return PM_FAIL(c, "%s: %s", c->name, err);
    } else if (tsql_sdpa_flops(&d, bwd, &f, &err)) {
        return PM_FAIL(c, "%s: %s", c->name, err);
    }
    int bpe = 2;
    if (strcmp(o->cls, "flash_attention_backward") == 0 && !c->bwd) {
        bpe = pm_bpe(pm_type_opt(c, 0));
        const char *t0 = pm_type_opt(c, 0);
        if (!bpe) return PM_FAIL(c, "%s: unknown bytes per element for %s", c->name, t0 ? t0 : "None");
    }
    double bytes = tsql_sdpa_bytes(&d, bwd, bpe);
    if (o->dtype || o->layout == L_EVO) pm_spec(c, "matrix", dtype);
    return pm_done(c, f, bytes);
}
