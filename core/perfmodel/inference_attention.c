/*
 * inference_attention.c — inference attention models (family InferenceAttention):
 * vLLM unified attention, aiter varlen / batch-prefill / paged decode, sglang paged
 * ragged attention, MLA pseudo ops, DeepSeek-V4 sparse paged decode, sparse prefill,
 * gated-delta-net attention, and sglang's KV-cache store (docs/perf-models.md).
 *
 * Most read the per-step statistics of the iteration annotation enclosing the op
 * (perfmodel/iteration.h): c_* for the context (prefill) part, g_* for the generation
 * (decode) part. Without a detailed annotation they have no metrics (ERROR: the sheet
 * row is left out, the unified row kept); with both query counts 0 they are not
 * implemented (the row is dropped silently).
 *
 *   F     = H_Q·(2·c_sqsk·d_qk) + H_Q·(2·c_sqsk·d_v) − H_Q·(c_sqsq·d_qk) − H_Q·(c_sqsq·d_v)
 *         + H_Q·(2·cap(g_sqsk)·d_qk) + H_Q·(2·cap(g_sqsk)·d_v)
 *   Bytes = Qe·bpe(Q) + KVe·bpe(KV)    (queries and outputs once, new keys/values once)
 * where cap(x) = min(x, g_sq·W) for a sliding window W > 0.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "perfmodel/extension.h"
#include "perfmodel/inference_formulas.h"
#include "perfmodel/iteration.h"

typedef struct att {
    int64_t N_Q, H_Q, N_KV, H_KV, H_V, H_K, d_qk, d_v;
    tsql_iter s;
    const char *dtype_q, *dtype_kv;
    int emit_dtype_kv;      /* the class has a dtype_KV parameter */
    int64_t W;              /* sliding window, 0 = none */
    int emit_window;
} att;

/* the annotation statistics, or -1 (ERROR: no metrics without them) */
static int stats(pm_ctx *c, tsql_iter *s)
{
    tsql_iter_parse(c->annotation ? c->annotation : "None", s);
    if (!s->detailed)
        return pm_err(c, "%s: no per-step query/key statistics (enclosing iteration annotation: %s)", c->name,
                      c->annotation ? c->annotation : "none");
    return 0;
}

/* checked int64 arithmetic for the formulas */
static int64_t mul(int *ovf, int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_mul_overflow(a, b, &r)) *ovf = 1;
    return r;
}

static int64_t add(int *ovf, int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_add_overflow(a, b, &r)) *ovf = 1;
    return r;
}

int tsql_attention_eval(const tsql_attention_dims *d, int64_t bpe_q, int64_t bpe_kv, int64_t *flops,
                        int64_t *bytes)
{
    int o = 0;
    int64_t hq = d->H_Q, hkv = d->H_KV, dq = d->d_qk, dv = d->d_v;
    /* cap(x) = min(x, g_sq·W) with a sliding window */
    int windowed = d->W > 0 && d->g_sq != 0;
    int64_t lim = windowed ? mul(&o, d->g_sq, d->W) : 0;
    int64_t gsqsk = windowed && d->g_sqsk > lim ? lim : d->g_sqsk;
    int64_t G = windowed && d->g_sk > lim ? lim : d->g_sk;
#define M(x, y) mul(&o, (x), (y))
    int64_t f = M(hq, M(M(2, d->c_sqsk), dq));
    f = add(&o, f, M(hq, M(M(2, d->c_sqsk), dv)));
    f = add(&o, f, -M(hq, M(d->c_sqsq, dq)));
    f = add(&o, f, -M(hq, M(d->c_sqsq, dv)));
    f = add(&o, f, M(hq, M(M(2, gsqsk), dq)));
    f = add(&o, f, M(hq, M(M(2, gsqsk), dv)));
    /* queries read and outputs written (per head of Q and of KV) for every new token */
    int64_t qe = 0;
    const int64_t sq[2] = {d->c_sq, d->g_sq};
    for (int i = 0; i < 2; i++) {
        qe = add(&o, qe, M(M(sq[i], hq), dq));
        qe = add(&o, qe, M(M(sq[i], hq), dv));
        qe = add(&o, qe, M(M(sq[i], hkv), dq));
        qe = add(&o, qe, M(M(sq[i], hkv), dv));
    }
    /* cached keys / values read once (the new tokens' are counted above) */
    const int64_t kn[2] = {d->c_sk - d->c_sq, G - d->g_sq};
    int64_t kve = 0;
    for (int i = 0; i < 2; i++) {
        kve = add(&o, kve, M(M(kn[i], hkv), dq));
        kve = add(&o, kve, M(M(kn[i], hkv), dv));
    }
    *flops = f;
    *bytes = add(&o, M(qe, bpe_q), M(kve, bpe_kv));
#undef M
    return o ? -1 : 0;
}

