/*
 * perf.c — SQL functions over the perf-model library (core/perfmodel/perfmodel.h),
 * the GPU spec table (core/perfmodel/gpu_specs.h, ext/vtab/gpu_specs.c). Reference with
 * examples: docs/perf-models.md. (Python text: ext/func/pytext.c.)
 *
 *   flops_gemm(M, N, K [, B [, bias]])                    FLOPs of a (batched) GEMM
 *   bytes_gemm(M, N, K, dtype_a [, dtype_b [, dtype_out [, B [, bias]]]])
 *   flops_conv(x, w [, stride [, padding [, dilation [, bias [, bwd]]]]])
 *   bytes_conv(x, w, dtype [, stride [, padding [, dilation [, bias [, bwd]]]]])
 *   flops_sdpa(B, N_Q, H_Q, N_KV, H_KV, d_h_qk, d_h_v, causal [, bwd [, flash_impl]])
 *   bytes_sdpa(B, N_Q, H_Q, N_KV, H_KV, d_h_qk, d_h_v [, bwd [, bpe]])
 *   broadcast_shape(shape_a, shape_b)                     JSON array or error
 *   dtype_bytes(type), dtype_precision(type)
 *   op_category(name [, first_kernel]), op_sheet(name), op_bwd_category(name),
 *   op_has_model(name)
 *   perf_model(name, args_json [, kernel_names_json [, bwd]])   JSON object
 *   perf_metrics(flops, bytes, kernel_us)                       JSON object
 *   roofline(flops, bytes, kernel_us, peak_tflops, mem_gbps)    JSON object or NULL
 *   roofline_time_us(...), roofline_bound(...), roofline_pct(...)  one field of it
 *
 * Pure functions are SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS. NULL arguments give NULL;
 * arguments of the wrong type raise an error naming the function and the argument.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "text/jsonout.h"
#include "perfmodel/inference_formulas.h"
#include "perfmodel/iteration.h"
#include "perfmodel/perfmodel.h"
#include "text/pyrepr.h"
#include "catalog/registration.h"
#include "func/fn_args.h"

/* ---- argument helpers: ext/func/fn_args.h ----------------------------------------------- */

/* Result for a count: INTEGER when integral and exact, REAL otherwise. */
static void result_count(sqlite3_context *ctx, double x)
{
    if (isnan(x)) sqlite3_result_null(ctx);
    else if (x == floor(x) && fabs(x) < 9007199254740992.0) sqlite3_result_int64(ctx, (sqlite3_int64)x);
    else sqlite3_result_double(ctx, x);
}

/* JSON writers: a key, a real (shortest repr; NaN/inf → null), a count (integer when
 * exact), text or null */
static int j_real(tsql_buf *b, double x)
{
    if (!isfinite(x)) return tsql_bputs(b, "null");
    return tsql_py_put_float(b, x);
}

static int j_count(tsql_buf *b, double x)
{
    if (!isfinite(x)) return tsql_bputs(b, "null");
    if (x == floor(x) && fabs(x) < 9007199254740992.0) return tsql_py_put_int(b, (long long)x);
    return tsql_py_put_float(b, x);
}

/* A shape argument: JSON array of integers, e.g. '[4, 3, 224, 224]'. */
static int arg_shape(sqlite3_context *ctx, sqlite3_value **argv, int i, const char *fn, const char *what,
                     int64_t *d, int max, int *n)
{
    const char *s;
    int r = tsql_arg_text(ctx, argv, i, fn, what, &s);
    if (r <= 0) return r;
    cJSON *j = cJSON_Parse(s);
    int ok = j && cJSON_IsArray(j) && cJSON_GetArraySize(j) <= max;
    *n = 0;
    for (cJSON *e = ok ? j->child : NULL; e && ok; e = e->next) {
        ok = cJSON_IsNumber(e) && e->valuedouble == floor(e->valuedouble) && fabs(e->valuedouble) < 9.2e18;
        if (ok) d[(*n)++] = (int64_t)e->valuedouble;
    }
    cJSON_Delete(j);
    if (!ok) {
        tsql_result_error(ctx, "%s: %s must be a JSON array of at most %d integers", fn, what, max);
        return -1;
    }
    return 1;
}

/* ---- GEMM ------------------------------------------------------------------------------------ */

static void fn_flops_gemm(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    static const char *const names[] = {"M", "N", "K", "B"};
    int64_t v[4] = {0, 0, 0, 1};
    int bias = 0;
    for (int i = 0; i < argc && i < 4; i++) {
        int r = tsql_arg_int(ctx, argv, i, "flops_gemm", names[i], &v[i]);
        if (r <= 0) return;
    }
    if (argc > 4 && tsql_arg_bool(ctx, argv, 4, "flops_gemm", "bias", &bias) <= 0) return;
    int64_t f, mn, t;
    if (__builtin_mul_overflow(v[0], v[1], &mn) || __builtin_mul_overflow(mn, v[2], &t) ||
        __builtin_mul_overflow(t, 2, &f) || __builtin_add_overflow(f, bias ? mn : 0, &f) ||
        __builtin_mul_overflow(f, v[3], &f)) {
        sqlite3_result_double(ctx, tsql_gemm_flops((double)v[0], (double)v[1], (double)v[2], (double)v[3], bias));
        return;
    }
    sqlite3_result_int64(ctx, f);
}

