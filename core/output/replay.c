/*
 * replay.c — event replay scripts; see replay.h.
 *
 * The script is written top to bottom into one buffer: a docstring naming the op and
 * what the trace recorded, a tensor factory, get_op() (the operator object),
 * make_args() (one line per argument, with a comment naming the parameter and what
 * the trace said), and main() (warm-up, timed loop, result line).
 *
 * Nothing from the trace reaches the script unescaped: names and values are either
 * validated Python literals / identifiers or written as escaped string literals;
 * comments are reduced to printable ASCII.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "text/pyrepr.h"
#include "output/replay.h"

/* ---- dtype, layout and memory-format tables ---------------------------------------- */

/* Kineto "Input type" strings (c10 type names) → torch dtypes; lookup ignores case. */
static const struct {
    const char *type, *torch;
} dtype_map[] = {
    {"float", "torch.float32"},
    {"double", "torch.float64"},
    {"c10::Half", "torch.float16"},
    {"c10::BFloat16", "torch.bfloat16"},
    {"c10::Float8_e4m3fn", "torch.float8_e4m3fn"},
    {"c10::Float8_e4m3fnuz", "torch.float8_e4m3fnuz"},
    {"c10::Float8_e5m2", "torch.float8_e5m2"},
    {"c10::Float8_e5m2fnuz", "torch.float8_e5m2fnuz"},
    {"c10::Float8_e8m0fnu", "torch.float8_e8m0fnu"},
    {"c10::Float4_e2m1fn_x2", "torch.float4_e2m1fn_x2"},
    {"long int", "torch.int64"},
    {"long", "torch.int64"},
    {"int64_t", "torch.int64"},
    {"long long", "torch.int64"},
    {"int", "torch.int32"},
    {"short int", "torch.int16"},
    {"short", "torch.int16"},
    {"signed char", "torch.int8"},
    {"unsigned char", "torch.uint8"},
    {"unsigned short", "torch.uint16"},
    {"unsigned int", "torch.uint32"},
    {"unsigned long", "torch.uint64"},
    {"unsigned long int", "torch.uint64"},
    {"bool", "torch.bool"},
    {"c10::complex<c10::Half>", "torch.complex32"},
    {"c10::complex<float>", "torch.complex64"},
    {"c10::complex<double>", "torch.complex128"},
    {"c10::qint8", "torch.qint8"},
    {"c10::quint8", "torch.quint8"},
    {"c10::qint32", "torch.qint32"},
};

const char *tsql_replay_torch_dtype(const char *type)
{
    if (!type) return NULL;
    for (size_t i = 0; i < sizeof dtype_map / sizeof *dtype_map; i++)
        if (strcasecmp(type, dtype_map[i].type) == 0) return dtype_map[i].torch;
    return NULL;
}

/* c10::ScalarType codes (c10/core/ScalarType.h), as Kineto records dtype arguments. */
const char *tsql_replay_scalar_type(long long code)
{
    static const char *const st[] = {
        "torch.uint8", "torch.int8", "torch.int16", "torch.int32", "torch.int64",
        "torch.float16", "torch.float32", "torch.float64", "torch.complex32",
        "torch.complex64", "torch.complex128", "torch.bool", "torch.qint8", "torch.quint8",
        "torch.qint32", "torch.bfloat16", "torch.quint4x2", "torch.quint2x4", "torch.bits1x8",
        "torch.bits2x4", "torch.bits4x2", "torch.bits8", "torch.bits16",
        "torch.float8_e5m2", "torch.float8_e4m3fn", "torch.float8_e5m2fnuz",
        "torch.float8_e4m3fnuz", "torch.uint16", "torch.uint32", "torch.uint64",
    };
    if (code >= 0 && code < (long long)(sizeof st / sizeof *st)) return st[code];
    if (code == 44) return "torch.float8_e8m0fnu";
    if (code == 45) return "torch.float4_e2m1fn_x2";
    return NULL;
}

static const char *layout_name(long long code)
{
    static const char *const l[] = {"torch.strided", "torch.sparse_coo", "torch.sparse_csr", NULL,
                                    "torch.sparse_csc", "torch.sparse_bsr", "torch.sparse_bsc"};
    return code >= 0 && code < (long long)(sizeof l / sizeof *l) ? l[code] : NULL;
}

static const char *memory_format_name(long long code)
{
    static const char *const m[] = {"torch.contiguous_format", "torch.preserve_format",
                                    "torch.channels_last", "torch.channels_last_3d"};
    return code >= 0 && code < (long long)(sizeof m / sizeof *m) ? m[code] : NULL;
}

/* ---- ATen schemas ------------------------------------------------------------------ */

/* Parameters as in native_functions.yaml (alias annotations left out); "*" starts the
 * keyword-only ones. For one op, the first overload whose parameters fit the recorded
 * arguments is used, so more specific overloads come first. */
