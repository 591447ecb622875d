/*
 * hta_callgraph.h — HTA's call graph of one rank (its frequent-kernel-sequence
 * analysis): each thread's CPU rows nested by HTA's ordering of start and end points,
 * kernels under their launches, the backward thread's ops moved under the main
 * thread's step, and per node its depth and GPU descendants; and the analysis itself,
 * the kernel sequences an operator launches. Reference: docs/hta.md.
 */
#ifndef TSQL_HTA_CALLGRAPH_H
#define TSQL_HTA_CALLGRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/hta.h"

typedef struct tsql_hta_callgraph {
    uint32_t n;            /* rows of the tsql_hta_rows it was built from */
    uint32_t nnodes;       /* rows in the graph */
    uint32_t max_kernels;  /* the largest nkernels */
    int32_t *depth;        /* -1 = not in the graph; a thread's top rows have depth 0 */
    uint32_t *parent;      /* parent row, UINT32_MAX for a top row or none */
    uint32_t *nkernels;    /* GPU descendants */
    double *kernel_dur;    /* their summed dur (µs) */
    uint32_t *child_at, *child; /* children of row i: child[child_at[i] .. child_at[i+1]) */
} tsql_hta_callgraph;

/* The graph of r (rows of trace t); with kept_only, only rows the last-step cut keeps.
 * NULL on OOM. */
tsql_hta_callgraph *tsql_hta_callgraph_build(const tsql_trace *t, const tsql_hta_rows *r, int kept_only);
void tsql_hta_callgraph_free(tsql_hta_callgraph *g);

/* Scratch of tsql_hta_callgraph_kernels, allocated once for any number of calls on
 * one graph: a walk's stack and a sort's keys. */
typedef struct tsql_hta_cg_scratch {
    uint32_t *stack;       /* room for every node */
    struct tsql_hta_kkey *keys; /* room for the largest nkernels */
} tsql_hta_cg_scratch;
int tsql_hta_cg_scratch_init(tsql_hta_cg_scratch *s, const tsql_hta_callgraph *g); /* 0, -1 on OOM */
void tsql_hta_cg_scratch_free(tsql_hta_cg_scratch *s);

/* The GPU descendants of row i in ts order (ties: event order), into out (room for
 * g->nkernels[i]); returns their count. */
uint32_t tsql_hta_callgraph_kernels(const tsql_hta_callgraph *g, const tsql_hta_rows *r, uint32_t i,
                                    uint32_t *out, tsql_hta_cg_scratch *s);

/* HTA's frequent kernel sequences of an operator, before the grouping: the graph's
 * rows whose name contains op (op_len bytes, any bytes) at the smallest depth any of
 * them has, with at least min_kernels GPU descendants (the roots), in row order, and
 * each root's GPU descendants in ts order. */
typedef struct tsql_hta_kseq {
    uint32_t n;            /* roots */
    uint32_t *root;        /* their rows */
    uint32_t *kernel_at;   /* root q's kernels: kernel[kernel_at[q] .. kernel_at[q + 1]) */
    uint32_t *kernel;      /* rows */
} tsql_hta_kseq;

/* The roots of op in g (built from rows r of trace t). NULL on OOM. */
tsql_hta_kseq *tsql_hta_kseq_build(const tsql_trace *t, const tsql_hta_rows *r, const tsql_hta_callgraph *g,
                                   const char *op, size_t op_len, uint32_t min_kernels);
void tsql_hta_kseq_free(tsql_hta_kseq *k);

#endif