static int dtype_bpe_arg(sqlite3_context *ctx, sqlite3_value **argv, int i, const char *fn, const char *what,
                         int *bpe)
{
    const char *s;
    int r = tsql_arg_text(ctx, argv, i, fn, what, &s);
    if (r <= 0) return r;
    *bpe = tsql_dtype_bytes(s);
    return 1;
}

static void fn_bytes_gemm(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    static const char *const names[] = {"M", "N", "K"};
    int64_t v[3], B = 1;
    int bias = 0, bpe_a, bpe_b, bpe_out;
    for (int i = 0; i < 3; i++)
        if (tsql_arg_int(ctx, argv, i, "bytes_gemm", names[i], &v[i]) <= 0) return;
    if (dtype_bpe_arg(ctx, argv, 3, "bytes_gemm", "dtype_a", &bpe_a) <= 0) return;
    bpe_b = bpe_out = bpe_a;
    if (argc > 4 && dtype_bpe_arg(ctx, argv, 4, "bytes_gemm", "dtype_b", &bpe_b) <= 0) return;
    if (argc > 5 && dtype_bpe_arg(ctx, argv, 5, "bytes_gemm", "dtype_out", &bpe_out) <= 0) return;
    if (argc > 6 && tsql_arg_int(ctx, argv, 6, "bytes_gemm", "B", &B) <= 0) return;
    if (argc > 7 && tsql_arg_bool(ctx, argv, 7, "bytes_gemm", "bias", &bias) <= 0) return;
    result_count(ctx, tsql_gemm_bytes((double)v[0], (double)v[1], (double)v[2], (double)B, bias, bpe_a, bpe_b,
                                      bpe_out, bpe_a));
}

/* ---- convolution ---------------------------------------------------------------------------- */

/* stride/padding/dilation: an integer (every spatial dim) or a JSON array; NULL → default */
static int conv_list_arg(sqlite3_context *ctx, sqlite3_value **argv, int argc, int i, const char *fn,
                         const char *what, int nd, int64_t def, int64_t *out)
{
    for (int k = 0; k < nd; k++) out[k] = def;
    if (i >= argc || sqlite3_value_type(argv[i]) == SQLITE_NULL) return 1;
    int t = sqlite3_value_numeric_type(argv[i]);
    if (t == SQLITE_INTEGER) {
        for (int k = 0; k < nd; k++) out[k] = sqlite3_value_int64(argv[i]);
        return 1;
    }
    int64_t v[3];
    int n;
    if (arg_shape(ctx, argv, i, fn, what, v, 3, &n) <= 0) return -1;
    if (n == 1)
        for (int k = 0; k < nd; k++) out[k] = v[0];
    else if (n == nd)
        for (int k = 0; k < nd; k++) out[k] = v[k];
    else {
        tsql_result_error(ctx, "%s: %s has %d entries, the input has %d spatial dimensions", fn, what, n, nd);
        return -1;
    }
    return 1;
}

/* shared by flops_conv (first = 2) and bytes_conv (first = 3, dtype in argv[2]) */
static void conv_common(sqlite3_context *ctx, int argc, sqlite3_value **argv, int want_bytes)
{
    const char *fn = want_bytes ? "bytes_conv" : "flops_conv";
    tsql_conv_dims d;
    memset(&d, 0, sizeof d);
    int nx, nw, bpe = 0, bwd = 0, r;
    if ((r = arg_shape(ctx, argv, 0, fn, "input shape", d.x, 5, &nx)) <= 0) return;
    if ((r = arg_shape(ctx, argv, 1, fn, "weight shape", d.w, 5, &nw)) <= 0) return;
    if (nx < 3 || nx != nw) {
        tsql_result_error(ctx, "%s: input and weight shapes must both have rank 3, 4 or 5", fn);
        return;
    }
    d.nd = nx - 2;
    int a = 2;
    if (want_bytes && dtype_bpe_arg(ctx, argv, a++, fn, "dtype", &bpe) <= 0) return;
    if (conv_list_arg(ctx, argv, argc, a++, fn, "stride", d.nd, 1, d.stride) < 0 ||
        conv_list_arg(ctx, argv, argc, a++, fn, "padding", d.nd, 0, d.padding) < 0 ||
        conv_list_arg(ctx, argv, argc, a++, fn, "dilation", d.nd, 1, d.dilation) < 0)
        return;
    if (a < argc && (r = tsql_arg_bool(ctx, argv, a, fn, "bias", &d.bias)) < 0) return;
    a++;
    if (a < argc && (r = tsql_arg_bool(ctx, argv, a, fn, "bwd", &bwd)) < 0) return;
    double f, b;
    int64_t o[5];
    const char *err = NULL;
    if (tsql_conv_eval(&d, bwd, bpe, &f, &b, o, &err)) {
        tsql_result_error(ctx, "%s: %s", fn, err);
        return;
    }
    result_count(ctx, want_bytes ? b : f);
}