static const struct {
    const char *op, *overload, *params;
} schemas[] = {
    /* GEMM */
    {"aten::mm", "default", "Tensor self, Tensor mat2"},
    {"aten::mm", "out", "Tensor self, Tensor mat2, *, Tensor out"},
    {"aten::addmm", "default", "Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1"},
    {"aten::addmm", "out",
     "Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1, Tensor out"},
    {"aten::bmm", "default", "Tensor self, Tensor mat2"},
    {"aten::bmm", "out", "Tensor self, Tensor mat2, *, Tensor out"},
    {"aten::baddbmm", "default",
     "Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1"},
    {"aten::addbmm", "default",
     "Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1"},
    {"aten::matmul", "default", "Tensor self, Tensor other"},
    {"aten::linear", "default", "Tensor input, Tensor weight, Tensor? bias=None"},
    {"aten::_scaled_mm", "default",
     "Tensor self, Tensor mat2, Tensor scale_a, Tensor scale_b, Tensor? bias=None, "
     "Tensor? scale_result=None, ScalarType? out_dtype=None, bool use_fast_accum=False"},
    /* convolution */
    {"aten::convolution", "default",
     "Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding, "
     "SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups"},
    {"aten::_convolution", "default",
     "Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding, "
     "SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups, "
     "bool benchmark, bool deterministic, bool cudnn_enabled, bool allow_tf32"},
    {"aten::conv1d", "default",
     "Tensor input, Tensor weight, Tensor? bias=None, SymInt[1] stride=1, SymInt[1] padding=0, "
     "SymInt[1] dilation=1, SymInt groups=1"},
    {"aten::conv2d", "default",
     "Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=1, SymInt[2] padding=0, "
     "SymInt[2] dilation=1, SymInt groups=1"},
    {"aten::conv3d", "default",
     "Tensor input, Tensor weight, Tensor? bias=None, SymInt[3] stride=1, SymInt[3] padding=0, "
     "SymInt[3] dilation=1, SymInt groups=1"},
    {"aten::cudnn_convolution", "default",
     "Tensor self, Tensor weight, SymInt[] padding, SymInt[] stride, SymInt[] dilation, "
     "SymInt groups, bool benchmark, bool deterministic, bool allow_tf32"},
    {"aten::convolution_backward", "default",
     "Tensor grad_output, Tensor input, Tensor weight, SymInt[]? bias_sizes, SymInt[] stride, "
     "SymInt[] padding, SymInt[] dilation, bool transposed, SymInt[] output_padding, "
     "SymInt groups, bool[3] output_mask"},
    /* attention */
    {"aten::scaled_dot_product_attention", "default",
     "Tensor query, Tensor key, Tensor value, Tensor? attn_mask=None, float dropout_p=0.0, "
     "bool is_causal=False, *, float? scale=None, bool enable_gqa=False"},
    {"aten::_scaled_dot_product_flash_attention", "default",
     "Tensor query, Tensor key, Tensor value, float dropout_p=0.0, bool is_causal=False, "
     "bool return_debug_mask=False, *, float? scale=None"},
    {"aten::_scaled_dot_product_efficient_attention", "default",
     "Tensor query, Tensor key, Tensor value, Tensor? attn_bias, bool compute_log_sumexp, "
     "float dropout_p=0.0, bool is_causal=False, *, float? scale=None"},
    {"aten::_scaled_dot_product_cudnn_attention", "default",
     "Tensor query, Tensor key, Tensor value, Tensor? attn_bias, bool compute_log_sumexp, "
     "float dropout_p=0.0, bool is_causal=False, bool return_debug_mask=False, *, "
     "float? scale=None"},
    {"aten::_scaled_dot_product_flash_attention_backward", "default",
     "Tensor grad_out, Tensor query, Tensor key, Tensor value, Tensor out, Tensor logsumexp, "
     "Tensor cum_seq_q, Tensor cum_seq_k, SymInt max_q, SymInt max_k, float dropout_p, "
     "bool is_causal, Tensor philox_seed, Tensor philox_offset, *, float? scale=None"},
    /* normalization */
    {"aten::layer_norm", "default",
     "Tensor input, SymInt[] normalized_shape, Tensor? weight=None, Tensor? bias=None, "
     "float eps=1e-05, bool cudnn_enable=True"},
    {"aten::native_layer_norm", "default",
     "Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias, float eps"},
    {"aten::native_layer_norm_backward", "default",
     "Tensor grad_out, Tensor input, SymInt[] normalized_shape, Tensor mean, Tensor rstd, "
     "Tensor? weight, Tensor? bias, bool[3] output_mask"},
    {"aten::rms_norm", "default",
     "Tensor input, SymInt[] normalized_shape, Tensor? weight=None, float? eps=None"},
    {"aten::group_norm", "default",
     "Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None, float eps=1e-05, "
     "bool cudnn_enabled=True"},
    {"aten::batch_norm", "default",
     "Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, "
     "bool training, float momentum, float eps, bool cudnn_enabled"},
    /* elementwise */
    {"aten::add", "Tensor", "Tensor self, Tensor other, *, Scalar alpha=1"},
    {"aten::add", "Scalar", "Tensor self, Scalar other, Scalar alpha=1"},
    {"aten::add", "out", "Tensor self, Tensor other, *, Scalar alpha=1, Tensor out"},
    {"aten::add_", "Tensor", "Tensor self, Tensor other, *, Scalar alpha=1"},
    {"aten::add_", "Scalar", "Tensor self, Scalar other, Scalar alpha=1"},
    {"aten::sub", "Tensor", "Tensor self, Tensor other, *, Scalar alpha=1"},
    {"aten::sub", "Scalar", "Tensor self, Scalar other, Scalar alpha=1"},
    {"aten::sub_", "Tensor", "Tensor self, Tensor other, *, Scalar alpha=1"},
    {"aten::sub_", "Scalar", "Tensor self, Scalar other, Scalar alpha=1"},
    {"aten::rsub", "Tensor", "Tensor self, Tensor other, *, Scalar alpha=1"},
    {"aten::rsub", "Scalar", "Tensor self, Scalar other, Scalar alpha=1"},
    {"aten::mul", "Tensor", "Tensor self, Tensor other"},
    {"aten::mul", "Scalar", "Tensor self, Scalar other"},
    {"aten::mul", "out", "Tensor self, Tensor other, *, Tensor out"},
    {"aten::mul_", "Tensor", "Tensor self, Tensor other"},
    {"aten::mul_", "Scalar", "Tensor self, Scalar other"},
    {"aten::div", "Tensor", "Tensor self, Tensor other"},
    {"aten::div", "Scalar", "Tensor self, Scalar other"},
    {"aten::div", "Tensor_mode", "Tensor self, Tensor other, *, str? rounding_mode"},
    {"aten::div", "Scalar_mode", "Tensor self, Scalar other, *, str? rounding_mode"},
    {"aten::div_", "Tensor", "Tensor self, Tensor other"},
    {"aten::div_", "Scalar", "Tensor self, Scalar other"},
    {"aten::pow", "Tensor_Tensor", "Tensor self, Tensor exponent"},
    {"aten::pow", "Tensor_Scalar", "Tensor self, Scalar exponent"},
    {"aten::where", "self", "Tensor condition, Tensor self, Tensor other"},
    {"aten::masked_fill", "Scalar", "Tensor self, Tensor mask, Scalar value"},
    {"aten::masked_fill", "Tensor", "Tensor self, Tensor mask, Tensor value"},
    {"aten::masked_fill_", "Scalar", "Tensor self, Tensor mask, Scalar value"},
    {"aten::masked_fill_", "Tensor", "Tensor self, Tensor mask, Tensor value"},
    {"aten::gelu", "default", "Tensor self, *, str approximate='none'"},
    {"aten::gelu_backward", "default", "Tensor grad_output, Tensor self, *, str approximate='none'"},
    {"aten::silu", "default", "Tensor self"},
    {"aten::silu_", "default", "Tensor self"},
    {"aten::relu", "default", "Tensor self"},
    {"aten::relu_", "default", "Tensor self"},
    {"aten::sigmoid", "default", "Tensor self"},
    {"aten::tanh", "default", "Tensor self"},
    {"aten::exp", "default", "Tensor self"},
    {"aten::neg", "default", "Tensor self"},
    {"aten::rsqrt", "default", "Tensor self"},
    {"aten::sqrt", "default", "Tensor self"},
    {"aten::native_dropout", "default", "Tensor input, float p, bool? train"},
    {"aten::dropout", "default", "Tensor input, float p, bool train"},
    /* copies and layout */
    {"aten::copy_", "default", "Tensor self, Tensor src, bool non_blocking=False"},
    {"aten::clone", "default", "Tensor self, *, MemoryFormat? memory_format=None"},
    {"aten::contiguous", "default", "Tensor self, *, MemoryFormat memory_format=contiguous_format"},
    {"aten::_to_copy", "default",
     "Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
     "bool? pin_memory=None, bool non_blocking=False, MemoryFormat? memory_format=None"},
    {"aten::to", "dtype",
     "Tensor self, ScalarType dtype, bool non_blocking=False, bool copy=False, "
     "MemoryFormat? memory_format=None"},
    {"aten::to", "dtype_layout",
     "Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
     "bool? pin_memory=None, bool non_blocking=False, bool copy=False, "
     "MemoryFormat? memory_format=None"},
    {"aten::empty_like", "default",
     "Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
     "bool? pin_memory=None, MemoryFormat? memory_format=None"},
    {"aten::zeros_like", "default",
     "Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
     "bool? pin_memory=None, MemoryFormat? memory_format=None"},
    {"aten::ones_like", "default",
     "Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
     "bool? pin_memory=None, MemoryFormat? memory_format=None"},
    {"aten::full_like", "default",
     "Tensor self, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, "
     "Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None"},
    {"aten::zeros", "default",
     "SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
     "bool? pin_memory=None"},
    {"aten::ones", "default",
     "SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
     "bool? pin_memory=None"},
    {"aten::full", "default",
     "SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, "
     "Device? device=None, bool? pin_memory=None"},
    {"aten::arange", "default",
     "Scalar end, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
     "bool? pin_memory=None"},
    {"aten::arange", "start",
     "Scalar start, Scalar end, *, ScalarType? dtype=None, Layout? layout=None, "
     "Device? device=None, bool? pin_memory=None"},
    {"aten::arange", "start_step",
     "Scalar start, Scalar end, Scalar step=1, *, ScalarType? dtype=None, Layout? layout=None, "
     "Device? device=None, bool? pin_memory=None"},
    {"aten::view", "default", "Tensor self, SymInt[] size"},
    {"aten::_unsafe_view", "default", "Tensor self, SymInt[] size"},
    {"aten::reshape", "default", "Tensor self, SymInt[] shape"},
    {"aten::expand", "default", "Tensor self, SymInt[] size, *, bool implicit=False"},
    {"aten::permute", "default", "Tensor self, int[] dims"},
    {"aten::transpose", "int", "Tensor self, int dim0, int dim1"},
    {"aten::t", "default", "Tensor self"},
    {"aten::unsqueeze", "default", "Tensor self, int dim"},
    {"aten::select", "int", "Tensor self, int dim, SymInt index"},
    {"aten::slice", "Tensor", "Tensor self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1"},
    {"aten::as_strided", "default",
     "Tensor self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None"},
    {"aten::flatten", "using_ints", "Tensor self, int start_dim=0, int end_dim=-1"},
    {"aten::topk", "default", "Tensor self, SymInt k, int dim=-1, bool largest=True, bool sorted=True"},
    {"aten::threshold_backward", "default", "Tensor grad_output, Tensor self, Scalar threshold"},
    {"aten::cat", "default", "Tensor[] tensors, int dim=0"},
    {"aten::stack", "default", "Tensor[] tensors, int dim=0"},
    {"aten::fill_", "Scalar", "Tensor self, Scalar value"},
    {"aten::fill_", "Tensor", "Tensor self, Tensor value"},
    {"aten::zero_", "default", "Tensor self"},
    {"aten::empty", "memory_format",
     "SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
     "bool? pin_memory=None, MemoryFormat? memory_format=None"},
    {"aten::empty_strided", "default",
     "SymInt[] size, SymInt[] stride, *, ScalarType? dtype=None, Layout? layout=None, "
     "Device? device=None, bool? pin_memory=None"},
    /* reductions, softmax, indexing */
    {"aten::sum", "default", "Tensor self, *, ScalarType? dtype=None"},
    {"aten::sum", "dim_IntList", "Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None"},
    {"aten::mean", "default", "Tensor self, *, ScalarType? dtype=None"},
    {"aten::mean", "dim", "Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None"},
    {"aten::softmax", "int", "Tensor self, int dim, ScalarType? dtype=None"},
    {"aten::_softmax", "default", "Tensor self, int dim, bool half_to_float"},
    {"aten::log_softmax", "int", "Tensor self, int dim, ScalarType? dtype=None"},
    {"aten::_log_softmax", "default", "Tensor self, int dim, bool half_to_float"},
    {"aten::embedding", "default",
     "Tensor weight, Tensor indices, SymInt padding_idx=-1, bool scale_grad_by_freq=False, "
     "bool sparse=False"},
    {"aten::index_select", "default", "Tensor self, int dim, Tensor index"},
    {"aten::gather", "default", "Tensor self, int dim, Tensor index, *, bool sparse_grad=False"},
};

