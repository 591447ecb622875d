/*
 * other.c — the remaining core models (reference semantics 7.10): grouped
 * GEMM (fixed and variable K), MoE dispatch/combine, causal conv1d, Mamba-2 SSD, fused
 * RoPE, fused cross-entropy, and the compiled-Triton model for triton_poi_/red_/per_
 * kernels (read from the trace args).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfmodel/internal.h"

/* A JSON integer > 0 (Python: isinstance(v, int) and v > 0; JSON booleans excluded). */
static int pos_int(const cJSON *v, int64_t *out)
{
    if (!v || !cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) || !(v->valuedouble > 0) ||
        v->valuedouble > 9.2e18)
        return 0;
    *out = (int64_t)v->valuedouble;
    return 1;
}

/* bpe of types[0] with TraceLens's defaults: bf16 when the list is empty, 2 when the
 * type is unknown */
static int bpe_default2(pm_ctx *c)
{
    int nt = pm_len(c->types);
    const char *dt = nt ? pm_type_opt(c, 0) : "c10::BFloat16";
    int bpe = dt && dt[0] ? pm_bpe(dt) : 0;
    return bpe ? bpe : 2;
}

/* Compute Spec precision source `args.get("Input type", [None])[0]` */
static int spec_from_type0(pm_ctx *c, const char *maf)
{
    if (c->types && pm_len(c->types) == 0) return pm_err(c, "%s: \"Input type\" is empty", c->name);
    pm_spec(c, maf, c->types ? pm_type_opt(c, 0) : NULL);
    return 0;
}

/* ---- grouped GEMM ---- */

typedef struct pair2 { int64_t a, b; } pair2;

/* _collect_2d_shapes: every (rows, cols) pair of positive ints in a nested list */
static int collect_2d(const cJSON *v, pair2 *out, int n, int max, int depth)
{
    if (!cJSON_IsArray(v) || depth > 64) return n;
    int64_t x, y;
    if (cJSON_GetArraySize(v) == 2 && pos_int(v->child, &x) && pos_int(v->child->next, &y)) {
        if (n < max) out[n] = (pair2){x, y};
        return n + 1;
    }
    for (const cJSON *e = v->child; e; e = e->next) n = collect_2d(e, out, n, max, depth + 1);
    return n;
}

#define MAX_GROUPS 4096

static int gg_bpe(pm_ctx *c, int *bpe_in, int *bpe_out, const char **t0)
{
    int nt = pm_len(c->types);
    const char *din = nt ? pm_type_opt(c, 0) : NULL;
    const char *dout = nt > 1 ? pm_type_opt(c, 1) : din;
    *bpe_in = din ? pm_bpe(din) : 0;
    *bpe_out = dout ? pm_bpe(dout) : *bpe_in;
    *t0 = din;
    return 0;
}

static int p_bpe(pm_ctx *c, const char *name, int bpe)
{
    return bpe ? pm_p_int(c, name, bpe) : pm_p_none(c, name);
}

