/*
 * reduce_norm.c — reductions (reference semantics 7.8) and normalizations
 * (7.9): batch/layer/group/instance norm forward and backward, RMSNorm, primus fused
 * LayerNorm-modulate.
 *
 * Norm formulas mix Python ints and floats (E / C is a real division); they are
 * evaluated in doubles, which is exact for counts below 2^53.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "perfmodel/internal.h"

/* ---- reduce ---- */

int pm_reduce(pm_ctx *c)
{
    const cJSON *d0 = pm_at_opt(c->dims, 0);
    if (!d0 || cJSON_IsNull(d0)) {
        /* no shape: everything 0, dtypes None, and no reduce_type */
        const char *none2[2] = {NULL, NULL};
        if (pm_p_int(c, "num_input_elems", 0) || pm_p_int(c, "num_output_elems", 0) ||
            pm_p_str_tuple(c, "dtype_in_out", none2, 2))
            return pm_status(c);
        return pm_done(c, 0, NAN);
    }
    pm_shape in;
    if (pm_shape_of(c, d0, "Input Dims[0]", &in)) return pm_status(c);
    int64_t nin = pm_prod(c, in.d, in.n);
    const char *tin = pm_len(c->types) ? pm_type_opt(c, 0) : NULL;
    const char *tout = NULL;
    const cJSON *ot = c->args ? cJSON_GetObjectItemCaseSensitive(c->args, "Output type") : NULL;
    if (ot && cJSON_IsArray(ot) && cJSON_GetArraySize(ot) > 0) {
        const cJSON *o0 = cJSON_GetArrayItem(ot, 0);
        tout = cJSON_IsString(o0) ? o0->valuestring : NULL;
    }

    /* typed dim / keepdim values among Concrete Inputs[1:] (Kineto writes strings, so
     * for PyTorch traces nothing is found and the reduction is full) */
    int keepdim = 0, keep_idx = -1, ndim = -1;
    int64_t dim[PM_MAX_RANK];
    int nconc = pm_len(c->conc);
    if (nconc >= 2) {
        for (int i = nconc - 1; i >= 1; i--) {
            const cJSON *v = cJSON_GetArrayItem(c->conc, i);
            if (cJSON_IsBool(v)) {
                keepdim = cJSON_IsTrue(v);
                keep_idx = i;
                break;
            }
        }
        for (int i = nconc - 1; i >= 1 && ndim < 0; i--) {
            if (i == keep_idx) continue;
            const cJSON *v = cJSON_GetArrayItem(c->conc, i);
            if (!v || cJSON_IsNull(v) || cJSON_IsString(v)) continue;
            if (cJSON_IsArray(v)) {
                int n = 0, ok = 1;
                for (const cJSON *e = v->child; e && ok; e = e->next) {
                    if (n == PM_MAX_RANK) ok = 0;
                    else if (cJSON_IsNumber(e)) dim[n++] = (int64_t)e->valuedouble;
                    else if (cJSON_IsBool(e)) dim[n++] = cJSON_IsTrue(e);
                    else ok = 0; /* int() of it fails: the value is skipped */
                }
                if (ok) ndim = n;
            } else if (cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble)) {
                dim[0] = (int64_t)v->valuedouble;
                ndim = 1;
            }
        }
    }
    int64_t nout;
    if (strstr(c->name, "cumsum") || strstr(c->name, "cumprod")) {
        nout = nin;
    } else if (ndim > 0) {
        int64_t shape[PM_MAX_RANK];
        int n = in.n;
        memcpy(shape, in.d, (size_t)n * sizeof *shape);
        for (int i = 0; i < ndim; i++)
            if (dim[i] < 0) dim[i] += in.n;
        /* sorted descending, each removed (or set to 1) while in range */
        for (int i = 0; i < ndim; i++)
            for (int j = i + 1; j < ndim; j++)
                if (dim[j] > dim[i]) {
                    int64_t t = dim[i];
                    dim[i] = dim[j];
                    dim[j] = t;
                }
        for (int i = 0; i < ndim; i++) {
            int64_t d = dim[i];
            if (d < 0 || d >= n) continue;
            if (keepdim) shape[d] = 1;
            else {
                memmove(shape + d, shape + d + 1, (size_t)(n - d - 1) * sizeof *shape);
                n--;
            }
        }
        nout = n ? pm_prod(c, shape, n) : 1;
    } else {
        nout = 1;
    }
    const char *rt = strstr(c->name, "mean") ? "mean"
                     : strstr(c->name, "max") ? "max"
                     : strstr(c->name, "min") ? "min"
                     : strstr(c->name, "norm") ? "norm"
                                               : "sum";
    const char *dt[2] = {tin, tout};
    if (pm_p_int(c, "num_input_elems", nin) || pm_p_int(c, "num_output_elems", nout) ||
        pm_p_str_tuple(c, "dtype_in_out", dt, 2) || pm_p_str(c, "reduce_type", rt))
        return pm_status(c);
    int bpe_in = tin && tin[0] ? pm_bpe(tin) : 0;
    int bpe_out = tout ? (tout[0] ? pm_bpe(tout) : 0) : bpe_in;
    double bytes = NAN;
    if (bpe_in && bpe_out) bytes = (double)pm_add(c, pm_mul(c, nin, bpe_in), pm_mul(c, nout, bpe_out));
    if (tin && tin[0]) pm_spec(c, "vector", tin);
    return pm_done(c, (double)nin, bytes);
}