static void fn_flops_conv(sqlite3_context *ctx, int argc, sqlite3_value **argv) { conv_common(ctx, argc, argv, 0); }
static void fn_bytes_conv(sqlite3_context *ctx, int argc, sqlite3_value **argv) { conv_common(ctx, argc, argv, 1); }

/* ---- SDPA --------------------------------------------------------------------------------- */

static int sdpa_args(sqlite3_context *ctx, sqlite3_value **argv, const char *fn, tsql_sdpa_dims *d)
{
    static const char *const names[] = {"B", "N_Q", "H_Q", "N_KV", "H_KV", "d_h_qk", "d_h_v"};
    int64_t *f[] = {&d->B, &d->N_Q, &d->H_Q, &d->N_KV, &d->H_KV, &d->d_h_qk, &d->d_h_v};
    for (int i = 0; i < 7; i++) {
        int r = tsql_arg_int(ctx, argv, i, fn, names[i], f[i]);
        if (r <= 0) return r;
    }
    return 1;
}

static void fn_flops_sdpa(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    tsql_sdpa_dims d = {0};
    int bwd = 0;
    d.flash_impl = 1;
    if (sdpa_args(ctx, argv, "flops_sdpa", &d) <= 0) return;
    if (tsql_arg_bool(ctx, argv, 7, "flops_sdpa", "causal", &d.causal) <= 0) return;
    if (argc > 8 && tsql_arg_bool(ctx, argv, 8, "flops_sdpa", "bwd", &bwd) <= 0) return;
    if (argc > 9 && tsql_arg_bool(ctx, argv, 9, "flops_sdpa", "flash_impl", &d.flash_impl) <= 0) return;
    double f;
    const char *err = NULL;
    if (tsql_sdpa_flops(&d, bwd, &f, &err)) {
        tsql_result_error(ctx, "flops_sdpa: %s", err);
        return;
    }
    result_count(ctx, f);
}

static void fn_bytes_sdpa(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    tsql_sdpa_dims d = {0};
    int bwd = 0;
    int64_t bpe = 2;
    if (sdpa_args(ctx, argv, "bytes_sdpa", &d) <= 0) return;
    if (argc > 7 && tsql_arg_bool(ctx, argv, 7, "bytes_sdpa", "bwd", &bwd) <= 0) return;
    if (argc > 8 && tsql_arg_int(ctx, argv, 8, "bytes_sdpa", "bpe", &bpe) <= 0) return;
    result_count(ctx, tsql_sdpa_bytes(&d, bwd, (int)bpe));
}

/* ---- elementwise ----------------------------------------------------------------------------- */

static void fn_broadcast_shape(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    int64_t a[16], b[16], o[16];
    int na, nb;
    if (arg_shape(ctx, argv, 0, "broadcast_shape", "shape_a", a, 16, &na) <= 0) return;
    if (arg_shape(ctx, argv, 1, "broadcast_shape", "shape_b", b, 16, &nb) <= 0) return;
    int n = tsql_broadcast(a, na, b, nb, o);
    if (n < 0) {
        tsql_result_error(ctx, "broadcast_shape: shapes %s and %s do not broadcast", sqlite3_value_text(argv[0]),
                     sqlite3_value_text(argv[1]));
        return;
    }
    tsql_buf buf = {0};
    int bad = tsql_bputc(&buf, '[');
    for (int i = 0; i < n && !bad; i++) {
        if (i) bad |= tsql_bput(&buf, ", ", 2);
        bad |= tsql_py_put_int(&buf, (long long)o[i]);
    }
    bad |= tsql_bputc(&buf, ']');
    tsql_result_buf(ctx, &buf, !bad);
}

/* ---- data types and categories ----------------------------------------------------------------- */

static void fn_dtype_bytes(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const char *s;
    if (tsql_arg_text(ctx, argv, 0, "dtype_bytes", "type", &s) <= 0) return;
    int b = tsql_dtype_bytes(s);
    if (b) sqlite3_result_int(ctx, b);
}

static void fn_dtype_precision(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const char *s;
    if (tsql_arg_text(ctx, argv, 0, "dtype_precision", "type", &s) <= 0) return;
    const char *p = tsql_dtype_precision(s);
    if (p) sqlite3_result_text(ctx, p, -1, SQLITE_STATIC);
}