int pm_grouped_gemm(pm_ctx *c)
{
    int vark = strstr(c->cls, "variable_k") != NULL;
    const cJSON *d0 = pm_at_opt(c->dims, 0), *d1 = pm_at_opt(c->dims, 1);
    int bpe_in, bpe_out;
    const char *t0;
    gg_bpe(c, &bpe_in, &bpe_out, &t0);
    pair2 *lhs = NULL, *rhs = NULL;
    int nl = 0, nr = 0, st = TSQL_PM_OK;
    int64_t M = 0, K = 0, N = 0, G = 0;
    int impl = 0;
    if (pm_len(c->dims) >= 2 && cJSON_IsArray(d0) && cJSON_IsArray(d1)) {
        int na = cJSON_GetArraySize(d0), nb = cJSON_GetArraySize(d1);
        int64_t a[2], b[3];
        if (!vark && na >= 2 && nb == 3 && pos_int(cJSON_GetArrayItem(d0, 0), &a[0]) &&
            pos_int(cJSON_GetArrayItem(d0, 1), &a[1]) && pos_int(cJSON_GetArrayItem(d1, 0), &b[0]) &&
            pos_int(cJSON_GetArrayItem(d1, 1), &b[1]) && pos_int(cJSON_GetArrayItem(d1, 2), &b[2])) {
            M = a[0], K = a[1], G = b[0];
            if (b[1] == K) N = b[2], impl = 1;
            else if (b[2] == K) N = b[1], impl = 1;
        } else if (vark && na == 2 && nb == 2 && pos_int(cJSON_GetArrayItem(d0, 0), &a[0]) &&
                   pos_int(cJSON_GetArrayItem(d0, 1), &a[1]) && pos_int(cJSON_GetArrayItem(d1, 0), &b[0]) &&
                   pos_int(cJSON_GetArrayItem(d1, 1), &b[1])) {
            impl = 1;
            nl = nr = 1;
            lhs = malloc(sizeof *lhs);
            rhs = malloc(sizeof *rhs);
            if (!lhs || !rhs) {
                free(lhs);
                free(rhs);
                return pm_nomem(c), pm_status(c);
            }
            lhs[0] = (pair2){a[0], a[1]};
            rhs[0] = (pair2){a[1], b[1]};
        }
        if (!impl) {
            nl = collect_2d(d0, NULL, 0, 0, 0);
            nr = collect_2d(d1, NULL, 0, 0, 0);
            if (nl > 0 && nl == nr && nl <= MAX_GROUPS) {
                lhs = malloc((size_t)nl * sizeof *lhs);
                rhs = malloc((size_t)nr * sizeof *rhs);
                if (!lhs || !rhs) {
                    free(lhs);
                    free(rhs);
                    return pm_nomem(c), pm_status(c);
                }
                collect_2d(d0, lhs, 0, nl, 0);
                collect_2d(d1, rhs, 0, nr, 0);
                int ok = 1;
                for (int i = 0; i < nl && ok; i++) {
                    if (!vark) ok = lhs[i].b == lhs[0].b && rhs[i].a == lhs[0].b && rhs[i].b == rhs[0].b;
                    else ok = lhs[i].b == rhs[i].a;
                }
                if (ok) {
                    impl = 1;
                    if (!vark) {
                        K = lhs[0].b, N = rhs[0].b, G = nl;
                        for (int i = 0; i < nl; i++) M = pm_add(c, M, lhs[i].a);
                    }
                }
            }
        }
    }
    if (!impl) {
        free(lhs);
        free(rhs);
        return PM_FAIL(c, "%s: could not parse Input Dims", c->name);
    }
    double f, bytes;
    if (!vark) {
        if (pm_p_int(c, "M", M) || pm_p_int(c, "K", K) || pm_p_int(c, "N", N) || pm_p_int(c, "G", G) ||
            p_bpe(c, "bpe_in", bpe_in) || p_bpe(c, "bpe_out", bpe_out))
            st = pm_status(c);
        f = (double)pm_mul(c, pm_mul(c, pm_mul(c, 2, M), K), N);
        if (st == TSQL_PM_OK && (!bpe_in || !bpe_out))
            st = PM_FAIL(c, "%s: unknown bytes per element", c->name); /* None * int raises */
        bytes = (double)pm_add(c, pm_mul(c, pm_add(c, pm_mul(c, M, K), pm_mul(c, pm_mul(c, G, K), N)), bpe_in),
                               pm_mul(c, pm_mul(c, M, N), bpe_out));
    } else {
        for (int i = 0; i < nl; i++) M = pm_add(c, M, lhs[i].a);
        if (pm_p_int(c, "M", M) || pm_p_int(c, "K", lhs[0].b) || pm_p_int(c, "N", rhs[0].b) ||
            pm_p_int(c, "G", nl) || p_bpe(c, "bpe_in", bpe_in) || p_bpe(c, "bpe_out", bpe_out)) {
            st = pm_status(c);
        } else {
            /* group_pairs: [((M_i, K_i), (K_i, N_i)), ...] */
            c->t.n = 0;
            int bad = tsql_bputc(&c->t, '[');
            for (int i = 0; i < nl && !bad; i++) {
                char tmp[128];
                snprintf(tmp, sizeof tmp, "%s((%lld, %lld), (%lld, %lld))", i ? ", " : "", (long long)lhs[i].a,
                         (long long)lhs[i].b, (long long)rhs[i].a, (long long)rhs[i].b);
                bad |= tsql_bputs(&c->t, tmp);
            }
            bad |= tsql_bputc(&c->t, ']');
            if (bad) st = (pm_nomem(c), pm_status(c));
            else if (pm_p_repr(c, "group_pairs", c->t.p)) st = pm_status(c);
        }
        int64_t fi = 0, bi = 0;
        for (int i = 0; i < nl; i++) {
            int64_t m = lhs[i].a, k = lhs[i].b, n = rhs[i].b;
            fi = pm_add(c, fi, pm_mul(c, pm_mul(c, pm_mul(c, 2, m), k), n));
            bi = pm_add(c, bi, pm_add(c, pm_mul(c, pm_add(c, pm_mul(c, m, k), pm_mul(c, k, n)), bpe_in),
                                      pm_mul(c, pm_mul(c, m, n), bpe_out)));
        }
        f = (double)fi;
        bytes = (bpe_in && bpe_out) ? (double)bi : NAN;
    }
    free(lhs);
    free(rhs);
    if (st != TSQL_PM_OK) return st;
    if (spec_from_type0(c, "matrix")) return pm_status(c);
    (void)t0;
    return pm_done(c, f, bytes);
}