enum pcls { P_TENSOR, P_TLIST, P_SCALAR, P_LIST, P_DTYPE, P_LAYOUT, P_DEVICE, P_MEMFMT };

typedef struct param {
    char type[24];          /* as written, without '?' */
    char name[40];
    char def[32];           /* default value text, "" if none */
    int cls, opt, has_def, kwonly;
} param;

#define MAX_PARAMS 24

/* Parses a parameter list of the table; returns the count. */
static int parse_params(const char *s, param *ps)
{
    int n = 0, kw = 0;
    while (*s && n < MAX_PARAMS) {
        while (*s == ' ' || *s == ',') s++;
        if (!*s) break;
        if (*s == '*') {
            kw = 1;
            s++;
            continue;
        }
        param *p = &ps[n];
        memset(p, 0, sizeof *p);
        size_t i = 0;
        while (*s && *s != ' ' && i + 1 < sizeof p->type) p->type[i++] = *s++;
        p->type[i] = 0;
        while (*s == ' ') s++;
        i = 0;
        while (*s && *s != '=' && *s != ',' && i + 1 < sizeof p->name) p->name[i++] = *s++;
        p->name[i] = 0;
        if (*s == '=') {
            s++;
            i = 0;
            while (*s && *s != ',' && i + 1 < sizeof p->def) p->def[i++] = *s++;
            p->def[i] = 0;
            p->has_def = 1;
        }
        size_t tl = strlen(p->type);
        if (tl && p->type[tl - 1] == '?') {
            p->opt = 1;
            p->type[--tl] = 0;
        }
        p->kwonly = kw;
        if (strcmp(p->type, "Tensor") == 0) p->cls = P_TENSOR;
        else if (strncmp(p->type, "Tensor", 6) == 0) p->cls = P_TLIST; /* Tensor[], Tensor?[] */
        else if (strchr(p->type, '[')) p->cls = P_LIST;
        else if (strcmp(p->type, "ScalarType") == 0) p->cls = P_DTYPE;
        else if (strcmp(p->type, "Layout") == 0) p->cls = P_LAYOUT;
        else if (strcmp(p->type, "Device") == 0) p->cls = P_DEVICE;
        else if (strcmp(p->type, "MemoryFormat") == 0) p->cls = P_MEMFMT;
        else p->cls = P_SCALAR;
        n++;
    }
    return n;
}