static void fn_op_category(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    const char *name, *k = NULL;
    if (tsql_arg_text(ctx, argv, 0, "op_category", "name", &name) <= 0) return;
    if (argc > 1 && tsql_arg_text(ctx, argv, 1, "op_category", "first_kernel", &k) < 0) return;
    sqlite3_result_text(ctx, tsql_op_category(name, k), -1, SQLITE_STATIC);
}

static void fn_op_sheet(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const char *name;
    if (tsql_arg_text(ctx, argv, 0, "op_sheet", "name", &name) <= 0) return;
    const char *s = tsql_op_sheet(name);
    if (s) sqlite3_result_text(ctx, s, -1, SQLITE_STATIC);
}

static void fn_op_bwd_category(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const char *name;
    if (tsql_arg_text(ctx, argv, 0, "op_bwd_category", "name", &name) <= 0) return;
    const char *s = tsql_op_bwd_category(name);
    if (s) sqlite3_result_text(ctx, s, -1, SQLITE_STATIC);
}

static void fn_op_has_model(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const char *name;
    if (tsql_arg_text(ctx, argv, 0, "op_has_model", "name", &name) <= 0) return;
    sqlite3_result_int(ctx, tsql_op_has_model(name));
}

/* ---- perf_model ---------------------------------------------------------------------------------- */

static int put_perf_json(tsql_buf *b, const tsql_perf *p, int bwd)
{
    int first = 1, bad = 0;
    tsql_perf_metrics m;
    double bytes = p->has_bytes ? p->bytes : NAN;
    tsql_perf_derive(p->flops, bytes, 0, &m);
    int ok = p->status == TSQL_PM_OK;
    bad |= tsql_bputc(b, '{');
    bad |= tsql_json_key(b, &first, "status") || tsql_json_text(b, tsql_pm_status_names[p->status]);
    bad |= tsql_json_key(b, &first, "category") || tsql_json_text(b, p->category);
    bad |= tsql_json_key(b, &first, "sheet") || tsql_json_text(b, p->sheet);
    bad |= tsql_json_key(b, &first, "bwd") || tsql_bputs(b, bwd ? "true" : "false");
    bad |= tsql_json_key(b, &first, "flops") || (ok ? j_count(b, p->flops) : tsql_bputs(b, "null"));
    bad |= tsql_json_key(b, &first, "gflops") || (ok ? j_real(b, m.gflops) : tsql_bputs(b, "null"));
    bad |= tsql_json_key(b, &first, "bytes") || (ok ? j_count(b, bytes) : tsql_bputs(b, "null"));
    bad |= tsql_json_key(b, &first, "data_moved_mb") || (ok ? j_real(b, m.data_moved_mb) : tsql_bputs(b, "null"));
    bad |= tsql_json_key(b, &first, "flops_per_byte") || (ok ? j_real(b, m.flops_per_byte) : tsql_bputs(b, "null"));
    bad |= tsql_json_key(b, &first, "compute_spec") || (ok ? tsql_json_text(b, p->compute_spec) : tsql_bputs(b, "null"));
    /* params as JSON values, params_text as Python str() forms, perf_params as the dict repr */
    bad |= tsql_json_key(b, &first, "params");
    if (!ok) bad |= tsql_bputs(b, "null");
    else {
        int f2 = 1;
        bad |= tsql_bputc(b, '{');
        for (size_t i = 0; i < p->nparams && !bad; i++) {
            bad |= tsql_json_key(b, &f2, p->params[i].name);
            const char *err;
            int rc = tsql_py_to_json(b, p->params[i].repr, strlen(p->params[i].repr), &err);
            if (rc == -2) bad |= tsql_json_text(b, p->params[i].repr); /* not a literal: keep the text */
            else bad |= rc;
        }
        bad |= tsql_bputc(b, '}');
    }
    bad |= tsql_json_key(b, &first, "params_text");
    if (!ok) bad |= tsql_bputs(b, "null");
    else {
        int f2 = 1;
        bad |= tsql_bputc(b, '{');
        for (size_t i = 0; i < p->nparams && !bad; i++)
            bad |= tsql_json_key(b, &f2, p->params[i].name) || tsql_json_text(b, p->params[i].str);
        bad |= tsql_bputc(b, '}');
    }
    bad |= tsql_json_key(b, &first, "perf_params");
    if (!ok) bad |= tsql_bputs(b, "null");
    else {
        tsql_buf d = {0};
        bad |= tsql_perf_params_dict(p, &d) || tsql_json_text(b, d.p ? d.p : "{}");
        free(d.p);
    }
    bad |= tsql_json_key(b, &first, "error") || tsql_json_text(b, p->error[0] ? p->error : NULL);
    bad |= tsql_bputc(b, '}');
    return bad ? -1 : 0;
}

