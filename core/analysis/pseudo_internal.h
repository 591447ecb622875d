/*
 * pseudo_internal.h — what the pseudo-op planners share (private to
 * core/analysis/pseudo_ops.c, the single-kernel MoE rules and the applying, and
 * core/analysis/pseudo_wrap.c, the wrapping and inserting-above rules).
 */
#ifndef TSQL_PSEUDO_INTERNAL_H
#define TSQL_PSEUDO_INTERNAL_H

#include <stdint.h>

#include "analysis/pseudo_ops.h"
#include "analysis/py_tree.h"
#include "store/trace.h"
#include "util/buf.h"
#include "util/u32vec.h"

typedef struct tsql_pseudo_planner {
    tsql_trace *t;
    const tsql_py_tree *pt;
    const uint32_t *pc_at, *pc; /* children in the tree with Python frames, in uid order */
    tsql_pseudo_plan *out;
    tsql_buf a, b;              /* scratch */
    u32vec ops;                 /* scratch: the ops a MoE rule visits */
} tsql_pseudo_planner;

/* the event's name, "" when it has none */
const char *tsql_pseudo_name(const tsql_trace *t, uint32_t u);

/* 1 when some event of TraceLens's name index carries this name */
int tsql_pseudo_name_present(const tsql_trace *t, const char *name);

/* The value text of args key of u (the expanded args in *scratch), or NULL. */
const char *tsql_pseudo_arg(const tsql_trace *t, uint32_t u, const char *key, tsql_buf *scratch, size_t *len);

/* Appends to b the members TraceLens copies from the shape donor: "Input Dims", "Input
 * type", "Input Strides", "Concrete Inputs" of `donor`, each one it lacks taken from
 * `fallback` (TSQL_NONE: none), comma-separated after *first. 0, or -1 on out of memory. */
int tsql_pseudo_put_shapes(tsql_pseudo_planner *pl, uint32_t donor, uint32_t fallback, int *first);

/* Appends op to the plan with a copy of args (b->p[0 .. b->n)); op.uid is set here.
 * 0, or -1 on out of memory. */
int tsql_pseudo_push(tsql_pseudo_planner *pl, tsql_pseudo_op op, const tsql_buf *args);

/* Which of the flydsl, MLA and V4 rules the trace calls for (a bit set, 0: none; from
 * its names only), or -1 on out of memory (pseudo_wrap.c). */
int tsql_pseudo_wrapping_rules(const tsql_trace *t);

/* Plans those rules, after the MoE ones. 0, or -1 on out of memory. */
int tsql_pseudo_plan_wrapping(tsql_pseudo_planner *pl, int rules);

#endif