/* ---- recorded arguments ------------------------------------------------------------ */

enum rkind { R_TENSOR, R_TLIST, R_NONE, R_SCALAR, R_LIST, R_OTHER };

typedef struct rin {
    int kind;
    const cJSON *dims, *strides;
    const char *type;       /* NULL if not recorded */
    const char *val;        /* concrete value, NULL if not recorded */
} rin;

static const cJSON *member(const cJSON *o, const char *a, const char *b)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, a);
    if (!v && b) v = cJSON_GetObjectItemCaseSensitive(o, b);
    return cJSON_IsArray(v) ? v : NULL;
}

static const char *str_at(const cJSON *a, int i)
{
    const cJSON *v = a ? cJSON_GetArrayItem(a, i) : NULL;
    return cJSON_IsString(v) ? v->valuestring : NULL; /* NOLINT(clang-analyzer-core.NullDereference): cJSON_IsString(NULL) is 0 */
}

/* 1 if v is a JSON array of integers >= 0 */
static int is_size_list(const cJSON *v)
{
    if (!cJSON_IsArray(v)) return 0;
    /* NOLINTNEXTLINE(clang-analyzer-core.NullDereference): cJSON_IsArray(NULL) is 0 */
    for (const cJSON *x = v->child; x; x = x->next)
        if (!cJSON_IsNumber(x) || x->valuedouble < 0 || x->valuedouble != floor(x->valuedouble) ||
            x->valuedouble > 9.0e15)
            return 0;
    return 1;
}

static int classify(rin *r)
{
    const char *t = r->type;
    if (!t) {
        if (is_size_list(r->dims) && cJSON_GetArraySize(r->dims) > 0) return R_TENSOR;
        return r->val && *r->val ? R_SCALAR : R_NONE;
    }
    if (strcmp(t, "TensorList") == 0) return R_TLIST;
    if (strcmp(t, "Scalar") == 0) return R_SCALAR;
    if (strcmp(t, "ScalarList") == 0) return R_LIST;
    if (strcmp(t, "GenericList") == 0) return R_OTHER;
    if (!*t) {
        /* "" is None, unless sizes were recorded: a tensor whose dtype was not */
        if (is_size_list(r->dims) && cJSON_GetArraySize(r->dims) > 0) return R_TENSOR;
        return r->val && *r->val ? R_SCALAR : R_NONE;
    }
    return R_TENSOR;
}

static int fits(const param *p, const rin *r)
{
    switch (p->cls) {
    case P_TENSOR: return r->kind == R_TENSOR || (p->opt && r->kind == R_NONE);
    case P_TLIST: return r->kind == R_TLIST || r->kind == R_OTHER;
    case P_LIST: return r->kind == R_LIST || r->kind == R_SCALAR || r->kind == R_NONE;
    default: return r->kind == R_SCALAR || r->kind == R_NONE || r->kind == R_LIST;
    }
}

/* ---- the output ---------------------------------------------------------------------- */

typedef struct gen {
    tsql_buf *o;
    int oom;
    char note[512];          /* comment of the current argument line */
    const char *list_dtype;  /* element dtype of tensor lists (not recorded) */
    int factory;             /* the call has no tensor arguments */
} gen;

static void put_n(gen *g, const char *s, size_t n)
{
    if (g->oom || tsql_buf_reserve(g->o, n + 1)) {
        g->oom = 1;
        return;
    }
    memcpy(g->o->p + g->o->n, s, n);
    g->o->n += n;
    g->o->p[g->o->n] = 0;
}

static void put(gen *g, const char *s) { put_n(g, s, strlen(s)); }

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void putf(gen *g, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    put_n(g, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/* Appends to the current line's comment (printable ASCII only). */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void note(gen *g, const char *fmt, ...)
{
    size_t at = strlen(g->note);
    if (at + 4 >= sizeof g->note) return;
    if (at) {
        memcpy(g->note + at, "; ", 3);
        at += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->note + at, sizeof g->note - at, fmt, ap);
    va_end(ap);
    for (char *c = g->note + at; *c; c++)
        if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7e) *c = '?';
}

/* Copies s into dst as printable ASCII (for comments and the docstring), at most
 * cap - 1 bytes; quotes and backslashes become '?' so the text is safe anywhere. */
static void clean_text(char *dst, size_t cap, const char *s)
{
    size_t i = 0;
    for (; s && *s && i + 1 < cap; s++) {
        unsigned char c = (unsigned char)*s;
        dst[i++] = (c < 0x20 || c > 0x7e || c == '\\' || c == '"' || c == '\'') ? '?' : (char)c;
    }
    if (s && *s && i >= 3) memcpy(dst + i - 3, "...", 3);
    dst[i] = 0;
}

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if s does not start one. */
static int utf8_len(const unsigned char *s)
{
    if (s[0] < 0x80) return 1;
    int n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 && s[0] < 0xe0 ? 2 : 0;
    if (!n) return 0;
    for (int i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80) return 0;
    if (n == 3 && s[0] == 0xe0 && s[1] < 0xa0) return 0;         /* overlong */
    if (n == 3 && s[0] == 0xed && s[1] >= 0xa0) return 0;        /* surrogates */
    if (n == 4 && s[0] == 0xf0 && s[1] < 0x90) return 0;         /* overlong */
    if (n == 4 && s[0] == 0xf4 && s[1] >= 0x90) return 0;        /* > U+10FFFF */
    return n;
}

/* A Python string literal for s: single-quoted, escapes for quotes, backslashes,
 * control characters and bytes that are not valid UTF-8. */
static void put_pystr(gen *g, const char *s)
{
    put(g, "'");
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int n = utf8_len(p);
        if (*p == '\\' || *p == '\'') {
            char e[3] = {'\\', (char)*p, 0};
            put(g, e);
            p++;
        } else if (n == 1 && *p >= 0x20 && *p != 0x7f) {
            put_n(g, (const char *)p, 1);
            p++;
        } else if (n > 1) {
            put_n(g, (const char *)p, (size_t)n);
            p += n;
        } else {
            putf(g, "\\x%02x", *p);
            p++;
        }
    }
    put(g, "'");
}