/* ---- MoE dispatch / combine ---- */

int pm_moe_comm(pm_ctx *c)
{
    const cJSON *tok = pm_at_opt(c->dims, 0);
    int n = cJSON_IsArray(tok) ? cJSON_GetArraySize(tok) : 0;
    int64_t nt = 0, hd = 0;
    int has_nt = n >= 1, has_hd = n >= 2;
    if (has_nt && pm_int(c, cJSON_GetArrayItem(tok, 0), "num_tokens", &nt)) return pm_status(c);
    if (has_hd && pm_int(c, cJSON_GetArrayItem(tok, 1), "hidden_dim", &hd)) return pm_status(c);
    const char *dt = pm_len(c->types) ? pm_type_opt(c, 0) : NULL;
    int bpe = dt && dt[0] ? pm_bpe(dt) : 0;
    if ((has_nt ? pm_p_int(c, "num_tokens", nt) : pm_p_none(c, "num_tokens")) ||
        (has_hd ? pm_p_int(c, "hidden_dim", hd) : pm_p_none(c, "hidden_dim")) || p_bpe(c, "bpe", bpe))
        return pm_status(c);
    double bytes = (has_nt && has_hd && bpe) ? (double)pm_mul(c, pm_mul(c, nt, hd), bpe) : NAN;
    return pm_done(c, 0, bytes); /* no Compute Spec: pure communication */
}

/* ---- SSM ---- */

int pm_causal_conv1d(pm_ctx *c)
{
    pm_shape x, w;
    if (!c->dims) return PM_FAIL(c, "%s: args have no \"Input Dims\"", c->name);
    if (pm_dims(c, 0, &x) || pm_dims(c, 1, &w)) return pm_status(c);
    if (x.n < 3 || w.n < 2) return PM_FAIL(c, "%s: expected x (batch, channels, seq_len), w (channels, k)", c->name);
    const cJSON *b = pm_at_opt(c->dims, 2);
    int has_bias = pm_len(c->dims) > 2 && cJSON_IsArray(b) && cJSON_GetArraySize(b) > 0;
    int64_t batch = x.d[0], ch = x.d[1], sl = x.d[2], ks = w.d[1];
    if (pm_p_int(c, "batch", batch) || pm_p_int(c, "channels", ch) || pm_p_int(c, "seq_len", sl) ||
        pm_p_int(c, "kernel_size", ks) || pm_p_bool(c, "has_bias", has_bias))
        return pm_status(c);
    int bpe = bpe_default2(c);
    int64_t f = pm_mul(c, pm_mul(c, pm_mul(c, pm_mul(c, 2, batch), ch), sl), ks);
    int64_t bcs = pm_mul(c, pm_mul(c, pm_mul(c, batch, ch), sl), bpe);
    int64_t by = pm_add(c, pm_add(c, bcs, pm_mul(c, pm_mul(c, ch, ks), bpe)), bcs);
    if (has_bias) by = pm_add(c, by, pm_mul(c, ch, bpe));
    if (spec_from_type0(c, "matrix")) return pm_status(c);
    return pm_done(c, (double)f, (double)by);
}

