/*
 * gemm.c — GEMM family (reference semantics 7.3): aten::mm, addmm, bmm,
 * baddbmm, _scaled_mm and its aliases, TE te_gemm_ts and v2 pseudo-GEMMs, vLLM dynamic
 * quant GEMM, hipBLASLt FP8/FP4 and aiter a4w4 GEMMs, plus the transpose parameter read
 * from Tensile / nvjet kernel names.
 *
 *   F     = B · (2·M·N·K + (M·N if bias))
 *   Bytes = B · (M·K·bpe_A + K·N·bpe_B + M·N·bpe_out + (N·bpe_bias if bias))
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "perfmodel/internal.h"
#include "perfmodel/extension.h"

double tsql_gemm_flops(double M, double N, double K, double B, int bias)
{
    return B * (2 * M * N * K + (bias ? M * N : 0));
}

double tsql_gemm_bytes(double M, double N, double K, double B, int bias, int bpe_a, int bpe_b,
                       int bpe_out, int bpe_bias)
{
    if (!bpe_a || !bpe_b || !bpe_out || !bpe_bias) return NAN;
    return B * (M * K * bpe_a + K * N * bpe_b + M * N * bpe_out + (bias ? N * bpe_bias : 0));
}

/* ---- transpose from kernel names ---- */

/* 1 if s contains C???_A???_B??? with ? in [a-z] (Tensile's index-assignment tag) */
static int is_tensile(const char *s)
{
    for (const char *p = strchr(s, 'C'); p; p = strchr(p + 1, 'C')) {
        static const char pat[] = "Cxxx_Axxx_Bxxx";
        int ok = 1;
        for (int i = 0; pat[i] && ok; i++) {
            char ch = p[i];
            if (pat[i] == 'x') ok = ch >= 'a' && ch <= 'z';
            else ok = ch == pat[i];
        }
        if (ok) return 1;
    }
    return 0;
}

/* Fills the repr of the transpose tuple from the first kernel name that parses; 0 if
 * none does, 1 if found, -1 on error. */
static int parse_transpose(pm_ctx *c, char *out, size_t outsz)
{
    for (size_t i = 0; i < c->nkernels; i++) {
        const char *k = c->kernels[i];
        if (!k) continue;
        const char *ta = NULL, *tb = NULL;
        if (is_tensile(k)) {
            ta = strstr(k, "_Ailk_") ? "False" : strstr(k, "_Alik_") ? "True" : "None";
            tb = strstr(k, "_Bljk_") ? "False" : strstr(k, "_Bjlk_") ? "True" : "None";
        } else if (strncmp(k, "nvjet", 5) == 0) {
            const char *t = strrchr(k, '_');
            t = t ? t + 1 : k;
            if (strlen(t) < 2)
                return pm_err(c, "%s: cannot read the transpose flags of kernel %s", c->name, k);
            ta = t[0] == 'T' ? "True" : "False";
            tb = t[1] == 'T' ? "True" : "False";
        } else {
            continue;
        }
        snprintf(out, outsz, "(%s, %s)", ta, tb);
        return 1;
    }
    return 0;
}

/* ---- shared tail: B default, transpose, metrics ---- */

typedef struct gemm {
    int64_t B, M, N, K;
    int bias;
    int batched;       /* F and Bytes × B (bmm, baddbmm) */
    const char *dtype; /* dtype_A_B[0] for the Compute Spec */
} gemm;

/* also the tail of the extension GEMMs (gemm_ext.c) */
int pm_gemm_common_params(pm_ctx *c)
{
    if (!pm_p_has(c, "B") && pm_p_int(c, "B", 1)) return -1;
    char tr[32];
    int found = parse_transpose(c, tr, sizeof tr);
    if (found < 0) return -1;
    if (found && pm_p_repr(c, "transpose", tr)) return -1;
    return 0;
}

static int64_t gemm_flops_int(pm_ctx *c, const gemm *g)
{
    int64_t f = pm_mul(c, pm_mul(c, pm_mul(c, 2, g->M), g->N), g->K);
    if (g->bias) f = pm_add(c, f, pm_mul(c, g->M, g->N));
    return g->batched ? pm_mul(c, g->B, f) : f;
}

