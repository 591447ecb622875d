/*
 * hta_callgraph.h — HTA's call graph of one rank (its frequent-kernel-sequence
 * analysis): each thread's CPU rows nested by HTA's ordering of start and end points,
 * kernels under their launches, the backward thread's ops moved under the main
 * thread's step, and per node its depth and GPU descendants. Reference: docs/hta.md.
 */
#ifndef TSQL_HTA_CALLGRAPH_H
#define TSQL_HTA_CALLGRAPH_H

#include <stdint.h>

#include "analysis/hta.h"

typedef struct tsql_hta_callgraph {
    uint32_t n;            /* rows of the tsql_hta_rows it was built from */
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

/* The GPU descendants of row i in ts order (ties: event order), into out (room for
 * g->nkernels[i]); returns their count. scratch needs the same room. */
uint32_t tsql_hta_callgraph_kernels(const tsql_hta_callgraph *g, const tsql_hta_rows *r, uint32_t i,
                                    uint32_t *out);

#endif