int pm_mamba_ssd(pm_ctx *c)
{
    pm_shape z, w, h;
    if (!c->dims) return PM_FAIL(c, "%s: args have no \"Input Dims\"", c->name);
    if (pm_dims(c, 0, &z) || pm_dims(c, 1, &w) || pm_dims(c, 3, &h)) return pm_status(c);
    if (z.n < 3 || w.n < 2 || h.n < 1) return PM_FAIL(c, "%s: unexpected Input Dims shapes", c->name);
    int64_t B = z.d[0], T = z.d[1], D = z.d[2], cc = w.d[0], dc = w.d[1], H = h.d[0];
    int64_t vals[3] = {128, 64, 1};
    static const int idx[3] = {6, 15, 16};
    for (int i = 0; i < 3; i++) {
        const char *s = pm_len(c->conc) > idx[i] ? pm_conc_opt(c, idx[i]) : NULL;
        if (s && s[0] && pm_parse_int(c, s, "chunk_size/headdim/ngroups", &vals[i])) return pm_status(c);
    }
    int64_t C = vals[0], P = vals[1], G = vals[2];
    int64_t d_inner = pm_mul(c, H, P);
    int64_t num = D - 2 * d_inner - H, den = 2 * G;
    if (num <= 0 || den == 0 || num % den != 0)
        return PM_FAIL(c, "%s: cannot derive d_state: combined_dim=%lld, H=%lld, P=%lld, G=%lld", c->name,
                       (long long)D, (long long)H, (long long)P, (long long)G);
    int64_t N = num / den;
    if (pm_p_int(c, "B", B) || pm_p_int(c, "T", T) || pm_p_int(c, "H", H) || pm_p_int(c, "P", P) ||
        pm_p_int(c, "G", G) || pm_p_int(c, "N", N) || pm_p_int(c, "C", C) || pm_p_int(c, "d_inner", d_inner) ||
        pm_p_int(c, "d_conv", dc) || pm_p_int(c, "conv_channels", cc) || pm_p_int(c, "combined_dim", D))
        return pm_status(c);
    int bpe = bpe_default2(c);
    int nt = pm_len(c->types);
    int slot_bpe[3] = {4, 4, bpe}; /* dt_bias, A, D */
    for (int i = 0; i < 3; i++) {
        const char *t = nt > 3 + i ? pm_type_opt(c, 3 + i) : NULL;
        if (t && t[0] && pm_bpe(t)) slot_bpe[i] = pm_bpe(t);
    }
    int64_t f = pm_mul(c, pm_mul(c, pm_mul(c, pm_mul(c, 2, B), cc), T), dc);
    f = pm_add(c, f, pm_mul(c, pm_mul(c, pm_mul(c, pm_mul(c, pm_mul(c, 2, B), G), T), C), N));
    f = pm_add(c, f, pm_mul(c, pm_mul(c, pm_mul(c, pm_mul(c, pm_mul(c, 2, B), H), T), C), P));
    int64_t bhtnp = pm_mul(c, pm_mul(c, pm_mul(c, pm_mul(c, pm_mul(c, 2, B), H), T), N), P);
    f = pm_add(c, f, pm_add(c, bhtnp, bhtnp));
    int64_t by = pm_mul(c, pm_mul(c, pm_mul(c, B, T), D), bpe);
    by = pm_add(c, by, pm_mul(c, pm_mul(c, cc, dc), bpe));
    by = pm_add(c, by, pm_mul(c, cc, bpe));
    by = pm_add(c, by, pm_mul(c, H, slot_bpe[0] + slot_bpe[1] + slot_bpe[2]));
    by = pm_add(c, by, pm_mul(c, pm_mul(c, pm_mul(c, B, T), d_inner), bpe));
    if (spec_from_type0(c, "matrix")) return pm_status(c);
    return pm_done(c, (double)f, (double)by); /* backward = forward */
}

