/*
 * module_tree.h — the nn.Module hierarchy of a trace recorded with Python stacks, with
 * the GPU time of each module instance, computed in one pass over the tree (the
 * `module_tree` table, ext/vtab/module_tree.c; its rules: docs/analyses.md).
 *
 *   module      a python_function event whose name starts with "nn.Module:"
 *   parent      the nearest module above it through the Python frames (t->parent)
 *   launch      a GPU event's launching runtime call (kernels.runtime); it belongs to
 *               the innermost module whose span [ts, end) holds the call's start on the
 *               same pid and tid, and to every module above that one
 *   busy time   tsql_iv union length of the GPU events' [ts, ts + dur] (µs doubles);
 *               a module's union is built from its own launches' union and its child
 *               modules' unions (the union of unions is the same set of intervals,
 *               so the same length to the last bit)
 *
 * Rows are ordered by (ts_ns, depth, uid), NULL ts_ns first.
 */
#ifndef TSQL_MODULE_TREE_H
#define TSQL_MODULE_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "store/trace.h"

typedef struct tsql_module {
    uint32_t uid;            /* the module's python_function event */
    uint32_t parent;         /* the enclosing module's uid, or TSQL_NONE */
    uint32_t depth;          /* 0 at the top */
    uint32_t class_off, class_len; /* the class: bytes of the event name */
    int64_t instance;        /* trailing _<digits> as an integer, or TSQL_NULL */
    size_t path_off;         /* the '/'-separated classes from the top: tsql_modules.paths */
    uint32_t path_len;
    uint32_t child_modules;  /* module instances directly below */
    uint32_t gpu_events;     /* GPU events launched inside (own or in a child module) */
    double gpu_time_us;      /* busy time of those */
    double self_gpu_time_us; /* busy time of those not launched inside a child module */
    double parent_gpu_time_us; /* the parent's gpu_time_us; NaN (NULL) at the top */
    double pct_of_parent_gpu;  /* gpu_time_us / parent_gpu_time_us × 100; NaN (NULL)
                                  at the top or when the parent has no GPU time */
} tsql_module;

typedef struct tsql_modules {
    tsql_module *rows;
    size_t n;
    char *paths;             /* the path texts, back to back */
} tsql_modules;

/* Builds the module tree of t into *out. 0, or -1 on OOM. */
int tsql_modules_build(const tsql_trace *t, tsql_modules *out);
void tsql_modules_free(tsql_modules *m);
/* The trace's module tree, built on first call and kept with the trace; NULL on OOM. */
const tsql_modules *tsql_modules_get(tsql_trace *t);
/* The same when already built, else NULL (never builds). */
const tsql_modules *tsql_modules_peek(const tsql_trace *t);

#endif
