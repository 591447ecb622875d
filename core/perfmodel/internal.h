/*
 * perfmodel/internal.h — what the perf-model families (the files of core/perfmodel/) share: the evaluation
 * context, argument accessors with Python's failure behaviour, and parameter builders.
 * Private to core/perfmodel/.
 *
 * Conventions: accessors and builders return 0 on success and -1 on failure, after
 * recording the failure in the result (ERROR with a message, or NOMEM). A family
 * function returns the final status (pm_done(c) on success).
 */
#ifndef TSQL_PERFMODEL_INT_H
#define TSQL_PERFMODEL_INT_H

#include <stdint.h>

#include <cjson/cJSON.h>

#include "perfmodel/perfmodel.h"
#include "text/pyrepr.h"

#define PM_MAX_RANK 16

typedef struct pm_ctx {
    tsql_perf *p;
    const char *name;                /* op name */
    const char *cls;                 /* TraceLens model class name */
    const cJSON *args;               /* args object (NULL if none) */
    const cJSON *dims, *types, *strides, *conc; /* NULL when the key is absent */
    const char *const *kernels;      /* subtree GPU event names sorted by ts */
    size_t nkernels;
    int bwd;                         /* backward metrics asked */
    const char *annotation;          /* name of the iteration annotation enclosing the op
                                        ("NA" when none, NULL when not annotated) */
    int ovf;                         /* an integer overflowed (pm_mul, pm_add) */
    tsql_buf t;                      /* scratch for parameter text */
} pm_ctx;

/* families */
int pm_gemm(pm_ctx *c);
int pm_conv(pm_ctx *c);
int pm_sdpa(pm_ctx *c);
int pm_unary(pm_ctx *c);
int pm_binary(pm_ctx *c);
int pm_reduce(pm_ctx *c);
int pm_norm(pm_ctx *c);
int pm_grouped_gemm(pm_ctx *c);
int pm_moe_comm(pm_ctx *c);
int pm_causal_conv1d(pm_ctx *c);
int pm_mamba_ssd(pm_ctx *c);
int pm_fused_rope(pm_ctx *c);
int pm_cross_entropy(pm_ctx *c);
int pm_triton(pm_ctx *c);

/* ---- results ---- */