/* ---- normalization ---- */

typedef struct norm {
    pm_shape shape;
    const char *dtype;
    double C;          /* num_channels (real for group_norm_backward) */
    int c_is_int;
    int has_bias, is_affine, is_training;
    int has_mask, nmask;
    int64_t mask[8];
} norm;

/* "dims[i] is not None" (Kineto lists are never None; a JSON null is) */
static int dims_not_none(pm_ctx *c, int i, int *out)
{
    const cJSON *v = pm_at(c, c->dims, "Input Dims", i);
    if (!v) return -1;
    *out = !cJSON_IsNull(v);
    return 0;
}

/* bool(conc[i]): a non-empty string */
static int conc_truthy(pm_ctx *c, int i, int *out)
{
    const char *s;
    if (pm_conc(c, i, &s)) return -1;
    *out = s && s[0];
    return 0;
}

/* product of the int list literal conc[i] (normalized_shape) */
static int conc_prod(pm_ctx *c, int i, double *out)
{
    const char *s;
    int64_t v[PM_MAX_RANK];
    int n;
    if (pm_conc(c, i, &s) || pm_parse_literal_list(c, s, "normalized_shape", v, &n, PM_MAX_RANK)) return -1;
    *out = (double)pm_prod(c, v, n);
    return 0;
}

static int conc_mask(pm_ctx *c, int i, norm *n)
{
    const char *s;
    if (pm_conc(c, i, &s) || pm_parse_literal_list(c, s, "output_mask", n->mask, &n->nmask, 8)) return -1;
    for (int k = 0; k < n->nmask; k++) n->mask[k] = n->mask[k] != 0;
    n->has_mask = 1;
    return 0;
}

static int norm_params(pm_ctx *c, const norm *n)
{
    const char *dt[2] = {n->dtype, NULL};
    if (pm_p_shape(c, "op_shape", &n->shape) || pm_p_str_tuple(c, "dtype_in_out", dt, 2)) return -1;
    /* stride_input was added by the caller (its failure mode differs per class) */
    return 0;
}

static int norm_tail_params(pm_ctx *c, const norm *n)
{
    if (pm_p_none(c, "stride_output") ||
        (n->c_is_int ? pm_p_int(c, "num_channels", (int64_t)n->C) : pm_p_float(c, "num_channels", n->C)) ||
        pm_p_bool(c, "has_bias", n->has_bias) || pm_p_bool(c, "is_affine", n->is_affine) ||
        pm_p_bool(c, "is_training", n->is_training))
        return -1;
    if (n->has_mask) {
        c->t.n = 0;
        int bad = tsql_bputc(&c->t, '[');
        for (int k = 0; k < n->nmask && !bad; k++) {
            if (k) bad |= tsql_bput(&c->t, ", ", 2);
            bad |= tsql_bputs(&c->t, n->mask[k] ? "True" : "False");
        }
        bad |= tsql_bputc(&c->t, ']');
        if (bad) return pm_nomem(c);
        if (pm_p_repr(c, "output_mask", c->t.p)) return -1;
    }
    return 0;
}