/* bytes with all bpe known (else NAN) */
static double gemm_bytes_int(pm_ctx *c, const gemm *g, int bpe_a, int bpe_b, int bpe_bias, int bpe_out)
{
    if (!bpe_a || !bpe_b || !bpe_bias || !bpe_out) return NAN;
    int64_t b = pm_mul(c, pm_mul(c, g->M, g->K), bpe_a);
    b = pm_add(c, b, pm_mul(c, pm_mul(c, g->K, g->N), bpe_b));
    b = pm_add(c, b, pm_mul(c, pm_mul(c, g->M, g->N), bpe_out));
    if (g->bias) b = pm_add(c, b, pm_mul(c, g->N, bpe_bias));
    if (g->batched) b = pm_mul(c, g->B, b);
    return (double)b;
}

static int gemm_finish(pm_ctx *c, const gemm *g, double bytes)
{
    if (pm_gemm_common_params(c)) return pm_status(c);
    pm_spec(c, "matrix", g->dtype);
    return pm_done(c, (double)gemm_flops_int(c, g), bytes);
}

/* dims[i] as a shape with at least `need` entries */
static int shape_at(pm_ctx *c, int i, int need, pm_shape *s)
{
    if (pm_dims(c, i, s)) return -1;
    if (s->n < need) return pm_err(c, "%s: Input Dims[%d] has %d dimensions, need %d", c->name, i, s->n, need);
    return 0;
}

/* "M, N, K, bias, stride_A, stride_B, dtype_A_B" (the common prefix of most GEMMs) */
static int mnk_params(pm_ctx *c, const gemm *g, int sa, int sb, int stride_mode, int ta, int tb)
{
    if (pm_p_int(c, "M", g->M) || pm_p_int(c, "N", g->N) || pm_p_int(c, "K", g->K) ||
        pm_p_bool(c, "bias", g->bias))
        return -1;
    /* strides: both are read in one try block, so a missing key gives None for both */
    if (stride_mode != PM_STRICT && !c->strides) {
        if (pm_p_none(c, "stride_A") || pm_p_none(c, "stride_B")) return -1;
    } else if (stride_mode == PM_OPT && (!pm_at_opt(c->strides, sa) || !pm_at_opt(c->strides, sb))) {
        if (pm_p_none(c, "stride_A") || pm_p_none(c, "stride_B")) return -1;
    } else if (pm_p_stride(c, "stride_A", sa, stride_mode) || pm_p_stride(c, "stride_B", sb, stride_mode)) {
        return -1;
    }
    if (ta < 0) return 0; /* caller adds dtype_A_B */
    return pm_p_slice(c, "dtype_A_B", c->types, ta, tb);
}

/* aten::mm, aten::addmm, aten::_scaled_mm (+aliases), TE v2 pseudo-GEMMs */
static int gemm_2d(pm_ctx *c, int ia, int scaled, int pseudo)
{
    pm_shape A, Bs;
    if (!c->dims) return PM_FAIL(c, "%s: args have no \"Input Dims\"", c->name);
    if (shape_at(c, ia, 2, &A) || shape_at(c, ia + 1, 2, &Bs)) return pm_status(c);
    gemm g = {.B = 1, .M = A.d[0], .N = Bs.d[1], .K = A.d[1]};
    g.bias = scaled ? pm_len(c->dims) == 3 : ia == 1;
    if (!c->types) return PM_FAIL(c, "%s: args have no \"Input type\"", c->name);
    if (mnk_params(c, &g, ia, ia + 1, PM_KEYOPT, ia, ia + 2)) return pm_status(c);
    const char *t0 = pm_type_opt(c, ia), *t1 = pm_type_opt(c, ia + 1);
    if (!pm_at_opt(c->types, ia)) return PM_FAIL(c, "%s: dtype_A_B is empty", c->name);
    g.dtype = t0;
    double bytes;
    if (scaled) {
        int bpe_a = pm_bpe(t0), bpe_b = pm_bpe(t1);
        if (!bpe_a || !bpe_b)
            return PM_FAIL(c, "%s: data types of A and B are not supported: (%s, %s)", c->name,
                          t0 ? t0 : "None", t1 ? t1 : "None");
        int out = bpe_a == 1 ? 2 : (bpe_a == 2 || bpe_a == 4) ? bpe_a : 0;
        bytes = gemm_bytes_int(c, &g, bpe_a, bpe_a, bpe_a, out);
    } else if (pseudo) {
        if (!pm_at_opt(c->types, ia + 1) || !t0 || !t1 || strcmp(t0, t1) != 0)
            return PM_FAIL(c, "%s: data types of A and B are different", c->name);
        int bpe = pm_bpe(t0);
        bytes = gemm_bytes_int(c, &g, bpe, bpe, bpe, 2);
    } else {
        if (!t0) return PM_FAIL(c, "%s: dtype of A is None", c->name);
        int bpe = pm_bpe(t0);
        bytes = gemm_bytes_int(c, &g, bpe, bpe, bpe, bpe);
    }
    return gemm_finish(c, &g, bytes);
}