/* Records an error (printf-style); returns -1. */
int pm_err(pm_ctx *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
int pm_nomem(pm_ctx *c);
/* records an error and evaluates to the status (for `return PM_FAIL(c, ...)`) */
#define PM_FAIL(c, ...) (pm_err((c), __VA_ARGS__), pm_status(c))
/* NotImplementedError (the row is dropped silently); returns -1. */
int pm_notimpl(pm_ctx *c, const char *what);
/* The status to return from a family function after a -1. */
static inline int pm_status(pm_ctx *c) { return c->p->status; }
/* Success: F and Bytes (NAN = null). Returns TSQL_PM_OK. */
int pm_done(pm_ctx *c, double flops, double bytes);
/* Sets Compute Spec = maf + "_" + precision(dtype); "" if either is unknown. */
void pm_spec(pm_ctx *c, const char *maf, const char *dtype);
void pm_spec_raw(pm_ctx *c, const char *maf, const char *precision);

/* ---- argument access (Python semantics: missing key → KeyError, missing index →
 * IndexError; both are errors unless a caller handles them) ---- */

/* element i of the array a named what; NULL + error when a is absent or too short */
const cJSON *pm_at(pm_ctx *c, const cJSON *a, const char *what, int i);
/* same, without recording an error */
static inline const cJSON *pm_at_opt(const cJSON *a, int i)
{
    return a && i >= 0 && cJSON_IsArray(a) ? cJSON_GetArrayItem(a, i) : NULL;
}
int pm_len(const cJSON *a); /* array length, 0 if absent */

/* A shape: an array of integers. */
typedef struct pm_shape {
    int n;
    int64_t d[PM_MAX_RANK];
} pm_shape;
/* Reads dims[i] (or any array v) as a shape; error if not a list of ints. */
int pm_dims(pm_ctx *c, int i, pm_shape *s);
int pm_shape_of(pm_ctx *c, const cJSON *v, const char *what, pm_shape *s);
/* integer value of a JSON number (error if not an integral number) */
int pm_int(pm_ctx *c, const cJSON *v, const char *what, int64_t *out);

/* types[i] / conc[i] as a string (JSON null → NULL); error if absent */
int pm_type(pm_ctx *c, int i, const char **out);
int pm_conc(pm_ctx *c, int i, const char **out);
/* the same, NULL when absent (no error) */
const char *pm_type_opt(pm_ctx *c, int i);
const char *pm_conc_opt(pm_ctx *c, int i);

/* Concrete-input text parsers, Python-like. */
int pm_parse_int(pm_ctx *c, const char *s, const char *what, int64_t *out);   /* int(s) */
int pm_parse_float(pm_ctx *c, const char *s, const char *what, double *out);  /* float(s) */
int pm_try_float(const char *s, double *out); /* float(s) without recording an error */
/* eval(s) / ast.literal_eval(s) for "True"/"False"/integers: 1/0 for booleans; ints
 * also allowed (*is_int set, value in *iv) */
int pm_parse_literal_bool(pm_ctx *c, const char *s, const char *what, int *out);
/* "[a, b, c]" → ints: the first and last characters are dropped and the rest split on
 * ',' (TraceLens's str_to_tuple for convolution arguments) */
int pm_parse_int_list(pm_ctx *c, const char *s, const char *what, int64_t *out, int *n, int max);
/* ast.literal_eval of a list of ints or booleans ("[768]", "[True, False, True]");
 * booleans read as 1/0 */
int pm_parse_literal_list(pm_ctx *c, const char *s, const char *what, int64_t *out, int *n, int max);

/* name2bpe of a JSON item / string (0 = unknown) */
int pm_bpe(const char *type);

/* ---- integer arithmetic with overflow checks (Python ints) ---- */
int64_t pm_mul(pm_ctx *c, int64_t a, int64_t b);
int64_t pm_add(pm_ctx *c, int64_t a, int64_t b);
int64_t pm_prod(pm_ctx *c, const int64_t *v, int n);
/* non-zero once an overflow happened (the eval then fails) */
int pm_overflowed(const pm_ctx *c);

/* ---- parameters (the model's dict, in insertion order) ---- */

int pm_p_int(pm_ctx *c, const char *name, int64_t v);
int pm_p_float(pm_ctx *c, const char *name, double v);
int pm_p_bool(pm_ctx *c, const char *name, int v);
int pm_p_none(pm_ctx *c, const char *name);
int pm_p_str(pm_ctx *c, const char *name, const char *s);     /* NULL → None */
int pm_p_shape(pm_ctx *c, const char *name, const pm_shape *s); /* tuple of ints */
/* tuple(a[from:to]) of a JSON array (elements repr'd as JSON: lists stay lists);
 * to < 0 = to the end; a NULL → None */
int pm_p_slice(pm_ctx *c, const char *name, const cJSON *a, int from, int to);
/* tuple(v) of one JSON array (e.g. strides[i]); v NULL → None */
int pm_p_tuple(pm_ctx *c, const char *name, const cJSON *v);
/* a ready-made repr text (not a string value) */
int pm_p_repr(pm_ctx *c, const char *name, const char *repr);
/* a tuple of strings / None (strs[i] NULL → None) */
int pm_p_str_tuple(pm_ctx *c, const char *name, const char *const *strs, int n);
/* 1 if a parameter of that name exists */
int pm_p_has(const pm_ctx *c, const char *name);

/* Strides entry i as a tuple parameter. mode: PM_STRICT — a missing key or index is an
 * error; PM_KEYOPT — a missing key gives None, a missing index an error; PM_OPT — both
 * give None. */
enum { PM_STRICT, PM_KEYOPT, PM_OPT };
int pm_p_stride(pm_ctx *c, const char *name, int i, int mode);

/* The ATen operator names compiled-Triton kernel names are split into, sorted
 * (core/perfmodel/aten_op_names.txt, embedded at build time). */
extern const char *const tsql_aten_op_names[];
extern const size_t tsql_aten_op_count;

/* The ATen operator names compiled-Triton kernel names are split into, sorted
 * (core/perfmodel/aten_op_names.txt, embedded at build time). */
extern const char *const tsql_aten_op_names[];
extern const size_t tsql_aten_op_count;

#endif