static int is_ident(const char *s, size_t n)
{
    static const char *const kw[] = {"False", "None", "True", "and", "as", "assert", "async",
                                     "await", "break", "class", "continue", "def", "del",
                                     "elif", "else", "except", "finally", "for", "from",
                                     "global", "if", "import", "in", "is", "lambda",
                                     "nonlocal", "not", "or", "pass", "raise", "return", "try",
                                     "while", "with", "yield"};
    if (!n || (s[0] >= '0' && s[0] <= '9')) return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
            return 0;
    }
    for (size_t i = 0; i < sizeof kw / sizeof *kw; i++)
        if (strlen(kw[i]) == n && memcmp(kw[i], s, n) == 0) return 0;
    return 1;
}

/* ---- Python literals from Concrete Inputs ------------------------------------------ */

/* Parses one scalar token s[0..n) and writes its Python form to b. 1 if it is a
 * literal (number, bool, None), 0 if not. *is_int tells integers apart. */
static int scalar_literal(const char *s, size_t n, tsql_buf *b, int *is_int, long long *ival)
{
    while (n && (*s == ' ' || *s == '\t')) s++, n--;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    *is_int = 0;
    if (!n) return 0;
    static const struct {
        const char *in, *out;
    } words[] = {{"True", "True"},       {"False", "False"},      {"None", "None"},
                 {"true", "True"},       {"false", "False"},      {"nan", "float('nan')"},
                 {"inf", "float('inf')"}, {"-inf", "float('-inf')"}, {"+inf", "float('inf')"},
                 {"-nan", "float('nan')"}};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strlen(words[i].in) == n && strncasecmp(words[i].in, s, n) == 0)
            return tsql_bput(b, words[i].out, strlen(words[i].out)) ? -1 : 1;
    size_t i = 0;
    int neg = 0;
    if (s[i] == '-' || s[i] == '+') neg = s[i++] == '-';
    size_t d0 = i;
    while (i < n && s[i] >= '0' && s[i] <= '9') i++;
    size_t nint = i - d0, nfrac = 0;
    int dot = 0, exp = 0;
    if (i < n && s[i] == '.') {
        dot = 1;
        i++;
        size_t f0 = i;
        while (i < n && s[i] >= '0' && s[i] <= '9') i++;
        nfrac = i - f0;
    }
    if (nint + nfrac == 0) return 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        exp = 1;
        i++;
        if (i < n && (s[i] == '-' || s[i] == '+')) i++;
        size_t e0 = i;
        while (i < n && s[i] >= '0' && s[i] <= '9') i++;
        if (i == e0) return 0;
    }
    if (i != n) return 0;
    if (!dot && !exp) {
        /* Python forbids leading zeros in integers: drop them */
        size_t z = d0;
        while (z + 1 < n && s[z] == '0') z++;
        if ((neg && tsql_bputc(b, '-')) || tsql_bput(b, s + z, n - z)) return -1;
        *is_int = 1;
        *ival = strtoll(s, NULL, 10);
        return 1;
    }
    return tsql_bput(b, s, n) ? -1 : 1;
}

/* Parses a literal (scalar or nested list/tuple) at *ps; writes Python to b. */
static int literal_at(const char **ps, const char *end, tsql_buf *b, int depth)
{
    const char *s = *ps;
    while (s < end && (*s == ' ' || *s == '\t')) s++;
    if (s < end && (*s == '[' || *s == '(')) {
        if (depth > 16) return 0;
        char close = *s == '[' ? ']' : ')';
        s++;
        if (tsql_bputc(b, '[')) return -1;
        int first = 1;
        for (;;) {
            while (s < end && (*s == ' ' || *s == '\t')) s++;
            if (s < end && *s == close) {
                s++;
                break;
            }
            if (!first) {
                if (s >= end || *s != ',') return 0;
                s++;
                while (s < end && (*s == ' ' || *s == '\t')) s++;
                if (s < end && *s == close) { /* trailing comma */
                    s++;
                    break;
                }
                if (tsql_bput(b, ", ", 2)) return -1;
            }
            int rc = literal_at(&s, end, b, depth + 1);
            if (rc != 1) return rc;
            first = 0;
        }
        if (tsql_bputc(b, ']')) return -1;
        *ps = s;
        return 1;
    }
    const char *t = s;
    while (t < end && *t != ',' && *t != ']' && *t != ')') t++;
    int is_int;
    long long iv;
    int rc = scalar_literal(s, (size_t)(t - s), b, &is_int, &iv);
    if (rc != 1) return rc;
    *ps = t;
    return 1;
}

/* The Python form of a whole concrete value; 1 ok, 0 not a literal, -1 OOM. */
static int to_literal(const char *v, tsql_buf *b)
{
    b->n = 0;
    if (tsql_buf_reserve(b, 1)) return -1;
    b->p[0] = 0;
    const char *s = v, *end = v + strlen(v);
    int rc = literal_at(&s, end, b, 0);
    if (rc != 1) return rc;
    while (s < end && (*s == ' ' || *s == '\t')) s++;
    return s == end ? 1 : 0;
}

/* ---- argument expressions ---------------------------------------------------------- */

static void put_int_tuple(gen *g, const cJSON *a)
{
    put(g, "(");
    int n = 0;
    /* NOLINTNEXTLINE(clang-analyzer-core.NullDereference): callers pass an array checked by is_size_list */
    for (const cJSON *x = a->child; x; x = x->next, n++) putf(g, "%s%lld", n ? ", " : "", (long long)x->valuedouble);
    put(g, n == 1 ? ",)" : ")");
}

static void put_tensor(gen *g, const cJSON *dims, const cJSON *strides, const char *dtype_expr)
{
    put(g, "make_tensor(");
    if (is_size_list(dims)) put_int_tuple(g, dims);
    else {
        put(g, "(1,)");
        note(g, "shape not recorded: (1,) is a placeholder");
    }
    put(g, ", ");
    if (is_size_list(dims) && is_size_list(strides) &&
        cJSON_GetArraySize(strides) == cJSON_GetArraySize(dims))
        put_int_tuple(g, strides);
    else put(g, "None");
    putf(g, ", %s, device)", dtype_expr);
}