/* aten::bmm, aten::baddbmm: (B, M, K) × (B, K, N), F and Bytes × B */
static int gemm_batched(pm_ctx *c, int ia)
{
    pm_shape A, Bs;
    if (!c->dims) return PM_FAIL(c, "%s: args have no \"Input Dims\"", c->name);
    if (pm_dims(c, ia, &A) || pm_dims(c, ia + 1, &Bs)) return pm_status(c);
    if (A.n != 3 || Bs.n != 3)
        return PM_FAIL(c, "%s: batched GEMM needs 3-D A and B, got %d-D and %d-D", c->name, A.n, Bs.n);
    gemm g = {.B = A.d[0], .M = A.d[1], .K = A.d[2], .N = Bs.d[2], .bias = ia == 1, .batched = 1};
    if (!c->types) return PM_FAIL(c, "%s: args have no \"Input type\"", c->name);
    if (pm_p_int(c, "B", g.B) || mnk_params(c, &g, ia, ia + 1, PM_KEYOPT, ia, ia + 2)) return pm_status(c);
    if (!pm_at_opt(c->types, ia)) return PM_FAIL(c, "%s: dtype_A_B is empty", c->name);
    g.dtype = pm_type_opt(c, ia);
    if (!g.dtype) return PM_FAIL(c, "%s: dtype of A is None", c->name);
    int bpe = pm_bpe(g.dtype);
    return gemm_finish(c, &g, gemm_bytes_int(c, &g, bpe, bpe, bpe, bpe));
}

/* vllm::gemm_with_dynamic_quant: the first two 2-D entries of Input Dims are A and B */
static int gemm_vllm_dq(pm_ctx *c)
{
    const cJSON *a = NULL, *b = NULL;
    for (const cJSON *e = c->dims ? c->dims->child : NULL; e; e = e->next) {
        if (cJSON_IsArray(e) && cJSON_GetArraySize(e) == 2) {
            if (!a) a = e;
            else {
                b = e;
                break;
            }
        }
    }
    if ((!a || !b) && pm_len(c->dims) >= 2) {
        const cJSON *d0 = pm_at_opt(c->dims, 0), *d1 = pm_at_opt(c->dims, 1);
        if (!a && cJSON_IsArray(d0)) a = d0;
        if (!b && cJSON_IsArray(d1)) b = d1;
    }
    if (!a || !b || cJSON_GetArraySize(a) != 2 || cJSON_GetArraySize(b) != 2)
        return PM_FAIL(c, "%s: missing 2-D A, B shapes in Input Dims", c->name);
    pm_shape A, Bs;
    if (pm_shape_of(c, a, "A", &A) || pm_shape_of(c, b, "B", &Bs)) return pm_status(c);
    gemm g = {.B = 1, .M = A.d[0], .K = A.d[1], .N = Bs.d[0]};
    if (pm_len(c->types) < 2)
        return PM_FAIL(c, "%s: missing A, B dtypes in \"Input type\"", c->name);
    if (mnk_params(c, &g, 0, 1, PM_KEYOPT, 0, 2)) return pm_status(c);
    g.dtype = pm_type_opt(c, 0);
    if (!g.dtype) return PM_FAIL(c, "%s: dtype of A is None", c->name);
    int bpe = pm_bpe(g.dtype);
    return gemm_finish(c, &g, gemm_bytes_int(c, &g, bpe, bpe, bpe, bpe));
}