static void fn_perf_model(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    const char *name, *args = NULL, *kn = NULL, *ann = NULL;
    int bwd = 0, r;
    if ((r = tsql_arg_text(ctx, argv, 0, "perf_model", "name", &name)) <= 0) return;
    if (tsql_arg_text(ctx, argv, 1, "perf_model", "args_json", &args) < 0) return;
    if (argc > 2 && tsql_arg_text(ctx, argv, 2, "perf_model", "kernel_names_json", &kn) < 0) return;
    if (argc > 3 && tsql_arg_bool(ctx, argv, 3, "perf_model", "bwd", &bwd) < 0) return;
    if (argc > 4 && tsql_arg_text(ctx, argv, 4, "perf_model", "annotation", &ann) < 0) return;
    /* kernel names: a JSON array of strings */
    cJSON *kj = NULL;
    const char **names = NULL;
    int nk = 0;
    if (kn) {
        kj = cJSON_Parse(kn);
        if (!kj || !cJSON_IsArray(kj)) {
            cJSON_Delete(kj);
            tsql_result_error(ctx, "perf_model: kernel_names_json must be a JSON array of kernel names");
            return;
        }
        nk = cJSON_GetArraySize(kj);
        names = sqlite3_malloc64((sqlite3_uint64)(nk + 1) * sizeof *names);
        if (!names) {
            cJSON_Delete(kj);
            sqlite3_result_error_nomem(ctx);
            return;
        }
        int i = 0;
        for (cJSON *e = kj->child; e; e = e->next) names[i++] = cJSON_IsString(e) ? e->valuestring : NULL;
    }
    tsql_perf p;
    tsql_perf_init(&p);
    tsql_perf_eval_ann(&p, name, args, ann, names, (size_t)nk, bwd);
    tsql_buf b = {0};
    int ok = p.status != TSQL_PM_NOMEM && put_perf_json(&b, &p, bwd) == 0;
    tsql_perf_free(&p);
    sqlite3_free(names);
    cJSON_Delete(kj);
    tsql_result_buf(ctx, &b, ok);
}

/* ---- derived metrics and roofline ------------------------------------------------------------------ */

static void fn_perf_metrics(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    double f, by = NAN, t;
    if (tsql_arg_num(ctx, argv, 0, "perf_metrics", "flops", &f) <= 0) return;
    int rb = tsql_arg_num(ctx, argv, 1, "perf_metrics", "bytes", &by);
    if (rb < 0) return;
    if (tsql_arg_num(ctx, argv, 2, "perf_metrics", "kernel_us", &t) <= 0) return;
    tsql_perf_metrics m;
    tsql_perf_derive(f, rb ? by : NAN, t, &m);
    tsql_buf b = {0};
    int first = 1, bad = tsql_bputc(&b, '{');
    bad |= tsql_json_key(&b, &first, "gflops") || j_real(&b, m.gflops);
    bad |= tsql_json_key(&b, &first, "tflops_s") || j_real(&b, m.tflops_s);
    bad |= tsql_json_key(&b, &first, "data_moved_mb") || j_real(&b, m.data_moved_mb);
    bad |= tsql_json_key(&b, &first, "flops_per_byte") || j_real(&b, m.flops_per_byte);
    bad |= tsql_json_key(&b, &first, "tb_s") || j_real(&b, m.tb_s);
    bad |= tsql_bputc(&b, '}');
    tsql_result_buf(ctx, &b, !bad);
}

/* The roofline of the five arguments of roofline() and its companions. 1 with *r,
 * 0 when there is none (NULL result), -1 after an error. */
static int roofline_args(sqlite3_context *ctx, sqlite3_value **argv, const char *fn, tsql_roofline *r)
{
    if (sqlite3_value_type(argv[3]) == SQLITE_TEXT && sqlite3_value_numeric_type(argv[3]) == SQLITE_TEXT) {
        tsql_result_error(ctx, "%s: peak_tflops must be a number; for a GPU name use "
                          "gpu_roofline(flops, bytes, kernel_us, gpu, compute_spec)", fn);
        return -1;
    }
    static const char *const names[] = {"flops", "bytes", "kernel_us", "peak_tflops", "mem_gbps"};
    double v[5];
    for (int i = 0; i < 5; i++) {
        int rc = tsql_arg_num(ctx, argv, i, fn, names[i], &v[i]);
        if (rc <= 0) return rc < 0 ? -1 : 0;
    }
    return tsql_roofline_eval(v[0], v[1], v[2], v[3], v[4], r) == 0;
}

/* roofline_time_us / roofline_bound / roofline_pct: one field of roofline(), so that a
 * view needs no JSON per row */