static int emit(pm_ctx *c, const att *a)
{
    const tsql_iter *s = &a->s;
    if (pm_p_int(c, "B", 1) || pm_p_int(c, "N_Q", a->N_Q) || pm_p_int(c, "H_Q", a->H_Q) ||
        pm_p_int(c, "H_V", a->H_V) || pm_p_int(c, "H_K", a->H_K) || pm_p_int(c, "N_KV", a->N_KV) ||
        pm_p_int(c, "H_KV", a->H_KV) || pm_p_int(c, "d_h_qk", a->d_qk) || pm_p_int(c, "d_h_v", a->d_v) ||
        pm_p_float(c, "dropout", 0.0) || pm_p_bool(c, "causal", 0) || pm_p_bool(c, "flash_impl", 1) ||
        pm_p_int(c, "c_sq", s->c_sq) || pm_p_int(c, "c_sk", s->c_sk) || pm_p_int(c, "c_sqsq", s->c_sqsq) ||
        pm_p_int(c, "c_sqsk", s->c_sqsk) || pm_p_int(c, "g_sq", s->g_sq) || pm_p_int(c, "g_sk", s->g_sk) ||
        pm_p_int(c, "g_sqsq", s->g_sqsq) || pm_p_int(c, "g_sqsk", s->g_sqsk) ||
        pm_p_str(c, "dtype_Q", a->dtype_q))
        return -1;
    if (a->emit_dtype_kv && pm_p_str(c, "dtype_KV", a->dtype_kv)) return -1;
    if (a->emit_window && pm_p_int(c, "sliding_window", a->W)) return -1;
    return 0;
}

/* the shared formulas; precision from precision (NULL: of dtype_Q) */
static int finish(pm_ctx *c, const att *a, const char *precision)
{
    const tsql_iter *s = &a->s;
    if (s->c_sq == 0 && s->g_sq == 0) return pm_notimpl(c, "no query tokens in this step"), pm_status(c);
    if (emit(c, a)) return pm_status(c);
    int p = pm_bpe(a->dtype_q);
    if (!p) p = 2;
    int pk = a->dtype_kv && a->dtype_kv[0] ? pm_bpe(a->dtype_kv) : 0;
    if (!pk) pk = p;
    tsql_attention_dims d = {.H_Q = a->H_Q, .H_KV = a->H_KV, .d_qk = a->d_qk, .d_v = a->d_v, .W = a->W,
                             .c_sq = s->c_sq, .c_sk = s->c_sk, .c_sqsq = s->c_sqsq, .c_sqsk = s->c_sqsk,
                             .g_sq = s->g_sq, .g_sk = s->g_sk, .g_sqsq = s->g_sqsq, .g_sqsk = s->g_sqsk};
    int64_t f, bytes;
    if (tsql_attention_eval(&d, p, pk, &f, &bytes)) return PM_FAIL(c, "%s: a count does not fit in 64 bits", c->name);
    if (precision) pm_spec_raw(c, "matrix", precision);
    else pm_spec(c, "matrix", a->dtype_q);
    return pm_done(c, (double)f, (double)bytes);
}

/* (N, H, d) from a shape with exactly 3 entries */
static int qshape(pm_ctx *c, int i, att *a)
{
    pm_shape q;
    if (pm_dims_n(c, i, 3, &q)) return -1;
    a->N_Q = q.d[0], a->H_Q = q.d[1], a->d_qk = q.d[2];
    return 0;
}