/* ---- RoPE, cross-entropy ---- */

int pm_fused_rope(pm_ctx *c)
{
    pm_shape t;
    if (!c->dims) return PM_FAIL(c, "%s: args have no \"Input Dims\"", c->name);
    if (pm_dims(c, 0, &t)) return pm_status(c);
    if (t.n < 4) return PM_FAIL(c, "%s: expected (seq, batch, heads, head_dim)", c->name);
    int64_t e = pm_prod(c, t.d, t.n);
    if (pm_p_int(c, "seq_len", t.d[0]) || pm_p_int(c, "batch", t.d[1]) || pm_p_int(c, "heads", t.d[2]) ||
        pm_p_int(c, "head_dim", t.d[3]) || pm_p_int(c, "num_elements", e))
        return pm_status(c);
    int bpe = bpe_default2(c);
    pm_spec(c, "vector", pm_len(c->types) ? pm_type_opt(c, 0) : NULL);
    return pm_done(c, (double)pm_mul(c, 3, e), (double)pm_mul(c, pm_mul(c, 2, e), bpe));
}

int pm_cross_entropy(pm_ctx *c)
{
    pm_shape l;
    if (!c->dims) return PM_FAIL(c, "%s: args have no \"Input Dims\"", c->name);
    const cJSON *lv = pm_at(c, c->dims, "Input Dims", 0);
    if (!lv || pm_dims(c, 0, &l)) return pm_status(c);
    if (l.n < 1) return PM_FAIL(c, "%s: logits shape is empty", c->name);
    int64_t batch = l.d[0], vocab = l.d[l.n - 1];
    /* logits_shape is the raw list from the trace (a list, not a tuple) */
    c->t.n = 0;
    if (tsql_pyrepr_json(&c->t, lv, 0)) return pm_nomem(c), pm_status(c);
    if (pm_p_int(c, "batch", batch) || pm_p_int(c, "vocab_size", vocab) || pm_p_repr(c, "logits_shape", c->t.p))
        return pm_status(c);
    int bpe = bpe_default2(c);
    int64_t by = pm_add(c, pm_add(c, pm_mul(c, pm_prod(c, l.d, l.n), bpe), pm_mul(c, 8, batch)), pm_mul(c, 4, batch));
    pm_spec(c, "vector", pm_len(c->types) ? pm_type_opt(c, 0) : NULL);
    return pm_done(c, (double)pm_mul(c, pm_mul(c, 5, batch), vocab), (double)by);
}

/* ---- compiled Triton (torch.compile) kernels ---- */

/* FLOPs per element of the ATen ops a fused kernel name lists; view-like ops are 0 */
static const struct { const char *op; int fpe; } triton_ops[] = {
    {"add", 1}, {"sub", 1}, {"mul", 1}, {"div", 1}, {"pow", 2}, {"sqrt", 2}, {"rsqrt", 2},
    {"exp", 4}, {"log", 4}, {"sigmoid", 4}, {"tanh", 4}, {"relu", 1}, {"silu", 4}, {"gelu", 8},
    {"mean", 1}, {"sum", 1}, {"var", 2}, {"abs", 1}, {"neg", 1}, {"reciprocal", 2}, {"ne", 1},
    {"eq", 1}, {"lt", 1}, {"gt", 1}, {"_to_copy", 0}, {"copy_", 0}, {"clone", 0},
    {"embedding", 0}, {"_unsafe_view", 0}, {"view", 0},
};