enum { RL_TIME, RL_BOUND, RL_PCT };
static void roofline_field(sqlite3_context *ctx, sqlite3_value **argv, int field)
{
    static const char *const fname[] = {"roofline_time_us", "roofline_bound", "roofline_pct"};
    tsql_roofline r;
    if (roofline_args(ctx, argv, fname[field], &r) <= 0) return;
    if (field == RL_BOUND) sqlite3_result_text(ctx, r.bound, -1, SQLITE_STATIC);
    else if (!isnan(field == RL_TIME ? r.time_us : r.pct))
        sqlite3_result_double(ctx, field == RL_TIME ? r.time_us : r.pct);
}

static void fn_roofline_time_us(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    roofline_field(ctx, argv, RL_TIME);
}

static void fn_roofline_bound(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    roofline_field(ctx, argv, RL_BOUND);
}

static void fn_roofline_pct(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    roofline_field(ctx, argv, RL_PCT);
}

static void fn_roofline(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    tsql_roofline r;
    if (roofline_args(ctx, argv, "roofline", &r) <= 0) return; /* no roofline: NULL */
    tsql_buf b = {0};
    int first = 1, bad = tsql_bputc(&b, '{');
    bad |= tsql_json_key(&b, &first, "bound") || tsql_json_text(&b, r.bound);
    bad |= tsql_json_key(&b, &first, "roofline_time_us") || j_real(&b, r.time_us);
    bad |= tsql_json_key(&b, &first, "pct_roofline") || j_real(&b, r.pct);
    bad |= tsql_json_key(&b, &first, "compute_us") || j_real(&b, r.compute_us);
    bad |= tsql_json_key(&b, &first, "memory_us") || j_real(&b, r.memory_us);
    bad |= tsql_bputc(&b, '}');
    tsql_result_buf(ctx, &b, !bad);
}

/* ---- inference extension formulas ------------------------------------------------------------------- */

static const char *const ITER_FORMATS[] = {NULL, "vllm_detailed", "vllm_native", "sglang_detailed",
                                           "sglang_native", "atom_detailed", "atom_native", "diffusion"};

/* iteration_stats(annotation): the per-step statistics of an iteration annotation as
 * JSON; NULL when the text is not one */
static void fn_iteration_stats(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const char *s;
    if (tsql_arg_text(ctx, argv, 0, "iteration_stats", "annotation", &s) <= 0) return;
    tsql_iter it;
    tsql_iter_parse(s, &it);
    if (it.format == TSQL_ITER_NONE) return;
    char bs[24] = "null";
    if (it.has_batch) snprintf(bs, sizeof bs, "%lld", (long long)it.batch_size);
    char *j = sqlite3_mprintf("{\"format\":\"%s\",\"detailed\":%d,\"c_sq\":%lld,\"c_sk\":%lld,\"c_sqsq\":%lld,"
                              "\"c_sqsk\":%lld,\"g_sq\":%lld,\"g_sk\":%lld,\"g_sqsq\":%lld,\"g_sqsk\":%lld,"
                              "\"batch_size\":%s}",
                              ITER_FORMATS[it.format], it.detailed, (long long)it.c_sq, (long long)it.c_sk,
                              (long long)it.c_sqsq, (long long)it.c_sqsk, (long long)it.g_sq, (long long)it.g_sk,
                              (long long)it.g_sqsq, (long long)it.g_sqsk,
                              bs);
    if (!j) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    sqlite3_result_text(ctx, j, -1, sqlite3_free);
}

/* (H_Q, H_KV, d_h_qk, d_h_v, annotation) → the dims; 1, 0 (a NULL argument or no
 * detailed statistics: NULL result) or -1 (error set) */
static int attention_args(sqlite3_context *ctx, sqlite3_value **argv, const int *pos, const char *fn,
                          tsql_attention_dims *d)
{
    static const char *const names[] = {"H_Q", "H_KV", "d_h_qk", "d_h_v"};
    int64_t *v[] = {&d->H_Q, &d->H_KV, &d->d_qk, &d->d_v};
    for (int i = 0; i < 4; i++) {
        if (pos[i] < 0) continue;
        int r = tsql_arg_int(ctx, argv, pos[i], fn, names[i], v[i]);
        if (r <= 0) return r;
    }
    const char *ann;
    int r = tsql_arg_text(ctx, argv, pos[4], fn, "annotation", &ann);
    if (r <= 0) return r;
    tsql_iter it;
    tsql_iter_parse(ann, &it);
    if (!it.detailed) return 0;
    d->c_sq = it.c_sq, d->c_sk = it.c_sk, d->c_sqsq = it.c_sqsq, d->c_sqsk = it.c_sqsk;
    d->g_sq = it.g_sq, d->g_sk = it.g_sk, d->g_sqsq = it.g_sqsq, d->g_sqsk = it.g_sqsk;
    return 1;
}

