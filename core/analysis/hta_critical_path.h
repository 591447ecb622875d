/*
 * hta_critical_path.h — HTA's critical path of one rank (critical_path_analysis): a
 * graph whose nodes are the starts and ends of the CPU ops, runtime calls and kernels
 * of one step or annotation instance, whose edges are their spans, the call-stack and
 * runtime-lock dependencies, launch delays, kernel-to-kernel gaps and synchronisations
 * (stream, context, CUDA events); and its longest
 * path, each edge attributed to an event and classed by what bounds it. Reference:
 * docs/hta.md ("hta_critical_path_edges").
 *
 * No SQLite here; ext/vtab/hta_critical_path.c exposes the path as hta_cp_path.
 */
#ifndef TSQL_HTA_CRITICAL_PATH_H
#define TSQL_HTA_CRITICAL_PATH_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/hta.h"

/* Edge types, HTA's names in tsql_hta_cp_type_names. */
enum tsql_hta_cp_type {
    TSQL_HTA_CP_OPERATOR = 0,     /* the span of an op or kernel, or a step inside an op */
    TSQL_HTA_CP_DEPENDENCY = 1,   /* between consecutive top-level ops, or a lock hand-over */
    TSQL_HTA_CP_LAUNCH_DELAY = 2, /* launch start -> kernel start, with an empty queue */
    TSQL_HTA_CP_KERNEL_KERNEL = 3,/* previous kernel's end -> kernel start on one stream */
    TSQL_HTA_CP_SYNC = 4,         /* kernel end -> a synchronizing runtime call's end, or
                                     -> a kernel made to wait by a CUDA event */
};
extern const char *const tsql_hta_cp_type_names[5];

/* What bounds an edge, HTA's names in tsql_hta_cp_bound_names ("" for dependencies). */
enum tsql_hta_cp_bound {
    TSQL_HTA_CP_NONE = 0,
    TSQL_HTA_CP_CPU = 1,
    TSQL_HTA_CP_COMPUTE = 2,
    TSQL_HTA_CP_COMMUNICATION = 3,
    TSQL_HTA_CP_KK_OVERHEAD = 4,
    TSQL_HTA_CP_LAUNCH_OVERHEAD = 5,
};
extern const char *const tsql_hta_cp_bound_names[6];

typedef struct tsql_hta_cp_edge {
    uint32_t begin, end;     /* node numbers (the nodes in (time, event) order) */
    uint32_t begin_row, end_row; /* rows (of tsql_hta_rows) of the nodes' events */
    double begin_ts, end_ts; /* µs, absolute */
    double weight;           /* end_ts - begin_ts, 0 for dependencies and blocking ends */
    double graph_weight;     /* what the longest path used: weight, 0 if weight <= -1 */
    uint32_t attributed;     /* row the edge is attributed to, UINT32_MAX = none */
    uint8_t type, bound;     /* enum tsql_hta_cp_type, enum tsql_hta_cp_bound */
} tsql_hta_cp_edge;

typedef struct tsql_hta_cp {
    uint32_t nclipped;       /* rows in the window */
    uint32_t nnodes;         /* nodes (two per event that has nodes) */
    uint32_t ngraph_nodes;   /* nodes with an edge */
    uint32_t nedges;         /* edges of the graph */
    uint32_t npath;          /* edges of the critical path, in path order */
    tsql_hta_cp_edge *path;
    double length;           /* sum of the path's graph weights (µs) */
} tsql_hta_cp;

/* The critical path of r (rows of trace t). kept_only: only rows with TSQL_HTA_KEEP
 * (the last-step filter). annotation: rows whose name contains it mark the window,
 * the instance-th of them in table order ("" = the whole trace, instance ignored).
 * Returns 0 with *out set, -1 on OOM, 1 with a message in err (no such annotation or
 * instance, or a graph HTA rejects: a cycle, a sync between kernels of one stream). */
int tsql_hta_cp_build(const tsql_trace *t, const tsql_hta_rows *r, int kept_only, const char *annotation,
                      int64_t instance, tsql_hta_cp **out, char *err, size_t errlen);
void tsql_hta_cp_free(tsql_hta_cp *cp);

/* HTA's short form of an op or kernel name: template and call arguments dropped, the
 * last space-separated word kept; memory kernels and plain names unchanged. Writes at
 * most cap bytes (NUL included) to out; returns out. */
char *tsql_hta_short_name(const char *name, char *out, size_t cap);

#endif
