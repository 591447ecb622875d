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
 * and TraceLens's pseudo ops (docs/inference.md, Pseudo ops), planned then appended to the
 * trace with the UIDs and args TraceLens gives them:
 *
 *   - single-kernel ops (vLLM's fused-MoE GEMMs): the launch call's parent lists the
 *     pseudo op in its place and the pseudo op lists the launch call (t->child_at /
 *     t->child), while t->parent of the launch call does not change;
 *   - wrapping ops (MLA decode / prefill, DeepSeek V4 paged decode): the op takes every
 *     child of a Python frame and becomes its only child;
 *   - ops above an event (aiter flydsl MoE stages): the op stands between a Python frame
 *     and its parent.
 *
 * The last two are on the parent chain (t->parent, the tree with Python frames), so
 * launchers see them.
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

/* How a pseudo op goes into the tree. */
enum tsql_pseudo_how {
    TSQL_PSEUDO_SINGLE = 0, /* one kernel: listed below `parent` (the launch call's parent in
                             * the tree with Python frames) with the launch call as its
                             * child, while the launch call keeps its parent */
    TSQL_PSEUDO_WRAP = 1,   /* the children of Python frame `target` (= `parent`) move below
                             * it, and it becomes target's only child */
    TSQL_PSEUDO_ABOVE = 2,  /* between Python frame `target` and target's parent `parent` */
};

/* One pseudo op. */
typedef struct tsql_pseudo_op {
    uint32_t uid;       /* TraceLens's UID: t->n + its place in the plan */
    const char *name;   /* static text */
    int how;            /* enum tsql_pseudo_how */
    uint32_t source;    /* the op whose shapes it takes */
    uint32_t kernel;    /* SINGLE: its GPU event; else TSQL_NONE */
    uint32_t launch;    /* SINGLE: the GPU event's launch call; else TSQL_NONE */
    uint32_t parent;    /* its parent in the tree with Python frames */
    uint32_t target;    /* WRAP, ABOVE: the Python frame (above); SINGLE: TSQL_NONE */
    char *args;         /* its args, compact JSON as TraceLens writes them */
} tsql_pseudo_op;

typedef struct tsql_pseudo_plan {
    tsql_pseudo_op *v;
    size_t n, cap;
    int skipped;        /* 1: the trace holds a paged-attention op, TraceLens adds none */
} tsql_pseudo_plan;

/* The pseudo ops TraceLens's inference report adds, in its order (docs/inference.md,
 * Pseudo ops): the aiter fused-MoE rule or the GPT-OSS Triton rule, the GPTQ/AWQ rule,
 * the flydsl MoE stages, MLA decode, MLA prefill, DeepSeek V4 paged decode (which reads
 * the environment variables TL_MODEL and TL_TP, as TraceLens does). 0, or -1 on out of
 * memory (out emptied). */
int tsql_pseudo_ops_plan(tsql_trace *t, tsql_pseudo_plan *out);
void tsql_pseudo_plan_free(tsql_pseudo_plan *p);

#endif