/* flops_inference_attention(H_Q, d_h_qk, d_h_v, annotation [, sliding_window]) */
static void fn_flops_inference_attention(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    tsql_attention_dims d = {0};
    static const int pos[] = {0, -1, 1, 2, 3};
    if (attention_args(ctx, argv, pos, "flops_inference_attention", &d) <= 0) return;
    if (argc > 4 && tsql_arg_int(ctx, argv, 4, "flops_inference_attention", "sliding_window", &d.W) < 0) return;
    int64_t f, b;
    if (tsql_attention_eval(&d, 2, 2, &f, &b)) {
        tsql_result_error(ctx, "flops_inference_attention: the count does not fit in 64 bits");
        return;
    }
    sqlite3_result_int64(ctx, f);
}

/* bytes_inference_attention(H_Q, H_KV, d_h_qk, d_h_v, annotation, dtype_q [, dtype_kv
 * [, sliding_window]]) */
static void fn_bytes_inference_attention(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    tsql_attention_dims d = {0};
    static const int pos[] = {0, 1, 2, 3, 4};
    const char *fn = "bytes_inference_attention";
    if (attention_args(ctx, argv, pos, fn, &d) <= 0) return;
    int bq = 0, bkv = 0;
    if (dtype_bpe_arg(ctx, argv, 5, fn, "dtype_q", &bq) < 0) return;
    if (argc > 6 && sqlite3_value_type(argv[6]) != SQLITE_NULL && dtype_bpe_arg(ctx, argv, 6, fn, "dtype_kv", &bkv) < 0)
        return;
    if (argc > 7 && tsql_arg_int(ctx, argv, 7, fn, "sliding_window", &d.W) < 0) return;
    if (!bq) bq = 2; /* TraceLens's default for an unknown query dtype */
    if (!bkv) bkv = bq;
    int64_t f, b;
    if (tsql_attention_eval(&d, bq, bkv, &f, &b)) {
        tsql_result_error(ctx, "%s: the count does not fit in 64 bits", fn);
        return;
    }
    sqlite3_result_int64(ctx, b);
}

/* kind: 'fused', 'up' or 'down' */
static int moe_kind(sqlite3_context *ctx, sqlite3_value **argv, const char *fn, int *kind)
{
    const char *k;
    int r = tsql_arg_text(ctx, argv, 0, fn, "kind", &k);
    if (r <= 0) return r;
    if (!sqlite3_stricmp(k, "fused")) *kind = TSQL_MOE_FUSED;
    else if (!sqlite3_stricmp(k, "up")) *kind = TSQL_MOE_UP;
    else if (!sqlite3_stricmp(k, "down")) *kind = TSQL_MOE_DOWN;
    else {
        tsql_result_error(ctx, "%s: kind must be 'fused', 'up' or 'down', not '%s'", fn, k);
        return -1;
    }
    return 1;
}

/* the MoE arguments kind, M, K, N, E, topk [, gated]; 1, 0 (NULL) or -1 */
static int moe_args(sqlite3_context *ctx, int argc, sqlite3_value **argv, const char *fn, int *kind, int64_t *v,
                    int *gated)
{
    static const char *const names[] = {"num_tokens", "hidden_dim", "inter_dim", "num_experts", "topk"};
    int r = moe_kind(ctx, argv, fn, kind);
    if (r <= 0) return r;
    for (int i = 0; i < 5; i++)
        if ((r = tsql_arg_int(ctx, argv, i + 1, fn, names[i], &v[i])) <= 0) return r;
    *gated = 0;
    if (argc > 6 && tsql_arg_bool(ctx, argv, 6, fn, "gated", gated) < 0) return -1;
    if (v[3] <= 0) {
        tsql_result_error(ctx, "%s: num_experts must be positive", fn);
        return -1;
    }
    return 1;
}

/* flops_moe(kind, M, K, N, E, topk [, gated]) */
static void fn_flops_moe(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    int kind, gated;
    int64_t v[5], f;
    double b;
    if (moe_args(ctx, argc, argv, "flops_moe", &kind, v, &gated) <= 0) return;
    if (tsql_moe_eval(kind, v[0], v[1], v[2], v[3], v[4], gated, 2, 2, 2, &f, &b)) {
        tsql_result_error(ctx, "flops_moe: the count does not fit in 64 bits");
        return;
    }
    sqlite3_result_int64(ctx, f);
}

/* bytes_moe(kind, M, K, N, E, topk, gated, input_bpe, weight_bpe [, output_bpe]):
 * bytes per element as numbers (0.5 for FP4) */