/* A tensor argument recorded with dtype `type`. */
static void emit_tensor(gen *g, const rin *r)
{
    const char *dt = tsql_replay_torch_dtype(r->type);
    char clean[64];
    clean_text(clean, sizeof clean, r->type ? r->type : "");
    if (!dt) {
        if (r->type && *r->type) note(g, "dtype %s is not known to tracesql: float32 is a placeholder", clean);
        else note(g, "dtype not recorded: float32 is a placeholder");
    } else note(g, "%s", clean);
    put_tensor(g, r->dims, r->strides, dt ? dt : "torch.float32");
    if (is_size_list(r->dims) && cJSON_GetArraySize(r->dims) > 0 &&
        !(is_size_list(r->strides) && cJSON_GetArraySize(r->strides) == cJSON_GetArraySize(r->dims)))
        note(g, "strides not recorded: contiguous");
}

static void emit_tensor_list(gen *g, const rin *r)
{
    int n = cJSON_IsArray(r->dims) ? cJSON_GetArraySize(r->dims) : 0;
    if (n == 0) {
        put(g, "[]");
        note(g, "tensor list: its shapes were not recorded, an empty list is a placeholder");
        return;
    }
    put(g, "[");
    int i = 0;
    for (const cJSON *d = r->dims->child; d; d = d->next, i++) {
        const cJSON *st = cJSON_IsArray(r->strides) ? cJSON_GetArrayItem(r->strides, i) : NULL;
        if (i) put(g, ", ");
        put_tensor(g, d, st, g->list_dtype ? g->list_dtype : "torch.float32");
    }
    put(g, "]");
    note(g, "tensor list of %d; element dtype not recorded: %s assumed", n,
         g->list_dtype ? g->list_dtype + 6 : "float32");
}

/* A non-tensor value: the literal recorded in Concrete Inputs, converted for the
 * parameter's type when known (p may be NULL). */
static void emit_value(gen *g, const rin *r, const param *p, tsql_buf *tmp)
{
    const char *v = r->val;
    int cls = p ? p->cls : -1;
    if (cls == P_DEVICE) {
        put(g, "device");
        if (v && *v) {
            char c[64];
            clean_text(c, sizeof c, v);
            note(g, "recorded %s; replayed on the chosen device", c);
        }
        return;
    }
    if (r->kind == R_NONE || !v || !*v) {
        if (r->kind == R_OTHER) {
            put(g, "None");
            note(g, "a list of another kind (GenericList): not recorded, None is a placeholder");
        } else if (r->kind == R_NONE || (p && p->opt)) {
            if (p && !p->opt && p->has_def) {
                put(g, p->def);
                note(g, "not recorded: the default");
            } else put(g, "None");
        } else if (p && p->has_def) {
            put(g, p->def);
            note(g, "value not recorded: the default is a placeholder");
        } else if (cls == P_LIST || r->kind == R_LIST) {
            put(g, "[]");
            note(g, "value not recorded: [] is a placeholder");
        } else {
            put(g, "0");
            note(g, "value not recorded: 0 is a placeholder");
        }
        return;
    }
    int rc = to_literal(v, tmp);
    if (rc < 0) {
        g->oom = 1;
        return;
    }
    if (rc == 1 && (cls == P_DTYPE || cls == P_LAYOUT || cls == P_MEMFMT)) {
        char *e = NULL;
        long long code = strtoll(tmp->p, &e, 10);
        const char *name = e && *e == 0 && e != tmp->p
                               ? (cls == P_DTYPE    ? tsql_replay_scalar_type(code)
                                  : cls == P_LAYOUT ? layout_name(code)
                                                    : memory_format_name(code))
                               : NULL;
        if (name) {
            put(g, name);
            note(g, "recorded as %lld", code);
        } else {
            put(g, "None");
            note(g, "recorded code %s is not known to tracesql: None is a placeholder", tmp->p);
        }
        return;
    }
    if (rc == 1) {
        put(g, tmp->p);
        return;
    }
    /* not a number, bool, None or list of them: a string */
    put_pystr(g, v);
    if (!(p && strcmp(p->type, "str") == 0)) note(g, "not a Python literal: passed as a string");
}

static void emit_arg(gen *g, const rin *r, const param *p, tsql_buf *tmp)
{
    if (r->kind == R_TENSOR) emit_tensor(g, r);
    else if (r->kind == R_TLIST) emit_tensor_list(g, r);
    else emit_value(g, r, p, tmp);
}

/* Ends an argument line with its comment. */
static void end_line(gen *g, const char *what)
{
    char c[128];
    clean_text(c, sizeof c, what);
    put(g, ",  # ");
    put(g, c);
    if (g->note[0]) {
        put(g, ": ");
        put(g, g->note);
    }
    put(g, "\n");
    g->note[0] = 0;
}

/* ---- the script ---------------------------------------------------------------------- */

static const char helpers[] =
    "\n"
    "def make_tensor(shape, stride, dtype, device):\n"
    "    \"\"\"A tensor with this shape, stride (None: contiguous) and dtype. Floating-point\n"
    "    values are random normal; integer and bool values are zero, which keeps index\n"
    "    arguments in range.\"\"\"\n"
    "    shape = tuple(shape)\n"
    "    if stride is None:\n"
    "        stride, step = [], 1\n"
    "        for n in reversed(shape):\n"
    "            stride.insert(0, step)\n"
    "            step *= max(n, 1)\n"
    "    stride = tuple(stride)\n"
    "    if 0 in shape:\n"
    "        numel = 0\n"
    "    else:\n"
    "        numel = 1 + sum((n - 1) * s for n, s in zip(shape, stride))\n"
    "    try:\n"
    "        if dtype.is_floating_point or dtype.is_complex:\n"
    "            base = torch.randn(numel, device=device).to(dtype)\n"
    "        else:\n"
    "            base = torch.zeros(numel, device=device, dtype=dtype)\n"
    "    except (RuntimeError, TypeError, NotImplementedError):\n"
    "        base = torch.empty(numel, device=device, dtype=dtype)\n"
    "    return base.as_strided(shape, stride)\n";

