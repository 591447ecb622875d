/*
 * perfmodel.h — TraceLens's op categories and performance models (FLOPs and bytes per
 * op), the derived metrics and the roofline. No SQLite here; ext/functions_perf.c is
 * the SQL face of it.
 *
 * Sources of truth: the reference semantics, sections 5 (categories), 7 (models) and
 * Appendix A (op-name registry). Numbers reproduce TraceLens's Python arithmetic:
 * integer parts exactly (int64), real divisions in double, as Python does.
 *
 * Typical use (one op instance):
 *
 *     tsql_perf p;
 *     tsql_perf_init(&p);
 *     tsql_perf_eval(&p, name, args_json, kernel_names, nkernels, bwd);
 *     if (p.status == TSQL_PM_OK) { ... p.flops, p.bytes, p.compute_spec, p.params ... }
 *     tsql_perf_free(&p);
 */
#ifndef TSQL_PERFMODEL_H
#define TSQL_PERFMODEL_H

#include <stddef.h>
#include <stdint.h>

struct cJSON;
struct tsql_buf;

/* ---- data types (7.2) ------------------------------------------------------------- */

/* Bytes per element of a Kineto "Input type" string (case-insensitive lookup):
 * 8, 4, 2 or 1; 0 when unknown (e.g. "bool", "", "ScalarList"). NULL → 0. */
int tsql_dtype_bytes(const char *type);

/* Precision name used in Compute Spec: "fp64", "fp32", "fp16", "bf16", "fp8", "fp4";
 * NULL when unknown (integer types, float8_e5m2, ...). */
const char *tsql_dtype_precision(const char *type);

/* ---- op registry (Appendix A) and categories (5.1) ------------------------------- */

enum {
    TSQL_OPF_MODEL = 1 << 0,   /* TraceLens has a perf-model class for this name */
    TSQL_OPF_FWD = 1 << 1,     /* the model's forward entry computes metrics */
    TSQL_OPF_BWD = 1 << 2,     /* the model implements backward metrics (flops_bwd) */
    TSQL_OPF_EXT = 1 << 4,     /* class comes from TraceLens's extensions, not core */
    TSQL_OPF_BWD_ONLY = 1 << 5, /* backward-only class: its forward entry computes the
                                   backward formulas (e.g. aten::convolution_backward) */
    TSQL_OPF_FWD_PARAMS = 1 << 6 /* the model copies the parameters of its forward op
                                    (ConvBias_Backward, ConvBiasReLU_Backward:
                                    tsql_perf_eval_fwd) */
};

struct pm_ctx;
/* A perf-model family function (core/perfmodel/internal.h): the metrics of one op. */
typedef int (*tsql_pm_model)(struct pm_ctx *c);

typedef struct tsql_op_info {
    const char *name;          /* exact op name */
    const char *category;      /* e.g. "GEMM", "CONV_fwd", "elementwise", "NORM_bwd" */
    const char *bwd_category;  /* e.g. "SDPA_bwd"; NULL when the class has none */
    const char *sheet;         /* sheet family ("GEMM", "CONV", "UnaryElementwise", ...);
                                  NULL for category-only names */
    const char *model_class;   /* TraceLens class name; NULL for category-only names */
    unsigned flags;            /* TSQL_OPF_* */
    tsql_pm_model model;       /* the family function computing its metrics; NULL when
                                  tracesql does not implement the class (UNSUPPORTED) */
} tsql_op_info;

/* Exact-name lookup; NULL if the name is not registered. */
const tsql_op_info *tsql_op_lookup(const char *name);

/* The whole registry (perf-model names first, then category-only names); *n = count. */
const tsql_op_info *tsql_op_registry(size_t *n);

/* category(op), rules 1-4 of 5.1: registry, then ^triton / ^record_param_comms, then
 * the first direct kernel's name (may be NULL), then "other". Never NULL. */
const char *tsql_op_category(const char *op_name, const char *first_kernel_name);

/* Sheet family of a modelled op (NULL if none). */
const char *tsql_op_sheet(const char *op_name);

/* bwd_category of the op's class (NULL if none / not registered). */
const char *tsql_op_bwd_category(const char *op_name);

