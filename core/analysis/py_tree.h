/*
 * py_tree.h — TraceLens's call tree built with Python frames (its add_python_func
 * switch, on in the inference report: docs/inference.md, Call stacks): cpu_op, runtime,
 * driver and python_function events nested together by time on each thread, with the
 * rule of the plain tree (stable sort by ts, ">=" closes, the 1 µs overrun rule; an
 * event that overruns otherwise is left out: no parent, no children).
 *
 * In a trace merged with its capture traces (core/load/capture_merge.h) the copied rows
 * all carry their graph launch's times, so time cannot nest them: they take the parents
 * the merge recorded from the capture tree with Python frames
 * (tsql_py_tree_record_copies).
 *
 * Only the parent of each event is kept: the inference report walks upward from an op
 * or a kernel's launch to name its call stack. A GPU event's parent is TraceLens's
 * launching runtime call (kernels.tl_runtime), as in the plain tree.
 *
 * No SQLite here; ext/func/inference.c holds the SQL functions over it.
 */
#ifndef TSQL_PY_TREE_H
#define TSQL_PY_TREE_H

#include <stdint.h>

#include "store/trace.h"

typedef struct tsql_py_tree {
    uint32_t n;
    uint32_t *parent; /* TSQL_NONE for roots and events outside the tree */
} tsql_py_tree;

/* Records, for the rows first .. t->n - 1 a graph-capture merge (or the inference
 * report's pseudo ops, core/analysis/pseudo_ops.h) just appended, their parents in the
 * tree with Python frames (parents[row - first], rows of t). Rows appended right after
 * rows recorded before extend that range. Takes parents (freed on failure too). 0, or -1
 * on out of memory (or when first does not follow the rows recorded before). */
int tsql_py_tree_record_copies(tsql_trace *t, uint32_t first, uint32_t *parents);

/* Records that rows[i] now have parents[i] (rows of t), i < n: the inference report's
 * wrapping pseudo ops (core/analysis/pseudo_ops.h) move an event's children, or the event
 * itself, below a new op. Applied, in record order, after time and the copies' parents.
 * Copies the arrays. 0, or -1 on out of memory. */
int tsql_py_tree_record_moves(tsql_trace *t, const uint32_t *rows, const uint32_t *parents, uint32_t n);

/* The trace's tree, built on first call and kept with the trace; NULL on OOM. */
const tsql_py_tree *tsql_py_tree_get(tsql_trace *t);

/* 1 when a frame of this name (of event kind `kind`) is part of a unified call stack:
 * its name holds "nn.Module", "::" or "/", or it is a cpu_op. */
int tsql_py_stack_frame(const char *name, int kind);

/* Writes name with every "_<digits>" removed into out (at least strlen(name) + 1
 * bytes); returns the length written. */
size_t tsql_strip_instance_ids(const char *name, char *out);

#endif