static const char main_text[] =
    "\n"
    "\n"
    "def main():\n"
    "    parser = argparse.ArgumentParser(description='Times one call of ' + OP_NAME +\n"
    "                                     ' re-created from a profiler trace.')\n"
    "    parser.add_argument('--iters', type=int, default=100, help='timed calls (default 100)')\n"
    "    parser.add_argument('--warmup', type=int, default=10, help='untimed calls first (default 10)')\n"
    "    parser.add_argument('--device', default=None,\n"
    "                        help='torch device (default: cuda if available, else cpu)')\n"
    "    opts = parser.parse_args()\n"
    "    iters = max(opts.iters, 1)\n"
    "    device = torch.device(opts.device or ('cuda' if torch.cuda.is_available() else 'cpu'))\n"
    "    op = get_op()\n"
    "    args, kwargs = make_args(device)\n"
    "    with torch.no_grad():\n"
    "        for _ in range(max(opts.warmup, 0)):\n"
    "            op(*args, **kwargs)\n"
    "        if device.type == 'cuda':\n"
    "            torch.cuda.synchronize(device)\n"
    "            start = torch.cuda.Event(enable_timing=True)\n"
    "            end = torch.cuda.Event(enable_timing=True)\n"
    "            start.record()\n"
    "            for _ in range(iters):\n"
    "                op(*args, **kwargs)\n"
    "            end.record()\n"
    "            torch.cuda.synchronize(device)\n"
    "            total_us = start.elapsed_time(end) * 1000.0\n"
    "        else:\n"
    "            t0 = time.perf_counter()\n"
    "            for _ in range(iters):\n"
    "                op(*args, **kwargs)\n"
    "            total_us = (time.perf_counter() - t0) * 1e6\n"
    "    mean_us = total_us / iters\n"
    "    print(f'{OP_NAME}: {mean_us:.3f} us per call (mean of {iters} calls on {device})')\n"
    "    if TRACE_KERNEL_US is not None:\n"
    "        print(f'{OP_NAME}: {TRACE_KERNEL_US:.3f} us of GPU busy time in the trace')\n"
    "\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    main()\n";

static void put_double(gen *g, double x)
{
    char tmp[40];
    snprintf(tmp, sizeof tmp, "%.3f", x);
    put(g, tmp);
}

static void header(gen *g, const char *name, const tsql_replay_ctx *ctx)
{
    char cname[200], clabel[200];
    clean_text(cname, sizeof cname, name);
    clean_text(clabel, sizeof clabel, ctx && ctx->label ? ctx->label : "");
    put(g, "#!/usr/bin/env python3\n\"\"\"Replay of one op call recorded in a PyTorch profiler trace.\n\n");
    putf(g, "op:       %s\n", cname);
    if (ctx && (ctx->label || ctx->uid >= 0)) {
        put(g, "trace:    ");
        if (ctx->label) putf(g, "%s", clabel);
        if (ctx->uid >= 0) putf(g, "%sevent uid %lld", ctx->label ? ", " : "", (long long)ctx->uid);
        put(g, "\n");
    }
    if (ctx && (!isnan(ctx->cpu_dur_us) || ctx->nkernels >= 0)) {
        put(g, "recorded: ");
        if (!isnan(ctx->cpu_dur_us)) {
            put(g, "CPU ");
            put_double(g, ctx->cpu_dur_us);
            put(g, " us");
        }
        if (ctx->nkernels >= 0) {
            putf(g, "%s%ld GPU event%s", !isnan(ctx->cpu_dur_us) ? "; " : "", ctx->nkernels,
                 ctx->nkernels == 1 ? "" : "s");
            if (ctx->nkernels > 0 && !isnan(ctx->kernel_us)) {
                put(g, ", busy ");
                put_double(g, ctx->kernel_us);
                put(g, " us");
            }
        }
        put(g, "\n");
    }
    put(g, "\nGenerated by tracesql's replay_script(). It re-creates the op's inputs from the\n"
           "shapes, dtypes, strides and scalar values the trace recorded, calls the op\n"
           "--warmup times, then times --iters calls and prints the mean time per call in\n"
           "microseconds (CUDA events on a GPU, time.perf_counter() on the CPU).\n"
           "Usage: python3 THIS_FILE [--iters N] [--warmup N] [--device DEV]\n\"\"\"\n"
           "import argparse\nimport time\n\nimport torch\n\n");
    put(g, "OP_NAME = ");
    put_pystr(g, name);
    put(g, "\n");
    if (ctx && ctx->label) {
        put(g, "TRACE_LABEL = ");
        put_pystr(g, ctx->label);
        put(g, "\n");
    }
    if (ctx && ctx->uid >= 0) putf(g, "TRACE_UID = %lld\n", (long long)ctx->uid);
    put(g, "# busy time (us) of the op's GPU events in the trace; None if it launched none\n");
    put(g, "TRACE_KERNEL_US = ");
    if (ctx && ctx->nkernels > 0 && !isnan(ctx->kernel_us) && isfinite(ctx->kernel_us)) {
        put_double(g, ctx->kernel_us); /* ns resolution, like the trace */
    } else put(g, "None");
    put(g, "\n\n");
    put(g, helpers);
}

/* err = before + a (cleaned) + after */
static void set_err(char *err, size_t errsz, const char *before, const char *a, const char *after)
{
    if (!err || !errsz) return;
    char c[160];
    clean_text(c, sizeof c, a ? a : "");
    snprintf(err, errsz, "%s%s%s", before, c, after);
}

static int hex4(const char *s, unsigned *v)
{
    *v = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
                     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
                                            : 16u;
        if (d > 15) return 0;
        *v = *v * 16 + d;
    }
    return 1;
}

/* A copy of the JSON text with every \u escape of an unpaired UTF-16 surrogate
 * replaced by \ufffd (valid JSON that cJSON refuses). NULL on OOM. */
static char *fix_surrogates(const char *j)
{
    char *o = strdup(j);
    if (!o) return NULL;
    for (char *p = o; *p; p++) {
        if (*p != '\\') continue;
        if (!p[1]) break;
        unsigned v, w;
        if (p[1] == 'u' && strlen(p) >= 6 && hex4(p + 2, &v) && v >= 0xd800 && v <= 0xdfff) {
            int paired = v < 0xdc00 && p[6] == '\\' && p[7] == 'u' && strlen(p) >= 12 &&
                         hex4(p + 8, &w) && w >= 0xdc00 && w <= 0xdfff;
            if (paired) {
                p += 11;
                continue;
            }
            memcpy(p + 2, "fffd", 4); /* NOLINT(bugprone-not-null-terminated-result): overwrites 4 of the 4 hex digits in place */
        }
        p++; /* skip the escaped character */
    }
    return o;
}