/* generic forward (Normalization.flops_func / bytes_func) */
static void norm_fwd(const norm *n, double E, int bpe, double *f, double *b)
{
    double C = n->C;
    double pc = C * 3;
    if (n->is_training) pc += E * 3;
    pc += C * 3;
    *f = pc + 2 * E;
    int nw = 2;
    if (n->is_affine) {
        nw += 1;
        if (n->has_bias) nw += 1;
    }
    if (n->is_training) nw += 2;
    *b = E * bpe + E * bpe + nw * C * bpe;
}

/* generic backward (Normalization.flops_func_bwd / bytes_func_bwd) */
static void norm_bwd(const norm *n, double E, int bpe, double *f, double *b)
{
    double C = n->C, epc = E / C;
    int m0 = n->nmask > 0 && n->mask[0];
    double fpc = n->is_training ? 0 : 3;
    fpc += 4 * epc;
    if (m0) {
        if (n->is_training) fpc += 5 * epc;
    } else {
        fpc += 2 * epc;
    }
    *f = C * fpc;
    double by = E * bpe + E * bpe * ((m0 && n->is_training) ? 2 : 1);
    if (n->is_training) by += C * bpe;
    if (n->is_affine) {
        by += C * bpe;
        if (n->is_training) by += C * bpe * (n->has_bias ? 2 : 1);
    }
    *b = by;
}

