/*
 * conv.c — convolution family (reference semantics 7.4, 7.5):
 * aten::convolution, aten::convolution_backward, ConvBias_, ConvBiasReLU_, and
 * ConvBias_Backward / ConvBiasReLU_Backward: these copy the parameters of a forward op
 * (docs/perf-models.md, "ConvBias_Backward and ConvBiasReLU_Backward"), so the context
 * holds that op's args (tsql_perf_eval_fwd) and the backward formulas apply to them.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "perfmodel/internal.h"

/* overflow-checked product of v[from..n) */
static int64_t cprod(pm_ctx *c, const int64_t *v, int from, int n)
{
    return from >= n ? 1 : pm_prod(c, v + from, n - from);
}

/* Output shape: normal o_i = int((s + 2p − dil·(k − 1) − 1) / str + 1) (real division,
 * truncation toward zero); transposed o_i = (s − 1)·str − 2p + dil·(k − 1) + outpad + 1. */
static int conv_out(const tsql_conv_dims *d, int64_t *o, const char **err)
{
    o[0] = d->x[0];
    o[1] = d->transposed ? d->w[1] : d->w[0];
    for (int i = 0; i < d->nd; i++) {
        int64_t s = d->x[2 + i], k = d->w[2 + i];
        if (!d->transposed) {
            if (d->stride[i] == 0) {
                *err = "convolution stride is 0";
                return -1;
            }
            double v = (double)(s + 2 * d->padding[i] - d->dilation[i] * (k - 1) - 1) / (double)d->stride[i] + 1;
            o[2 + i] = (int64_t)v; /* int() truncates toward zero */
        } else {
            o[2 + i] = (s - 1) * d->stride[i] - 2 * d->padding[i] + d->dilation[i] * (k - 1) +
                       d->output_padding[i] + 1;
        }
    }
    return 0;
}

/* F of CONV.flops_func(x, w, out, bias, transposed) for rank-r shapes */
static int64_t conv_flops_func(pm_ctx *c, const int64_t *x, const int64_t *w, const int64_t *out,
                              int r, int bias, int transposed)
{
    int64_t per = pm_mul(c, 2, cprod(c, w, 1, r));
    int64_t f = pm_mul(c, transposed ? cprod(c, x, 0, r) : cprod(c, out, 0, r), per);
    if (bias) f = pm_add(c, f, cprod(c, out, 0, r));
    return f;
}

/* (shape[1], shape[0]) + shape[2:] */
static void tswap(const int64_t *s, int r, int64_t *t)
{
    memcpy(t, s, (size_t)r * sizeof *s);
    t[0] = s[1];
    t[1] = s[0];
}

/* forward (bwd = 0) or backward (bwd = 1) F and Bytes; bpe 0 → Bytes NAN */
static int conv_eval(pm_ctx *c, const tsql_conv_dims *d, int bwd, int bpe, double *flops,
                     double *bytes, int64_t *o, const char **err)
{
    int r = d->nd + 2;
    if (conv_out(d, o, err)) return -1;
    int64_t px = cprod(c, d->x, 0, r), pw = cprod(c, d->w, 0, r), po = cprod(c, o, 0, r);
    if (!bwd) {
        *flops = (double)conv_flops_func(c, d->x, d->w, o, r, d->bias, d->transposed);
        if (!bpe) *bytes = NAN;
        else {
            int64_t e = pm_add(c, pm_add(c, px, pw), pm_add(c, d->bias ? o[1] : 0, po));
            *bytes = (double)pm_mul(c, e, bpe);
        }
        return 0;
    }
    /* flops_bwd: input grad = conv of out with w (transposition flipped), weight grad
     * = conv over transposed shapes, bias grad = prod(out) */
    int64_t tx[5], to[5], tw[5];
    int64_t f_in = conv_flops_func(c, o, d->w, d->x, r, 0, !d->transposed);
    int64_t f_w;
    tswap(d->x, r, tx);
    tswap(o, r, to);
    tswap(d->w, r, tw);
    if (!d->transposed) f_w = conv_flops_func(c, tx, to, tw, r, 0, 0);
    else f_w = conv_flops_func(c, to, tx, tw, r, 0, 0);
    int64_t f = pm_add(c, f_in, f_w);
    if (d->bias) f = pm_add(c, f, po);
    *flops = (double)f;
    if (!bpe) *bytes = NAN;
    else {
        /* bytes_func(out, w, x) + bytes_func(out, x, w), no bias; then the bias term (an
         * element count, not multiplied by bpe) */
        int64_t e = pm_mul(c, pm_add(c, pm_add(c, po, pw), px), bpe);
        int64_t b = pm_add(c, e, e);
        if (d->bias) b = pm_add(c, b, pm_add(c, po, o[1]));
        *bytes = (double)b;
    }
    return 0;
}