/* tex_ts::te_gemm_ts: A = dims[0], B = dims[5], transposes in conc[4], conc[9] */
static int gemm_te(pm_ctx *c)
{
    pm_shape A, Bs;
    if (!c->dims) return PM_FAIL(c, "%s: args have no \"Input Dims\"", c->name);
    if (!pm_at(c, c->dims, "Input Dims", 10)) return pm_status(c);
    if (shape_at(c, 0, 2, &A) || shape_at(c, 5, 2, &Bs)) return pm_status(c);
    const char *ta, *tb, *bias_term;
    if (pm_conc(c, 4, &ta) || pm_conc(c, 9, &tb)) return pm_status(c);
    int trans_a = ta && strcmp(ta, "1") == 0, trans_b = tb && strcmp(tb, "1") == 0;
    gemm g = {.B = 1};
    g.M = trans_a ? A.d[0] : A.d[1];
    g.K = trans_a ? A.d[1] : A.d[0];
    g.N = trans_b ? Bs.d[1] : Bs.d[0];
    if (pm_conc(c, 14, &bias_term)) return pm_status(c);
    g.bias = !(bias_term && bias_term[0] == 0);
    const char *dt[4];
    static const int idx[4] = {0, 5, 10, 18};
    for (int i = 0; i < 4; i++)
        if (pm_type(c, idx[i], &dt[i])) return pm_status(c);
    if (mnk_params(c, &g, 0, 5, PM_KEYOPT, -1, -1) || pm_p_str_tuple(c, "dtype_A_B", dt, 4)) return pm_status(c);
    g.dtype = dt[0];
    for (int i = 0; i < 4; i++)
        if (!dt[i]) return PM_FAIL(c, "%s: dtype %d is None", c->name, i);
    return gemm_finish(c, &g, gemm_bytes_int(c, &g, pm_bpe(dt[0]), pm_bpe(dt[1]), pm_bpe(dt[3]), pm_bpe(dt[2])));
}

/* parse_bool of hipBLASLt flags: "true"/"1" → 1, anything else → 0 */
static int flag_true(const char *s)
{
    return s && (strcasecmp(s, "true") == 0 || strcmp(s, "1") == 0);
}

/* MXFP4 bytes (hipBLASLt fp4, aiter a4w4) */
static double fp4_bytes(pm_ctx *c, const gemm *g, const char *ta, const char *tb, const char *sa,
                        const char *sb)
{
    int bpe_a = pm_bpe(ta), bpe_b = pm_bpe(tb);
    if (!bpe_a || !bpe_b) {
        pm_err(c, "%s: data types of A and B are not supported: (%s, %s)", c->name, ta ? ta : "None",
               tb ? tb : "None");
        return NAN;
    }
    int s_a = pm_bpe(sa), s_b = pm_bpe(sb);
    if (!s_a) s_a = 1;
    if (!s_b) s_b = 1;
    int64_t spr = g->K / 32 + (g->K % 32 != 0); /* ceil(K / 32), K >= 0 */
    if (g->K < 0) spr = -((-g->K) / 32);        /* Python floor semantics for negatives */
    int64_t khalf = g->K >= 0 ? g->K / 2 : -((-g->K + 1) / 2);
    int64_t b = pm_mul(c, pm_mul(c, g->M, khalf), bpe_a);
    b = pm_add(c, b, pm_mul(c, pm_mul(c, g->N, khalf), bpe_b));
    b = pm_add(c, b, pm_mul(c, pm_mul(c, g->M, spr), s_a));
    b = pm_add(c, b, pm_mul(c, pm_mul(c, g->N, spr), s_b));
    b = pm_add(c, b, pm_mul(c, pm_mul(c, g->M, g->N), 2));
    return (double)b;
}

/* Scaled GEMMs: t = the types of A (types[ia]) and B (types[ib]), then of their scales
 * (types[isa], types[isb], NULL when absent); records M, N, K and the dtype parameters
 * and sets g->dtype. 0, or -1 after recording the failure. */
static int scaled_types(pm_ctx *c, gemm *g, int ia, int ib, int isa, int isb, const char *t[4])
{
    if (pm_type(c, ia, &t[0]) || pm_type(c, ib, &t[1])) return -1;
    t[2] = pm_len(c->types) > isa ? pm_type_opt(c, isa) : NULL;
    t[3] = pm_len(c->types) > isb ? pm_type_opt(c, isb) : NULL;
    if (mnk_params(c, g, ia, ib, PM_OPT, -1, -1) || pm_p_str_tuple(c, "dtype_A_B", t, 2) ||
        pm_p_str(c, "dtype_scaleA", t[2]) || pm_p_str(c, "dtype_scaleB", t[3]))
        return -1;
    g->dtype = t[0];
    return 0;
}

