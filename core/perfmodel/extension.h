/*
 * perfmodel/extension.h — the perf models of TraceLens's extension classes (inference
 * attention, MoE, RMSNorm, RoPE, extension GEMMs, quantisation, activations, sampler,
 * custom collectives, mHC; docs/perf-models.md "Extension models") and the helpers they
 * share. Private to core/perfmodel/.
 *
 * Arithmetic follows Python: integer parts are exact (int64, overflow-checked), a value
 * becomes a double as soon as a real division, a fractional bytes-per-element (0.5) or
 * another double enters, and expressions are evaluated left to right as TraceLens
 * writes them (this fixes the last digit of double results).
 */
#ifndef TSQL_PERFMODEL_EXTENSION_H
#define TSQL_PERFMODEL_EXTENSION_H

#include "perfmodel/internal.h"

/* families (one function per file, dispatching on the model class c->cls) */
int pm_inference_attention(pm_ctx *c); /* inference_attention.c */
int pm_moe(pm_ctx *c);                 /* moe.c: fused, unfused, auxiliary */
int pm_rmsnorm(pm_ctx *c);             /* norm_rope.c: RMSNorm family */
int pm_rope_ext(pm_ctx *c);            /* norm_rope.c: RoPE / FusedRoPE extensions */
int pm_gemm_ext(pm_ctx *c);            /* gemm_ext.c */
int pm_quant(pm_ctx *c);               /* quant.c: per-token / group / MXFP4 quant */
int pm_activation(pm_ctx *c);          /* quant.c: silu/gelu_and_mul */
int pm_sampler(pm_ctx *c);             /* quant.c: mixed_sample_outer_exponential */
int pm_custom_collective(pm_ctx *c);   /* quant.c */
int pm_mhc(pm_ctx *c);                 /* quant.c: mHC and topk_softplus */

/* GEMM tail: B = 1 when absent, then the transpose read from the kernel names
 * (gemm.c) */
int pm_gemm_common_params(pm_ctx *c);

/* 1 when the model class is cls */
int pm_is(const pm_ctx *c, const char *cls);

/* TraceLens's exact-case dtype→bytes map of the MoE models (FP8 names 1, FP4 0.5,
 * BFloat16/Half 2, Float32 4), d for any other text (also NULL). */
double pm_dtb(const char *type, double d);

/* product of a shape's sizes (checked) */
int64_t pm_numel(pm_ctx *c, const pm_shape *s);

/* dims[i] as a shape, with exactly `n` entries (n < 0: any) */
int pm_dims_n(pm_ctx *c, int i, int n, pm_shape *s);

/* dims[i] exists and is a non-empty list */
int pm_dims_nonempty(const pm_ctx *c, int i);

/* the args value of key (NULL when absent) */
const cJSON *pm_arg(const pm_ctx *c, const char *key);

#endif