/* bytes per element of the c10 dtypes the model knows (others count 0 bytes) */
static int triton_bpe(const char *t, const char **short_name)
{
    static const struct { const char *name, *lower; int bpe; } tab[] = {
        {"c10::BFloat16", "bfloat16", 2}, {"c10::Half", "half", 2}, {"c10::Float", "float", 4},
        {"c10::Double", "double", 8},     {"c10::Byte", "byte", 1}, {"c10::Char", "char", 1},
        {"c10::Int", "int", 4},           {"c10::Long", "long", 8},
    };
    for (size_t i = 0; i < sizeof tab / sizeof *tab; i++)
        if (t && strcmp(t, tab[i].name) == 0) {
            *short_name = tab[i].lower;
            return tab[i].bpe;
        }
    return 0;
}

/* Whether s[0..n) is a known ATen operator name (the sorted embedded list). */
static int known_op(const char *s, size_t n)
{
    size_t lo = 0, hi = tsql_aten_op_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const char *m = tsql_aten_op_names[mid];
        int c = strncmp(m, s, n);
        if (c == 0) c = m[n] ? 1 : 0; /* m longer than s sorts after it */
        if (c == 0) return 1;
        if (c < 0) lo = mid + 1; else hi = mid;
    }
    return 0;
}

/* The fused ops of the <ops> part of triton_<kind>_fused_<ops>_<n> (reference semantics
 * 7.10): split at '_' into tokens, find a segmentation into known operator names by
 * dynamic programming over token ends, and walk back from the end taking at each end
 * the longest segment that reaches a reachable start. Appends "aten.a, aten.b" to c->t
 * (nothing without a full segmentation) and adds the ops' FLOPs per element to *fpe.
 * 0, or -1 on OOM. */
static int triton_fused_ops(pm_ctx *c, const char *body, size_t blen, int *nops, int64_t *fpe)
{
    size_t ntok = 1;
    for (size_t i = 0; i < blen; i++) ntok += body[i] == '_';
    size_t *at = malloc((ntok + 1) * sizeof *at); /* token k is body[at[k] .. at[k+1] - 1) */
    uint8_t *reach = calloc(ntok + 1, 1);
    size_t *from = malloc((ntok + 1) * sizeof *from);
    int rc = -1;
    if (!at || !reach || !from) goto out;
    at[0] = 0;
    for (size_t i = 0, k = 1; i < blen; i++)
        if (body[i] == '_') at[k++] = i + 1;
    at[ntok] = blen + 1;
    reach[0] = 1;
    for (size_t end = 1; end <= ntok; end++)
        for (size_t start = 0; start < end && !reach[end]; start++)
            reach[end] = reach[start] && known_op(body + at[start], at[end] - 1 - at[start]);
    rc = 0;
    if (!reach[ntok]) goto out;
    /* back from the end: the longest segment (smallest start) whose start is reachable */
    size_t nseg = 0;
    for (size_t end = ntok; end > 0;) {
        size_t start = 0;
        while (!(reach[start] && known_op(body + at[start], at[end] - 1 - at[start]))) start++;
        from[nseg++] = start;
        end = start;
    }
    for (size_t k = nseg; k-- > 0;) {
        size_t start = from[k], stop = k ? from[k - 1] : ntok;
        const char *op = body + at[start];
        size_t len = at[stop] - 1 - at[start];
        if ((*nops && tsql_bput(&c->t, ", ", 2)) || tsql_bputs(&c->t, "aten.") || tsql_bput(&c->t, op, len)) {
            rc = -1;
            goto out;
        }
        (*nops)++;
        for (size_t i = 0; i < sizeof triton_ops / sizeof *triton_ops; i++)
            if (strlen(triton_ops[i].op) == len && strncmp(triton_ops[i].op, op, len) == 0) *fpe += triton_ops[i].fpe;
    }
out:
    free(at);
    free(reach);
    free(from);
    return rc;
}