/* the base class: q = dims[0], (N_KV, H_KV, d_v) = the last three of dims[1] */
static int base(pm_ctx *c, att *a)
{
    pm_shape k;
    if (qshape(c, 0, a) || pm_dims(c, 1, &k)) return -1;
    if (k.n < 3) return pm_err(c, "%s: Input Dims[1] has fewer than 3 entries", c->name);
    a->N_KV = k.d[k.n - 3], a->H_KV = k.d[k.n - 2], a->d_v = k.d[k.n - 1];
    if (pm_type(c, 0, &a->dtype_q)) return -1;
    a->dtype_kv = pm_len(c->types) > 1 ? pm_type_opt(c, 1) : a->dtype_q;
    a->emit_dtype_kv = 1;
    return stats(c, &a->s);
}

/* an int of an args key: int(v) for numbers and numeric text; 0 when absent/falsy */
static int64_t arg_int(pm_ctx *c, const char *key, int64_t dflt)
{
    const cJSON *v = pm_arg(c, key);
    if (!v) return dflt;
    if (cJSON_IsNumber(v)) return v->valuedouble != 0 ? (int64_t)v->valuedouble : dflt;
    if (cJSON_IsString(v) && v->valuestring[0]) {
        int64_t x;
        if (pm_parse_int(c, v->valuestring, key, &x)) return dflt;
        return x;
    }
    return dflt;
}

static int ceil_div_real(double x) { return (int)ceil(x); }

static int v4_decode(pm_ctx *c, att *a)
{
    if (stats(c, &a->s)) return pm_status(c);
    tsql_iter *s = &a->s;
    s->c_sq = s->c_sk = s->c_sqsq = s->c_sqsk = 0;
    const cJSON *model = pm_arg(c, "v4_model_name");
    int pro = 0;
    if (model && cJSON_IsString(model))
        for (const char *p = model->valuestring; *p && !pro; p++) pro = strncasecmp(p, "DeepSeek-V4-Pro", 15) == 0;
    int64_t topk_cfg = pro ? 1024 : 512, heads = pro ? 128 : 64;
    int64_t tp = arg_int(c, "v4_tp", 1);
    if (tp == 0) return PM_FAIL(c, "%s: v4_tp is 0", c->name);
    int64_t hq = arg_int(c, "v4_H_Q", 0);
    if (!hq) {
        hq = heads / tp;
        if (hq < 1) hq = 1;
    }
    int64_t dh = arg_int(c, "v4_d_h", 512), window = arg_int(c, "v4_window", 128);
    int64_t topk = arg_int(c, "v4_index_topk", topk_cfg);
    const cJSON *q = pm_at_opt(c->dims, 0);
    int64_t nq = 0;
    if (q && cJSON_IsArray(q) && cJSON_GetArraySize(q) > 0 && pm_int(c, cJSON_GetArrayItem(q, 0), "N_Q", &nq))
        return pm_status(c);
    if (!nq) nq = s->g_sq;
    int64_t W;
    if (strstr(c->name, "_swa")) W = window;
    else if (strstr(c->name, "_csa")) {
        if (s->g_sq <= 0) W = window + topk;
        else {
            int64_t x = ceil_div_real(((double)s->g_sk / (double)s->g_sq) / 4);
            W = window + (x < topk ? x : topk);
        }
    } else {
        W = s->g_sq <= 0 ? 0 : window + ceil_div_real(((double)s->g_sk / (double)s->g_sq) / 128);
    }
    a->N_Q = nq, a->H_Q = hq, a->H_V = a->H_K = a->H_KV = 1, a->N_KV = s->g_sk;
    a->d_qk = a->d_v = dh;
    a->dtype_q = a->dtype_kv = "c10::bfloat16";
    a->emit_dtype_kv = 1;
    a->W = W, a->emit_window = 1;
    return finish(c, a, "bf16");
}