int pm_norm(pm_ctx *c)
{
    const char *k = c->cls;
    norm n;
    memset(&n, 0, sizeof n);
    n.c_is_int = 1;
    int in = 0;                /* position of the input tensor */
    int stride_mode = PM_STRICT;
    enum { GENERIC, RMS, RMS_BWD, LNMOD, LNMOD_BWD } kind = GENERIC;
    int bwd_formulas = 0;
    if (!c->dims) return PM_FAIL(c, "%s: args have no \"Input Dims\"", c->name);

    if (strcmp(k, "BatchNorm") == 0 || strcmp(k, "InstanceNorm") == 0 || strcmp(k, "GroupNorm") == 0) {
        if (pm_dims(c, 0, &n.shape) || dims_not_none(c, 2, &n.is_affine)) return pm_status(c);
        if (n.shape.n < 2) return PM_FAIL(c, "%s: input has no channel dimension", c->name);
        n.C = (double)n.shape.d[1];
        n.has_bias = 1;
        n.is_training = 1;
        if (k[0] != 'G' && conc_truthy(c, 5, &n.is_training)) return pm_status(c);
    } else if (strcmp(k, "BatchNormBwd") == 0) {
        int cudnn = strcmp(c->name, "aten::cudnn_batch_norm_backward") == 0 ||
                    strcmp(c->name, "aten::miopen_batch_norm_backward") == 0;
        int has_output = 1;
        in = cudnn ? 0 : 1;
        if (!cudnn && (dims_not_none(c, 0, &has_output) || conc_truthy(c, 7, &n.is_training))) return pm_status(c);
        if (pm_dims(c, in, &n.shape) || dims_not_none(c, 2, &n.is_affine)) return pm_status(c);
        if (n.shape.n < 2) return PM_FAIL(c, "%s: input has no channel dimension", c->name);
        n.C = (double)n.shape.d[1];
        n.has_bias = 1;
        n.has_mask = 1;
        n.nmask = 1;
        n.mask[0] = has_output;
        bwd_formulas = 1;
    } else if (strcmp(k, "LayerNorm") == 0) {
        if (pm_dims(c, 0, &n.shape) || conc_prod(c, 1, &n.C) || dims_not_none(c, 3, &n.has_bias) ||
            dims_not_none(c, 2, &n.is_affine))
            return pm_status(c);
        n.is_training = 1;
    } else if (strcmp(k, "LayerNormBwd") == 0) {
        in = 1;
        if (pm_dims(c, 1, &n.shape) || conc_prod(c, 2, &n.C) || conc_mask(c, 7, &n)) return pm_status(c);
        if (n.nmask < 3) return PM_FAIL(c, "%s: output_mask has fewer than 3 entries", c->name);
        n.is_affine = (int)n.mask[1];
        n.has_bias = (int)n.mask[2];
        n.is_training = 1;
        bwd_formulas = 1;
    } else if (strcmp(k, "GroupNormBwd") == 0) {
        in = 1;
        const char *gs;
        int64_t groups;
        if (pm_dims(c, 1, &n.shape) || dims_not_none(c, 5, &n.is_affine) || conc_mask(c, 9, &n) ||
            pm_conc(c, 8, &gs) || pm_parse_int(c, gs, "num_groups", &groups))
            return pm_status(c);
        if (n.shape.n < 2) return PM_FAIL(c, "%s: input has no channel dimension", c->name);
        if (groups == 0) return PM_FAIL(c, "%s: division by zero (num_groups is 0)", c->name);
        n.C = (double)n.shape.d[1] / (double)groups;
        n.c_is_int = 0;
        n.has_bias = 1;
        n.is_training = 1;
        bwd_formulas = 1;
    } else if (strcmp(k, "RMSNorm") == 0) {
        if (pm_dims(c, 0, &n.shape) || dims_not_none(c, 2, &n.is_affine) || conc_prod(c, 1, &n.C))
            return pm_status(c);
        kind = RMS;
    } else if (strcmp(k, "RMSNormBwd") == 0) {
        in = 1;
        if (pm_dims(c, 1, &n.shape) || dims_not_none(c, 4, &n.is_affine) || conc_prod(c, 2, &n.C) ||
            conc_mask(c, 5, &n))
            return pm_status(c);
        kind = RMS_BWD;
    } else if (strcmp(k, "FusedLnModulate") == 0 || strcmp(k, "FusedLnModulateBackward") == 0) {
        if (pm_dims(c, 0, &n.shape)) return pm_status(c);
        if (n.shape.n < 3) return PM_FAIL(c, "%s: expected a (T, B, H) input", c->name);
        n.C = (double)n.shape.d[2];
        n.has_bias = n.is_affine = n.is_training = 1;
        stride_mode = PM_OPT;
        kind = LNMOD;
        if (k[15] == 'B') {
            kind = LNMOD_BWD;
            n.has_mask = 1;
            n.nmask = 3;
            n.mask[0] = n.mask[1] = n.mask[2] = 1;
        }
    } else {
        return PM_FAIL(c, "%s: no normalization model %s", c->name, k);
    }
    if (pm_type(c, in, &n.dtype)) return pm_status(c);

    if (norm_params(c, &n) || pm_p_stride(c, "stride_input", in, stride_mode) || norm_tail_params(c, &n))
        return pm_status(c);

    int bpe = pm_bpe(n.dtype);
    if (!bpe) return PM_FAIL(c, "%s: unknown bytes per element for %s", c->name, n.dtype ? n.dtype : "None");
    double E = (double)pm_prod(c, n.shape.d, n.shape.n), f, b;
    if (pm_overflowed(c)) return pm_done(c, 0, NAN);
    switch (kind) {
    case RMS: {
        if (n.C == 0) return PM_FAIL(c, "%s: division by zero (num_channels is 0)", c->name);
        double nn = E / n.C;
        f = nn * (2 * n.C + 2);
        f += E * (n.is_affine ? 2 : 1);
        b = E * bpe + E * bpe + (n.is_affine ? n.C * bpe : 0);
        break;
    }
    case RMS_BWD: {
        if (n.C == 0) return PM_FAIL(c, "%s: division by zero (num_channels is 0)", c->name);
        if (n.nmask < 2) return PM_FAIL(c, "%s: output_mask is too short", c->name);
        double nn = E / n.C;
        f = n.is_affine ? E : 0;
        f += E;
        if (n.mask[0]) f += 2 * E + 4 * E;
        if (n.mask[1] && n.is_affine) {
            f += E;
            if (nn > 1) f += E;
        }
        b = E * bpe + E * bpe * 2 + (n.is_affine ? n.C * bpe * 2 : 0);
        break;
    }
    case LNMOD: {
        double T = (double)n.shape.d[0], B = (double)n.shape.d[1], H = n.C;
        f = E * 12;
        b = E * bpe + E * bpe + 2 * B * H * bpe + 2 * T * B * 4;
        break;
    }
    case LNMOD_BWD: {
        double T = (double)n.shape.d[0], B = (double)n.shape.d[1], H = n.C;
        f = E * 15;
        b = 2 * E * bpe + 2 * B * T * 4 + E * bpe + 2 * B * H * bpe + B * H * bpe;
        break;
    }
    default:
        if (n.C == 0 && (bwd_formulas || c->bwd))
            return PM_FAIL(c, "%s: division by zero (num_channels is 0)", c->name);
        if (bwd_formulas || c->bwd) norm_bwd(&n, E, bpe, &f, &b);
        else norm_fwd(&n, E, bpe, &f, &b);
    }
    pm_spec(c, "vector", n.dtype);
    return pm_done(c, f, b);
}
