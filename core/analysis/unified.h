/*
 * unified.h — the op instances of TraceLens's unified_perf_summary
 * (docs/schema.md, unified_ops and unified_perf_summary): GPU time charged to the highest op that
 * has a perf model, to leaf launchers elsewhere, and to synthetic "P->kernel (Synthetic Op)" rows
 * for GPU work no collected op covers.
 *
 * Rows are in TraceLens's collection order (pre-order walk from the root cpu_ops, then
 * synthetic rows). Built on first use and kept with the trace.
 */
#ifndef TSQL_UNIFIED_H
#define TSQL_UNIFIED_H

#include <stdint.h>

#include "perfmodel/perfmodel.h"
#include "store/trace.h"

typedef struct tsql_unified_op {
    uint32_t uid;            /* row's UID (synthetic rows: t->n, t->n + 1, ...) */
    uint32_t node;           /* the event whose fields the row carries */
    uint32_t gpu_at, ngpu;   /* its GPU events (gpu[gpu_at ..]) in linking order */
    const char *category;    /* op category, with the backward override
                                (docs/perf-models.md, op_bwd_category) */
    char *name;              /* synthetic rows: "P->kernel (Synthetic Op)"; else NULL */
    uint8_t has_model;       /* model(n) or sole_bwd(n) */
    uint8_t has_metrics;     /* perf metrics below are valid */
    double kernel_us;        /* Kernel Time (µs) */
    uint8_t whole_kernel_us; /* the events kernel_us is the busy time of all have whole-µs
                                ts and dur (TraceLens holds it as an int) */
    double flops, bytes;     /* bytes NAN when null */
    char compute_spec[24];
    char *perf_params;       /* Python dict repr, or NULL */
} tsql_unified_op;

typedef struct tsql_unified {
    tsql_unified_op *rows;
    uint32_t n;
    uint32_t *gpu;
    /* TraceLens's frame holds the column as int64 (docs/report.md, Whole-µs traces):
     * every row's duration is present and whole µs / every row's whole_kernel_us */
    uint8_t int_durations, int_kernel_times;
} tsql_unified;

/* Built on first call; NULL on OOM. */
const tsql_unified *tsql_unified_get(tsql_trace *t);
/* The same when already built, else NULL (never builds). */
const tsql_unified *tsql_unified_peek(const tsql_trace *t);
void tsql_unified_free(tsql_unified *u);

#endif