int tsql_replay_script(const char *name, const char *args_json, const tsql_replay_ctx *ctx,
                       tsql_buf *out, char *err, size_t errsz)
{
    if (err && errsz) err[0] = 0;
    out->n = 0;
    if (!name || !*name) {
        set_err(err, errsz, "the event has no name", "", "");
        return -2;
    }
    /* torch.ops.<namespace>.<op>: "aten::mm" → ("aten", "mm") */
    const char *sep = strstr(name, "::");
    if (!sep || sep == name || strstr(sep + 2, "::") || !sep[2]) {
        set_err(err, errsz, "'", name, "' is not an operator name of the form namespace::op");
        return -2;
    }
    size_t nns = (size_t)(sep - name);
    const char *opn = sep + 2;
    size_t nop = strlen(opn);
    for (size_t i = 0; i < nns + 2 + nop; i++)
        if ((unsigned char)name[i] < 0x21 || name[i] == '\'' || name[i] == '\\') {
            set_err(err, errsz, "'", name, "' is not an operator name of the form namespace::op");
            return -2;
        }

    cJSON *args = args_json ? cJSON_Parse(args_json) : NULL;
    if (args_json && !args) {
        char *fixed = fix_surrogates(args_json);
        if (!fixed) return -1;
        args = cJSON_Parse(fixed);
        free(fixed);
        if (!args) {
            set_err(err, errsz, "the args of ", name, " are not valid JSON");
            return -2;
        }
    }
    const cJSON *dims = args ? member(args, "Input Dims", "Input dims") : NULL;
    const cJSON *types = args ? member(args, "Input type", NULL) : NULL;
    const cJSON *strides = args ? member(args, "Input Strides", "Input strides") : NULL;
    const cJSON *concrete = args ? member(args, "Concrete Inputs", NULL) : NULL;
    if (!dims && !types) {
        cJSON_Delete(args);
        set_err(err, errsz, "", name,
                " has no recorded inputs (Input Dims / Input type): profile with "
                "record_shapes=True to replay it");
        return -2;
    }
    int n = 0;
    if (dims) n = cJSON_GetArraySize(dims);
    if (types && cJSON_GetArraySize(types) > n) n = cJSON_GetArraySize(types);
    rin *in = calloc((size_t)(n ? n : 1), sizeof *in);
    tsql_buf tmp = {0};
    param *ps = malloc(MAX_PARAMS * sizeof *ps);
    if (!in || !ps) {
        free(in);
        free(ps);
        cJSON_Delete(args);
        return -1;
    }
    gen G = {.o = out};
    gen *g = &G;
    g->factory = 1;
    for (int i = 0; i < n; i++) {
        rin *r = &in[i];
        r->dims = dims ? cJSON_GetArrayItem(dims, i) : NULL;
        r->strides = strides ? cJSON_GetArrayItem(strides, i) : NULL;
        r->type = str_at(types, i);
        r->val = str_at(concrete, i);
        r->kind = classify(r);
        if (r->kind == R_TENSOR) {
            g->factory = 0;
            if (!g->list_dtype) g->list_dtype = tsql_replay_torch_dtype(r->type);
        }
        if (r->kind == R_TLIST) g->factory = 0;
    }

    /* the schema: first overload of this op whose parameters fit */
    const char *overload = NULL;
    int np = 0;
    for (size_t s = 0; s < sizeof schemas / sizeof *schemas && !overload; s++) {
        if (strcmp(schemas[s].op, name) != 0) continue;
        int k = parse_params(schemas[s].params, ps);
        if (n > k) continue;
        int ok = 1;
        for (int i = 0; i < k && ok; i++) {
            if (i < n) ok = fits(&ps[i], &in[i]);
            else ok = ps[i].has_def || ps[i].opt;
        }
        if (ok) {
            overload = schemas[s].overload;
            np = k;
        }
    }

    header(g, name, ctx);

    /* get_op() */
    put(g, "\n\ndef get_op():\n");
    int plain = is_ident(name, nns) && is_ident(opn, nop);
    if (overload) {
        put(g, "    \"\"\"The operator, with the overload chosen from the recorded arguments.\"\"\"\n");
    } else {
        put(g, "    \"\"\"The operator's overload packet: tracesql has no schema for this op, so\n"
               "    PyTorch picks the overload from the arguments when it is called.\"\"\"\n");
        if (!(nns == 4 && memcmp(name, "aten", 4) == 0))
            put(g, "    # not an aten op: import the library that registers it first\n");
    }
    if (plain) {
        put(g, "    return torch.ops.");
        put_n(g, name, nns);
        put(g, ".");
        put_n(g, opn, nop);
        if (overload) {
            put(g, ".");
            put(g, overload);
        }
        put(g, "\n");
    } else {
        char *ns = malloc(nns + 1);
        if (!ns) g->oom = 1;
        else {
            memcpy(ns, name, nns);
            ns[nns] = 0;
            put(g, "    packet = getattr(getattr(torch.ops, ");
            put_pystr(g, ns);
            put(g, "), ");
            put_pystr(g, opn);
            put(g, ")\n");
            free(ns);
        }
        if (overload) {
            put(g, "    return getattr(packet, ");
            put_pystr(g, overload);
            put(g, ")\n");
        } else put(g, "    return packet\n");
    }

    /* make_args() */
    put(g, "\n\ndef make_args(device):\n"
           "    \"\"\"The call's positional and keyword arguments, as the trace recorded them.\"\"\"\n");
    put(g, "    args = [\n");
    if (overload) {
        for (int i = 0; i < np && i < n; i++) {
            if (ps[i].kwonly) continue;
            put(g, "        ");
            emit_arg(g, &in[i], &ps[i], &tmp);
            char what[128];
            snprintf(what, sizeof what, "%s (%s%s)", ps[i].name, ps[i].type, ps[i].opt ? "?" : "");
            end_line(g, what);
        }
    } else {
        for (int i = 0; i < n; i++) {
            put(g, "        ");
            emit_arg(g, &in[i], NULL, &tmp);
            char what[128];
            char ct[48];
            clean_text(ct, sizeof ct, in[i].type ? in[i].type : "not recorded");
            snprintf(what, sizeof what, "argument %d (%s)", i, *ct ? ct : "None");
            end_line(g, what);
        }
    }
    put(g, "    ]\n    kwargs = {\n");
    if (overload) {
        for (int i = 0; i < np; i++) {
            if (!ps[i].kwonly) continue;
            char what[128];
            snprintf(what, sizeof what, "%s (%s%s, keyword-only)", ps[i].name, ps[i].type, ps[i].opt ? "?" : "");
            if (ps[i].cls == P_DEVICE) {
                /* a factory op makes its result on the replay device */
                if (!g->factory) continue;
                put(g, "        ");
                put_pystr(g, ps[i].name);
                put(g, ": device");
                end_line(g, what);
                continue;
            }
            if (i >= n) continue;
            const rin *r = &in[i];
            /* not recorded: the default applies */
            if (r->kind != R_TENSOR && r->kind != R_TLIST && !(r->val && *r->val)) continue;
            put(g, "        ");
            put_pystr(g, ps[i].name);
            put(g, ": ");
            emit_arg(g, r, &ps[i], &tmp);
            end_line(g, what);
        }
    }
    put(g, "    }\n    return args, kwargs\n");
    put(g, main_text);

    int oom = g->oom;
    free(in);
    free(ps);
    free(tmp.p);
    cJSON_Delete(args);
    if (oom) return -1;
    return 0;
}