/* hipblaslt_gemm_fp8 / _fp4: A = dims[0], B = dims[2], flags in conc[5..7] */
static int gemm_hipblaslt(pm_ctx *c, int fp4)
{
    pm_shape A, Bs;
    if (!c->dims) return PM_FAIL(c, "%s: args have no \"Input Dims\"", c->name);
    if (shape_at(c, 0, 2, &A) || shape_at(c, 2, 2, &Bs)) return pm_status(c);
    int nconc = pm_len(c->conc);
    int ta = nconc > 5 && flag_true(pm_conc_opt(c, 5));
    int tb = nconc > 6 && flag_true(pm_conc_opt(c, 6));
    int tc = nconc > 7 && flag_true(pm_conc_opt(c, 7));
    if (tc) {
        pm_shape t = A;
        A = Bs;
        Bs = t;
        int x = ta;
        ta = !tb;
        tb = !x;
    }
    gemm g = {.B = 1};
    g.M = ta ? A.d[1] : A.d[0];
    g.K = ta ? A.d[0] : A.d[1];
    if (fp4) g.K = pm_mul(c, g.K, 2);
    g.N = tb ? Bs.d[0] : Bs.d[1];
    const char *t[4];
    if (scaled_types(c, &g, 0, 2, 1, 3, t)) return pm_status(c);
    double bytes;
    if (fp4) {
        bytes = fp4_bytes(c, &g, t[0], t[1], t[2], t[3]);
        if (isnan(bytes)) return pm_status(c);
    } else {
        int bpe_a = pm_bpe(t[0]), bpe_b = pm_bpe(t[1]);
        if (!bpe_a || !bpe_b)
            return PM_FAIL(c, "%s: data types of A and B are not supported: (%s, %s)", c->name,
                          t[0] ? t[0] : "None", t[1] ? t[1] : "None");
        bytes = gemm_bytes_int(c, &g, bpe_a, bpe_b, bpe_a, bpe_a == 1 ? 2 : bpe_a);
    }
    return gemm_finish(c, &g, bytes);
}

/* aiter::gemm_a4w4: NT layout, A = dims[0] (M, K/2), B = dims[1] (N, K/2) */
static int gemm_a4w4(pm_ctx *c)
{
    pm_shape A, Bs;
    if (!c->dims) return PM_FAIL(c, "%s: args have no \"Input Dims\"", c->name);
    if (shape_at(c, 0, 2, &A) || shape_at(c, 1, 2, &Bs)) return pm_status(c);
    gemm g = {.B = 1, .M = A.d[0], .K = pm_mul(c, A.d[1], 2), .N = Bs.d[0]};
    const char *t[4];
    if (scaled_types(c, &g, 0, 1, 2, 3, t)) return pm_status(c);
    double bytes = fp4_bytes(c, &g, t[0], t[1], t[2], t[3]);
    if (isnan(bytes)) return pm_status(c);
    return gemm_finish(c, &g, bytes);
}

int pm_gemm(pm_ctx *c)
{
    const char *k = c->cls;
    if (strcmp(k, "aten_mm") == 0) return gemm_2d(c, 0, 0, 0);
    if (strcmp(k, "aten_addmm") == 0) return gemm_2d(c, 1, 0, 0);
    if (strcmp(k, "aten_scaled_mm") == 0) return gemm_2d(c, 0, 1, 0);
    if (strcmp(k, "tev2_pseudo_gemm") == 0) return gemm_2d(c, 0, 0, 1);
    if (strcmp(k, "aten_bmm") == 0) return gemm_batched(c, 0);
    if (strcmp(k, "aten_baddbmm") == 0) return gemm_batched(c, 1);
    if (strcmp(k, "vllm_gemm_with_dynamic_quant") == 0) return gemm_vllm_dq(c);
    if (strcmp(k, "tex_ts_te_gemm_ts") == 0) return gemm_te(c);
    if (strcmp(k, "hipblaslt_gemm_fp8") == 0) return gemm_hipblaslt(c, 0);
    if (strcmp(k, "hipblaslt_gemm_fp4") == 0) return gemm_hipblaslt(c, 1);
    if (strcmp(k, "aiter_gemm_a4w4") == 0) return gemm_a4w4(c);
    return PM_FAIL(c, "%s: no GEMM model %s", c->name, k);
}