static int sparse_prefill(pm_ctx *c)
{
    att a = {0};
    pm_shape q, p2, p5;
    if (pm_dims(c, 0, &q)) return pm_status(c);
    if (q.n < 3) return PM_FAIL(c, "%s: Input Dims[0] has fewer than 3 entries", c->name);
    if (pm_dims(c, 2, &p2) || pm_dims(c, 5, &p5)) return pm_status(c);
    if (p2.n < 1 || p5.n < 1) return PM_FAIL(c, "%s: Input Dims[2] or [5] is empty", c->name);
    int64_t pairs = pm_add(c, p2.d[0], p5.d[0]);
    const char *dq;
    if (pm_type(c, 0, &dq)) return pm_status(c);
    const char *dkv = pm_len(c->types) > 1 ? pm_type_opt(c, 1) : dq;
    int64_t nq = q.d[0], hq = q.d[1], dh = q.d[2];
    if (pm_p_int(c, "B", 1) || pm_p_int(c, "N_Q", nq) || pm_p_int(c, "H_Q", hq) || pm_p_int(c, "H_V", 1) ||
        pm_p_int(c, "H_K", 1) || pm_p_int(c, "N_KV", pairs) || pm_p_int(c, "H_KV", 1) ||
        pm_p_int(c, "d_h_qk", dh) || pm_p_int(c, "d_h_v", dh) || pm_p_float(c, "dropout", 0.0) ||
        pm_p_bool(c, "causal", 0) || pm_p_bool(c, "flash_impl", 1) || pm_p_int(c, "prefill_pairs", pairs) ||
        pm_p_str(c, "dtype_Q", dq) || pm_p_str(c, "dtype_KV", dkv))
        return pm_status(c);
    (void)a;
    int p = pm_bpe(dq);
    if (!p) p = 2;
    int pk = dkv && dkv[0] ? pm_bpe(dkv) : 0;
    if (!pk) pk = p;
    int64_t f = pm_mul(c, pm_mul(c, pm_mul(c, pairs, hq), 2), pm_add(c, dh, dh));
    int64_t b = pm_add(c, pm_mul(c, pm_mul(c, pm_mul(c, pm_mul(c, 2, nq), hq), dh), p),
                       pm_mul(c, pm_mul(c, pairs, dh), pk));
    pm_spec_raw(c, "matrix", dq && dq[0] ? tsql_dtype_precision(dq) : "bf16");
    return pm_done(c, (double)f, (double)b);
}

static int gdn(pm_ctx *c)
{
    tsql_iter s;
    tsql_iter_parse(c->annotation ? c->annotation : "None", &s);
    if (!s.detailed) return pm_notimpl(c, "no per-step statistics for gated delta-net attention"), pm_status(c);
    pm_shape x, h, v;
    if (pm_dims(c, 0, &x) || pm_dims(c, 1, &h) || pm_dims(c, 3, &v)) return pm_status(c);
    if (x.n < 2 || h.n < 2 || v.n < 3) return PM_FAIL(c, "%s: unexpected Input Dims ranks", c->name);
    int64_t D = x.d[1], hv = h.d[1], dv = v.d[2], hk = hv / 2;
    if (hk == 0) return PM_FAIL(c, "%s: H_V < 2", c->name);
    int64_t num = (D - hv * dv);
    /* Python floor division */
    int64_t half = num >= 0 ? num / 2 : -((-num + 1) / 2);
    int64_t dk = half >= 0 ? half / hk : -((-half + hk - 1) / hk);
    const char *dq;
    if (pm_type(c, 0, &dq)) return pm_status(c);
    int64_t T = s.c_sq + s.g_sq;
    if (pm_p_int(c, "B", 1) || pm_p_int(c, "N_Q", T) || pm_p_int(c, "H_Q", hk) || pm_p_int(c, "N_KV", 0) ||
        pm_p_int(c, "H_KV", hk) || pm_p_int(c, "H_V", hv) || pm_p_int(c, "H_K", hk) || pm_p_int(c, "d_h_qk", dk) ||
        pm_p_int(c, "d_h_v", dv) || pm_p_int(c, "c_sq", s.c_sq) || pm_p_int(c, "c_sk", s.c_sq) ||
        pm_p_int(c, "c_sqsq", 0) || pm_p_int(c, "c_sqsk", 0) || pm_p_int(c, "g_sq", s.g_sq) ||
        pm_p_int(c, "g_sk", s.g_sq) || pm_p_int(c, "g_sqsq", 0) || pm_p_int(c, "g_sqsk", 0) ||
        pm_p_str(c, "dtype_Q", dq))
        return pm_status(c);
    if (T == 0) return pm_notimpl(c, "no query tokens in this step"), pm_status(c);
    int64_t f = pm_mul(c, pm_mul(c, pm_mul(c, pm_mul(c, T, hv), 7), dv), dk);
    int64_t b = pm_mul(c, pm_mul(c, T, pm_mul(c, hv, dk + 2 * dv + 2)), 2);
    pm_spec(c, "matrix", dq);
    return pm_done(c, (double)f, (double)b);
}