int tsql_conv_eval(const tsql_conv_dims *d, int bwd, int bpe, double *flops, double *bytes,
                   int64_t out_shape[5], const char **err)
{
    if (d->nd < 1 || d->nd > 3) {
        *err = "convolution input must have rank 3, 4 or 5";
        return -1;
    }
    tsql_perf p;
    tsql_perf_init(&p);
    pm_ctx c = {.p = &p, .name = "conv"};
    if (conv_eval(&c, d, bwd, bpe, flops, bytes, out_shape, err)) return -1;
    if (c.ovf) {
        *err = "a count does not fit in 64 bits";
        return -1;
    }
    return 0;
}

/* stride/padding/dilation/output_padding text: "[a, b]" → ints; "" → default */
static int conv_list(pm_ctx *c, const char *s, const char *what, int nd, int64_t def, int64_t *out, int *n)
{
    if (s && s[0] == 0) {
        for (int i = 0; i < nd; i++) out[i] = def;
        *n = nd;
        return 0;
    }
    return pm_parse_int_list(c, s, what, out, n, 8);
}

/* repr of a tuple of ints */
static int p_ints(pm_ctx *c, const char *name, const int64_t *v, int n)
{
    pm_shape s = {.n = n};
    memcpy(s.d, v, (size_t)n * sizeof *v);
    return pm_p_shape(c, name, &s);
}