/* model(n) of 6.7.1: a registered perf model, or a triton_poi_/triton_red_/triton_per_
 * name (compiled-Triton model). 1 or 0. */
int tsql_op_has_model(const char *op_name);

/* ---- evaluation ----------------------------------------------------------------- */

enum tsql_pm_status {
    TSQL_PM_OK = 0,
    TSQL_PM_NO_MODEL,          /* name has no perf model */
    TSQL_PM_NOT_IMPLEMENTED,   /* TraceLens's model raises NotImplementedError for this
                                  direction (GEMM backward, instance_norm_backward, ...):
                                  such rows are dropped silently */
    TSQL_PM_ERROR,             /* the model fails on these args (TraceLens raises):
                                  message in .error */
    TSQL_PM_UNSUPPORTED,       /* TraceLens has a model tracesql does not implement
                                  (most extension classes) */
    TSQL_PM_NOMEM
};
extern const char *const tsql_pm_status_names[]; /* "OK", "NO_MODEL", ... */

/* One model parameter. */
typedef struct tsql_pm_param {
    const char *name;          /* static, e.g. "M", "dtype_A_B", "transpose" */
    char *str;                 /* Python str(value), e.g. "(1024, 1)", "True",
                                  "('c10::BFloat16', None)"; NULL when value is None */
    char *repr;                /* Python repr(value) ("None" for None); differs from str
                                  only for strings: 'conv2d' vs conv2d */
} tsql_pm_param;

typedef struct tsql_perf {
    int status;                /* enum tsql_pm_status */
    const tsql_op_info *op;    /* registry entry, NULL for triton_* / unknown names */
    const char *category;      /* tsql_op_category(name, NULL) */
    const char *sheet;         /* sheet family or NULL */
    double flops;              /* F (forward or backward as asked) */
    double bytes;              /* Bytes; NAN when null (unknown bytes per element) */
    int has_bytes;             /* 0 when Bytes is null */
    char compute_spec[24];     /* "matrix_bf16", "vector_fp32", "" */
    tsql_pm_param *params;     /* in the model's insertion order */
    size_t nparams, capparams;
    char error[256];           /* message for ERROR / UNSUPPORTED / NO_MODEL */
} tsql_perf;

void tsql_perf_init(tsql_perf *p);
/* Frees params; p can be reused after tsql_perf_init or directly (eval resets it). */
void tsql_perf_free(tsql_perf *p);

/* Evaluates op `name` on its event args (JSON object text with "Input Dims",
 * "Input type", "Input Strides", "Concrete Inputs"; NULL = no args). kernel_names are
 * the names of the op's subtree GPU events sorted by ts (GEMM transpose parameter,
 * 7.3); may be NULL/0. bwd selects backward metrics (7.5). Resets and fills *p;
 * returns p->status. */
int tsql_perf_eval(tsql_perf *p, const char *name, const char *args_json,
                   const char *const *kernel_names, size_t nkernels, int bwd);

/* Same with the args already parsed (a cJSON object, may be NULL). */
int tsql_perf_eval_json(tsql_perf *p, const char *name, const struct cJSON *args,
                        const char *const *kernel_names, size_t nkernels, int bwd);

/* Same, for ops whose model reads the iteration annotation enclosing the op (inference
 * attention, docs/perf-models.md): annotation = that annotation's name, "NA" when none
 * encloses it, NULL when the op is not annotated. */
int tsql_perf_eval_ann(tsql_perf *p, const char *name, const char *args_json,
                       const char *annotation, const char *const *kernel_names,
                       size_t nkernels, int bwd);

/* Same, for the models that copy the parameters of their forward op (TSQL_OPF_FWD_PARAMS:
 * ConvBias_Backward, ConvBiasReLU_Backward; docs/perf-models.md, "ConvBias_Backward and
 * ConvBiasReLU_Backward"): fwd_args_json = the args of the ConvBias_ / ConvBiasReLU_
 * event TraceLens took them from (core/analysis/perf_ops.h, tsql_convbias_cache), NULL
 * when there is none: then the model fails (ERROR), as TraceLens's does. The other
 * evaluation functions pass NULL. Other names ignore fwd_args_json. */