static int store_cache(pm_ctx *c)
{
    pm_shape s;
    if (pm_dims(c, 0, &s)) return pm_status(c);
    const char *dt;
    if (pm_type(c, 0, &dt)) return pm_status(c);
    int64_t n = pm_numel(c, &s);
    if (pm_p_shape(c, "op_shape", &s) || pm_p_int(c, "nelems", n) || pm_p_str(c, "dtype", dt)) return pm_status(c);
    int b = pm_bpe(dt);
    if (!b) b = 2;
    pm_spec(c, "vector", dt);
    return pm_done(c, 0, (double)pm_mul(c, pm_mul(c, 4, n), b));
}

int pm_inference_attention(pm_ctx *c)
{
    att a = {0};
    if (pm_is(c, "sglang_store_cache")) return store_cache(c);
    if (pm_is(c, "gdn_attention_core")) return gdn(c);
    if (pm_is(c, "pa_sparse_prefill_opus_fwd")) return sparse_prefill(c);
    if (!strncmp(c->cls, "pseudo_v4_paged_decode_", 23)) return v4_decode(c, &a);
    if (pm_is(c, "aiter_paged_attention_ragged")) {
        pm_shape k, v;
        if (qshape(c, 2, &a) || pm_dims(c, 3, &k) || pm_dims(c, 4, &v)) return pm_status(c);
        if (k.n < 2 || v.n < 1) return PM_FAIL(c, "%s: unexpected KV cache shapes", c->name);
        a.H_KV = k.d[k.n - 2], a.d_v = v.d[v.n - 1];
        if (pm_type(c, 2, &a.dtype_q) || stats(c, &a.s)) return pm_status(c);
        a.N_KV = a.s.c_sk + a.s.g_sk;
        a.H_V = a.H_K = a.H_KV;
        return finish(c, &a, NULL);
    }
    if (pm_is(c, "pa_decode_gluon")) {
        pm_shape q, k;
        if (pm_dims(c, 0, &q) || pm_dims(c, 2, &k)) return pm_status(c);
        if (q.n < 3 || k.n < 2) return PM_FAIL(c, "%s: unexpected Input Dims shapes", c->name);
        a.N_Q = q.d[0], a.H_Q = q.d[1], a.d_qk = a.d_v = q.d[2], a.H_KV = k.d[1];
        if (pm_type(c, 0, &a.dtype_q) || stats(c, &a.s)) return pm_status(c);
        a.dtype_kv = pm_len(c->types) >= 3 ? pm_type_opt(c, 2) : a.dtype_q;
        a.emit_dtype_kv = 1;
        a.s.c_sq = a.s.c_sk = a.s.c_sqsq = a.s.c_sqsk = 0;
        a.N_KV = a.s.g_sk;
        int64_t w = 0;
        const char *cw = pm_conc_opt(c, 19);
        if (cw) {
            char *end;
            long long x = strtoll(cw, &end, 10);
            while (isspace((unsigned char)*end)) end++;
            if (end != cw && !*end) w = x;
        }
        a.W = w, a.emit_window = 1;
        a.H_V = a.H_K = a.H_KV;
        return finish(c, &a, NULL);
    }
    /* the base class and its variants */
    if (base(c, &a)) return pm_status(c);
    if (pm_is(c, "aiter_fmha_v3_varlen_fwd") || pm_is(c, "aiter_mha_batch_prefill") ||
        pm_is(c, "pseudo_mla_prefill_fwd")) {
        if (pm_len(c->dims) > 2 && pm_dims_nonempty(c, 2)) {
            pm_shape v;
            if (pm_dims(c, 2, &v)) return pm_status(c);
            a.d_v = v.d[v.n - 1];
        }
    } else if (pm_is(c, "mla_tilelang_sparse_fwd")) {
        a.d_v = 512;
    }
    a.H_V = a.H_K = a.H_KV;
    return finish(c, &a, NULL);
}