int pm_conv(pm_ctx *c)
{
    int fused = strncmp(c->cls, "ConvBias", 8) == 0; /* ConvBias_, ConvBiasReLU_, their backwards */
    int backward = strcmp(c->cls, "aten_conv_bwd") == 0;
    /* ConvBias(ReLU)_Backward: the args are the forward op's, the formulas backward ones */
    int copied = c->p->op && (c->p->op->flags & TSQL_OPF_FWD_PARAMS);
    int ix = backward ? 1 : 0;                        /* input tensor position */
    if (!c->dims) return PM_FAIL(c, "%s: args have no \"Input Dims\"", c->name);
    if (!c->conc) return PM_FAIL(c, "%s: args have no \"Concrete Inputs\"", c->name);
    pm_shape x, w;
    if (pm_dims(c, ix, &x)) return pm_status(c);
    int nd = x.n - 2;
    if (pm_dims(c, ix + 1, &w)) return pm_status(c);

    /* bias: forward aten::convolution — exactly 3 inputs recorded (never for real events);
     * backward — dims[3] present and non-empty (Python's `and` returns the falsy operand,
     * so an empty dims[3] makes the parameter `[]`); fused ops — always */
    int bias = 0;
    const char *bias_repr = NULL;
    if (fused) bias = 1;
    else if (!backward) bias = pm_len(c->dims) == 3;
    else if (pm_len(c->dims) > 3) {
        const cJSON *b = pm_at_opt(c->dims, 3);
        if (cJSON_IsArray(b) && cJSON_GetArraySize(b) > 0) bias = 1;
        else if (cJSON_IsArray(b)) bias_repr = "[]";
        else if (cJSON_IsNull(b)) bias_repr = "None";
        else bias = 1;
    }

    int64_t stride[8], padding[8], dilation[8], outpad[8];
    int ns = 0, np = 0, ndl = 0, nop = 0, groups = 1, transposed = 0;
    if (nd < 0) nd = 0;
    if (nd > 8) return PM_FAIL(c, "%s: unknown convolution dimension: %d", c->name, x.n);
    if (fused) {
        const char *s3 = pm_len(c->conc) > 3 ? pm_conc_opt(c, 3) : "";
        const char *s4 = pm_len(c->conc) > 4 ? pm_conc_opt(c, 4) : "";
        int64_t sv = 1, pv = 0;
        if (s3 && s3[0] && pm_parse_int(c, s3, "stride", &sv)) return pm_status(c);
        if (s4 && s4[0] && pm_parse_int(c, s4, "padding", &pv)) return pm_status(c);
        if (!s3 || !s4) return PM_FAIL(c, "%s: stride or padding is None", c->name);
        for (int i = 0; i < nd; i++) stride[i] = sv, padding[i] = pv, dilation[i] = 1, outpad[i] = 0;
        ns = np = ndl = nop = nd;
    } else {
        int base = backward ? 4 : 3;
        const char *ss, *ps, *ds, *ts, *os, *gs;
        if (pm_conc(c, base, &ss) || conv_list(c, ss, "stride", nd, 1, stride, &ns) ||
            pm_conc(c, base + 1, &ps) || conv_list(c, ps, "padding", nd, 0, padding, &np) ||
            pm_conc(c, base + 2, &ds) || conv_list(c, ds, "dilation", nd, 1, dilation, &ndl) ||
            pm_conc(c, base + 3, &ts) || pm_parse_literal_bool(c, ts, "transposed", &transposed) ||
            pm_conc(c, base + 4, &os) || conv_list(c, os, "output_padding", nd, 0, outpad, &nop))
            return pm_status(c);
        int64_t g;
        if (pm_conc(c, base + 5, &gs) || pm_parse_int(c, gs, "groups", &g)) return pm_status(c);
        groups = (int)g;
        /* a one-element list is repeated for every spatial dimension */
        int64_t *lists[4] = {stride, padding, dilation, outpad};
        int *lens[4] = {&ns, &np, &ndl, &nop};
        for (int k = 0; k < 4; k++)
            if (*lens[k] == 1) {
                for (int i = 1; i < nd; i++) lists[k][i] = lists[k][0];
                *lens[k] = nd;
            }
    }

    const char *t0, *t1;
    if (pm_type(c, ix, &t0) || pm_type(c, ix + 1, &t1)) return pm_status(c);
    if (!(t0 == t1 || (t0 && t1 && strcmp(t0, t1) == 0)))
        return PM_FAIL(c, "%s: data types of input and weight are different: (%s, %s)", c->name,
                      t0 ? t0 : "None", t1 ? t1 : "None");
    const char *dt[2] = {t0, t1};

    static const char *const nd_names[] = {"conv1d", "conv2d", "conv3d"};
    if (x.n < 3 || x.n > 5)
        return PM_FAIL(c, "%s: unknown convolution dimension: %d", c->name, x.n);

    /* parameters, in TraceLens's order */
    if (pm_p_str(c, "convNd", nd_names[x.n - 3]) || pm_p_shape(c, "input_shape", &x) ||
        pm_p_shape(c, "filter_shape", &w) || pm_p_str_tuple(c, "dtype_input_weight", dt, 2))
        return pm_status(c);
    /* strides: KeyError → None for aten ops, KeyError or IndexError → None for fused ops */
    int mode = fused ? PM_OPT : PM_KEYOPT;
    if (!c->strides || (fused && (!pm_at_opt(c->strides, ix) || !pm_at_opt(c->strides, ix + 1)))) {
        if (pm_p_none(c, "input_stride") || pm_p_none(c, "weight_stride")) return pm_status(c);
    } else if (pm_p_stride(c, "input_stride", ix, mode) || pm_p_stride(c, "weight_stride", ix + 1, mode)) {
        return pm_status(c);
    }
    if ((bias_repr ? pm_p_repr(c, "bias", bias_repr) : pm_p_bool(c, "bias", bias)) ||
        p_ints(c, "stride", stride, ns) || p_ints(c, "padding", padding, np) ||
        p_ints(c, "dilation", dilation, ndl) || pm_p_bool(c, "transposed_conv", transposed) ||
        p_ints(c, "output_padding", outpad, nop) || pm_p_int(c, "groups", groups))
        return pm_status(c);

    /* the formulas index stride[i] etc. for every spatial dimension */
    if (ns < nd || np < nd || ndl < nd || (transposed && nop < nd) || w.n < x.n)
        return PM_FAIL(c, "%s: convolution parameters are shorter than the spatial rank", c->name);
    tsql_conv_dims d = {.nd = nd, .transposed = transposed, .bias = bias};
    memcpy(d.x, x.d, (size_t)x.n * sizeof *x.d);
    memcpy(d.w, w.d, (size_t)x.n * sizeof *w.d);
    for (int i = 0; i < nd; i++) {
        d.stride[i] = stride[i];
        d.padding[i] = padding[i];
        d.dilation[i] = dilation[i];
        d.output_padding[i] = transposed ? outpad[i] : 0;
    }
    int want_bwd = backward || copied || c->bwd;
    double f, b;
    int64_t o[5];
    const char *err = NULL;
    if (conv_eval(c, &d, want_bwd, pm_bpe(t0), &f, &b, o, &err))
        return PM_FAIL(c, "%s: %s", c->name, err);
    pm_spec(c, "matrix", t0);
    return pm_done(c, f, b);
}
