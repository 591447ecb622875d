/*
 * pseudo_ops.h — the changes TraceLens's inference report makes to a trace's tree before
 * it reads it (its enable_pseudo_ops switch, on in that report; docs/inference.md,
 * Preparing a trace for the inference report):
 *
 *   - SGLang profiler names: an op name "sglang_profiler::<op>_<digits>" whose first
 *     event is a cpu_op is renamed "sglang_profiler::<op>" on every event of that name,
 *     so that the perf-model registry's sglang_profiler names match;
 *   - the inference rule of op annotations (op_annotation.h: 14 attention prefixes).
 *
 * and TraceLens's single-kernel pseudo ops (vLLM's fused-MoE GEMMs: one op per MoE GEMM
 * kernel, with the UIDs and args TraceLens gives them), planned then appended to the
 * trace: the launch call's parent lists the pseudo op in its place and the pseudo op lists
 * the launch call (t->child_at / t->child), while t->parent of the launch call does not
 * change. The MLA / V4 / flydsl wrappers are not done yet (docs/inference.md).
 *
 * No SQLite here; ext/func/inference.c is trace_inference_prepare().
 */
#ifndef TSQL_PSEUDO_OPS_H
#define TSQL_PSEUDO_OPS_H

#include <stdint.h>

#include "store/trace.h"

/* 1 when t was prepared (its annotations follow the inference rule). */
int tsql_trace_inference_mode(const tsql_trace *t);

/* Prepares t once (later calls do nothing): renames, then appends the planned pseudo
 * ops. The trace must not have been analysed yet (no cached analysis but process names,
 * Python frames and a capture merge's record): returns -2 then, leaving t as it is. Else
 * the number of events renamed, or -1 on out of memory (t possibly half prepared: the
 * caller drops it). */
int64_t tsql_trace_inference_prepare(tsql_trace *t);

/* One single-kernel pseudo op: TraceLens lists it below `parent` (the launch call's
 * parent in the tree with Python frames) with the launch call as its child and the
 * GPU event as its only kernel, while the launch call keeps `parent` as its parent. */
typedef struct tsql_pseudo_op {
    uint32_t uid;       /* TraceLens's UID: t->n + its place in the plan */
    const char *name;   /* static text */
    uint32_t source;    /* the op whose shapes it takes */
    uint32_t kernel;    /* its GPU event */
    uint32_t launch;    /* the GPU event's launch call */
    uint32_t parent;    /* the launch call's parent with Python frames */
    char *args;         /* its args, compact JSON as TraceLens writes them */
} tsql_pseudo_op;

typedef struct tsql_pseudo_plan {
    tsql_pseudo_op *v;
    size_t n, cap;
    int skipped;        /* 1: the trace holds a paged-attention op, TraceLens adds none */
} tsql_pseudo_plan;

/* The pseudo ops TraceLens's inference report adds for vLLM's fused MoE, in its order
 * (docs/inference.md, Pseudo ops): the aiter fused-MoE rule or the GPT-OSS Triton rule,
 * then the GPTQ/AWQ rule. 0, or -1 on out of memory (out emptied). */
int tsql_pseudo_ops_plan(tsql_trace *t, tsql_pseudo_plan *out);
void tsql_pseudo_plan_free(tsql_pseudo_plan *p);

#endif