int tsql_perf_eval_fwd(tsql_perf *p, const char *name, const char *args_json,
                       const char *fwd_args_json, const char *annotation,
                       const char *const *kernel_names, size_t nkernels, int bwd);

/* Looks up a parameter by name; NULL if absent. */
const tsql_pm_param *tsql_perf_param(const tsql_perf *p, const char *name);

/* Appends the parameters as a Python dict repr ("{'M': 8944, 'bias': False, ...}",
 * the perf_params column). Returns 0, -1 on OOM. */
int tsql_perf_params_dict(const tsql_perf *p, struct tsql_buf *out);

/* ---- derived metrics (7.1) and roofline ---------------------------------------- */

typedef struct tsql_perf_metrics {
    double gflops;             /* F / 1e9 */
    double tflops_s;           /* F / (T·1e6); NAN if T == 0 */
    double data_moved_mb;      /* Bytes / 1048576; NAN if Bytes null */
    double flops_per_byte;     /* ((F/1e9)·1e9) / Bytes; NAN if Bytes null or 0 */
    double tb_s;               /* (Bytes/1e12) / (T/1e6); NAN if T == 0 or Bytes null */
} tsql_perf_metrics;

/* bytes = NAN means null; kernel_us = T in µs. */
void tsql_perf_derive(double flops, double bytes, double kernel_us, tsql_perf_metrics *m);

typedef struct tsql_roofline {
    double compute_us;         /* ((F/1e9)·1e9) / (P·1e12) · 1e6 */
    double memory_us;          /* Bytes / (BW·1e9) · 1e6 */
    double time_us;            /* max of the two */
    double pct;                /* time_us / T · 100; NAN if T == 0 */
    const char *bound;         /* "COMPUTE_BOUND" (compute_us >= memory_us) or
                                  "MEMORY_BOUND" */
} tsql_roofline;

/* Roofline of one op: P = peak TFLOPS for its Compute Spec, BW = memory GB/s. Returns
 * 0 and fills *r, or -1 when TraceLens emits no roofline (bytes null, F <= 0, P or BW
 * not positive / NAN). */
int tsql_roofline_eval(double flops, double bytes, double kernel_us, double peak_tflops,
                       double mem_gbps, tsql_roofline *r);

/* ---- per-family formulas (used by the models and the SQL convenience functions) --- */

/* GEMM (7.3), per batch element × B. bpe 0 = unknown → bytes NAN. */
double tsql_gemm_flops(double M, double N, double K, double B, int bias);
double tsql_gemm_bytes(double M, double N, double K, double B, int bias, int bpe_a,
                       int bpe_b, int bpe_out, int bpe_bias);

/* SDPA (7.6). Returns 0, or -1 (with *err static) when causal and N_Q != N_KV. */
typedef struct tsql_sdpa_dims {
    int64_t B, N_Q, H_Q, N_KV, H_KV, d_h_qk, d_h_v;
    int causal, flash_impl;
} tsql_sdpa_dims;
int tsql_sdpa_flops(const tsql_sdpa_dims *d, int bwd, double *flops, const char **err);
double tsql_sdpa_bytes(const tsql_sdpa_dims *d, int bwd, int bpe);

/* Convolution (7.4). x = (N, C_in, s...), w = (C_out, C_in/groups, k...), rank nd+2
 * with nd in 1..3; stride/padding/dilation/output_padding per spatial dim. Fills out
 * (rank nd+2). Returns 0 or -1 (err static). bpe 0 → *bytes NAN. */
typedef struct tsql_conv_dims {
    int nd;
    int64_t x[5], w[5];
    int64_t stride[3], padding[3], dilation[3], output_padding[3];
    int transposed, bias;
} tsql_conv_dims;
int tsql_conv_eval(const tsql_conv_dims *c, int bwd, int bpe, double *flops,
                   double *bytes, int64_t out_shape[5], const char **err);

/* Binary broadcast of two shapes (7.7). Returns the rank of out (<= 16) or -1 when
 * the shapes do not broadcast. */
int tsql_broadcast(const int64_t *a, int na, const int64_t *b, int nb, int64_t *out);

#endif