static void fn_bytes_moe(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    int kind, gated;
    int64_t v[5], f;
    double b, e[3] = {0, 0, 0};
    if (moe_args(ctx, argc, argv, "bytes_moe", &kind, v, &gated) <= 0) return;
    static const char *const names[] = {"input_bpe", "weight_bpe", "output_bpe"};
    for (int i = 0; i < 3; i++) {
        int a = 7 + i;
        if (a >= argc) {
            e[i] = e[0];
            continue;
        }
        int t = sqlite3_value_numeric_type(argv[a]);
        if (t == SQLITE_NULL) return;
        if (t != SQLITE_INTEGER && t != SQLITE_FLOAT) {
            tsql_result_error(ctx, "bytes_moe: %s must be a number of bytes per element", names[i]);
            return;
        }
        e[i] = sqlite3_value_double(argv[a]);
    }
    tsql_moe_eval(kind, v[0], v[1], v[2], v[3], v[4], gated, e[0], e[1], e[2], &f, &b);
    sqlite3_result_double(ctx, b);
}

/* flops_rmsnorm(E, C) / bytes_rmsnorm(E, C, dtype) */
static int rms_args(sqlite3_context *ctx, sqlite3_value **argv, const char *fn, int64_t *E, int64_t *C)
{
    int r;
    if ((r = tsql_arg_int(ctx, argv, 0, fn, "num_elements", E)) <= 0) return r;
    if ((r = tsql_arg_int(ctx, argv, 1, fn, "num_channels", C)) <= 0) return r;
    if (*C <= 0) {
        tsql_result_error(ctx, "%s: num_channels must be positive", fn);
        return -1;
    }
    return 1;
}

static void fn_flops_rmsnorm(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    int64_t E, C;
    if (rms_args(ctx, argv, "flops_rmsnorm", &E, &C) <= 0) return;
    sqlite3_result_double(ctx, tsql_rmsnorm_flops(E, C));
}

static void fn_bytes_rmsnorm(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    int64_t E, C;
    int bpe;
    if (rms_args(ctx, argv, "bytes_rmsnorm", &E, &C) <= 0) return;
    if (dtype_bpe_arg(ctx, argv, 2, "bytes_rmsnorm", "dtype", &bpe) <= 0) return;
    if (!bpe) return; /* unknown dtype: NULL, as TraceLens's bytes */
    result_count(ctx, tsql_rmsnorm_bytes(E, C, bpe));
}

/* ---- registration -------------------------------------------------------------------------------- */

/* the functions, each for every count of arguments from nmin to nmax; all pure */
static const struct perf_fn {
    const char *name;
    int nmin, nmax;
    void (*fn)(sqlite3_context *, int, sqlite3_value **);
} perf_fns[] = {
    {"flops_gemm", 3, 5, fn_flops_gemm},
    {"bytes_gemm", 4, 8, fn_bytes_gemm},
    {"flops_conv", 2, 7, fn_flops_conv},
    {"bytes_conv", 3, 8, fn_bytes_conv},
    {"flops_sdpa", 8, 10, fn_flops_sdpa},
    {"bytes_sdpa", 7, 9, fn_bytes_sdpa},
    {"broadcast_shape", 2, 2, fn_broadcast_shape},
    {"dtype_bytes", 1, 1, fn_dtype_bytes},
    {"dtype_precision", 1, 1, fn_dtype_precision},
    {"op_category", 1, 2, fn_op_category},
    {"op_sheet", 1, 1, fn_op_sheet},
    {"op_bwd_category", 1, 1, fn_op_bwd_category},
    {"op_has_model", 1, 1, fn_op_has_model},
    {"perf_model", 2, 5, fn_perf_model},
    {"iteration_stats", 1, 1, fn_iteration_stats},
    {"flops_inference_attention", 4, 5, fn_flops_inference_attention},
    {"bytes_inference_attention", 6, 8, fn_bytes_inference_attention},
    {"flops_moe", 6, 7, fn_flops_moe},
    {"bytes_moe", 9, 10, fn_bytes_moe},
    {"flops_rmsnorm", 2, 2, fn_flops_rmsnorm},
    {"bytes_rmsnorm", 3, 3, fn_bytes_rmsnorm},
    {"perf_metrics", 3, 3, fn_perf_metrics},
    {"roofline", 5, 5, fn_roofline},
    {"roofline_time_us", 5, 5, fn_roofline_time_us},
    {"roofline_bound", 5, 5, fn_roofline_bound},
    {"roofline_pct", 5, 5, fn_roofline_pct},
};

static int register_perf(sqlite3 *db, tsql_catalog *c)
{
    (void)c;
    for (size_t i = 0; i < sizeof perf_fns / sizeof *perf_fns; i++)
        for (int n = perf_fns[i].nmin; n <= perf_fns[i].nmax; n++) {
            int rc = sqlite3_create_function(db, perf_fns[i].name, n, tsql_fn_flags(TSQL_PURE), NULL,
                                             perf_fns[i].fn, NULL, NULL);
            if (rc != SQLITE_OK) return rc;
        }
    return SQLITE_OK;
}

const tsql_registration tsql_reg_perf = {.what = "perf-model functions", .add = register_perf};