int pm_triton(pm_ctx *c)
{
    if (c->bwd) return pm_notimpl(c, "backward metrics are not defined for compiled Triton kernels"), pm_status(c);
    int n_conc = pm_len(c->conc), n_dims = pm_len(c->dims), n_types = pm_len(c->types);
    if (!n_conc || !n_dims || !n_types)
        return pm_notimpl(c, "no Inductor metadata in the trace args (the Inductor cache is not read)"),
               pm_status(c);
    int red = strncmp(c->name, "triton_red_", 11) == 0 || strncmp(c->name, "triton_per_", 11) == 0;
    /* scalar launch sizes: the non-empty Concrete Inputs */
    int64_t last = 0, prev = 0;
    int nsc = 0;
    for (const cJSON *e = c->conc->child; e; e = e->next) {
        const char *s = cJSON_IsString(e) ? e->valuestring : NULL;
        if (s && !s[0]) continue;
        int64_t v;
        if (pm_parse_int(c, s, "Concrete Inputs", &v)) return pm_status(c);
        prev = last;
        last = v;
        nsc++;
    }
    int64_t xnumel, rnumel;
    if (red && nsc >= 2) xnumel = prev, rnumel = last;
    else if (nsc) xnumel = last, rnumel = 1;
    else return pm_notimpl(c, "no launch sizes in Concrete Inputs"), pm_status(c);

    /* fused ops from the kernel name: triton_<kind>_fused_<ops>_<n> */
    c->t.n = 0;
    int64_t fpe = 0;
    const char *body = strncmp(c->name + 11, "fused_", 6) == 0 ? c->name + 17 : NULL;
    size_t blen = 0;
    if (body) {
        const char *u = strrchr(body, '_');
        const char *q = u ? u + 1 : NULL;
        int digits = q && *q;
        for (const char *r = q; digits && *r; r++) digits = *r >= '0' && *r <= '9';
        if (u && u > body && digits) blen = (size_t)(u - body);
        else body = NULL;
    }
    int nops = 0;
    if (body && blen && triton_fused_ops(c, body, blen, &nops, &fpe)) return pm_nomem(c), pm_status(c);
    char *ops = strdup(c->t.p ? c->t.p : ""); /* pm_p_str reuses the scratch buffer */
    if (!ops) return pm_nomem(c), pm_status(c);
    int bad = pm_p_str(c, "fused_ops", ops) || pm_p_int(c, "xnumel", xnumel) || pm_p_int(c, "rnumel", rnumel);
    free(ops);
    if (bad) return pm_status(c);

    /* bytes: every tensor argument once, plus the output for pointwise kernels */
    int64_t bytes = 0;
    int first_bpe = -1;
    const char *dtype = NULL;
    int n = n_dims < n_types ? n_dims : n_types;
    for (int i = 0; i < n; i++) {
        const cJSON *d = cJSON_GetArrayItem(c->dims, i);
        const char *t = pm_type_opt(c, i);
        if ((t && strcmp(t, "Scalar") == 0) || !cJSON_IsArray(d) || cJSON_GetArraySize(d) == 0) continue;
        const char *sn = NULL;
        int bpe = triton_bpe(t, &sn);
        if (first_bpe < 0) first_bpe = bpe;
        if (!dtype && bpe > 0) dtype = sn;
        pm_shape s;
        if (pm_shape_of(c, d, "Input Dims", &s)) return pm_status(c);
        bytes = pm_add(c, bytes, pm_mul(c, pm_prod(c, s.d, s.n), bpe));
    }
    if (!red && first_bpe >= 0) bytes = pm_add(c, bytes, pm_mul(c, first_bpe, xnumel));
    pm_spec_raw(c, "vector", dtype);
    return pm_done(c, (double)pm_mul(c, fpe, pm_mul(c, xnumel, rnumel)), (double)bytes);
}
