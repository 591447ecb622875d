/*
 * compare_events.h — every GPU event of one trace with the operation, phase, layer and
 * forward pass the cross-platform comparison groups it by (docs/compare.md), computed
 * in one sweep per question over the time-sorted events, and the events summed into
 * groups of (operation, phase, layer, kernel name, CPU op) for compare_ops and
 * compare_layers.
 *
 * Rows are the rows of t->kernels (kernels, memcpy, memset; uid order). For each:
 *
 *   op       tsql_kop_classify(name, cpu_op) as an index into tsql_kop_labels;
 *            TSQL_CMP_NO_OP when the event has no name
 *   cpu_op   the innermost cpu_op enclosing the launch (kernels.op)
 *   t_probe  ts of the launching runtime call, else the event's own ts (µs doubles):
 *            where the CPU-side markers are looked up; NaN when neither has a ts
 *   phase    1. markers: the phase of the latest-started phase marker at or before
 *               t_probe, if t_probe < its end: a user_annotation named (ASCII case
 *               ignored) step[EXTEND|PREFILL… (prefill), step[DECODE… (decode),
 *               step[MIXED… (mixed), or execute…_context_<m>…_generation_<k>… (m > 0
 *               only: prefill, k > 0 only: decode, both: mixed; m and k read as SQL's
 *               CAST reads an integer);
 *            2. shapes: the query lengths of the attention calls of its forward pass
 *               (Input Dims of the outermost attention op of a known layout above each
 *               Attention launch): all > 1 prefill, all 1 decode, both mixed; a
 *               variable-length call by its token and sequence counts; none for a pass
 *               with backward work;
 *            3. kernel names: an Attention kernel whose name holds "decode" (else
 *               "prefill"), else the phases such kernels give its ProfilerStep (several:
 *               mixed);
 *            else none. phase_src says which rule gave it.
 *   step     ordinal (1, 2, …, by ts then uid) of the latest-started ProfilerStep#
 *            annotation at or before t_probe, if t_probe < its end; 0 if none
 *   pass     the forward pass: with Python stacks, the latest run of the top module
 *            (the class of the outermost nn.Module around the Attention launches)
 *            started at or before t_probe (the first before it); without a top module,
 *            the run of pattern layers it follows (the first before it), or for the
 *            repeated-block rule below the block's parent
 *   layer    with a top module: the block instance on the launch's thread (pid and tid
 *            equal as SQL values: threads.h) around t_probe, numbered along its pass.
 *            Block classes repeat (>= 2 instances in a pass), hold attention, and are
 *            not containers (an instance directly holding >= 2 instances of another
 *            such class); the instances of them no other one encloses are the layers.
 *            Modules nest by time on their thread. Without a top module (no attention
 *            in a module): the class repeated under one parent module (the nearest
 *            nn.Module among the first 8 ancestors) with the most CPU time, numbered
 *            within the parent. Without a block class: from kernel patterns over the
 *            forward (not backward) events in GPU order (ts, uid), per top-module pass
 *            or over the whole trace: norm kernels (RMSNorm, LayerNorm, their +GEMM
 *            fusions, an unfused norm's rsqrt from its pow) and Attention kernels are
 *            marks; a layer starts at the norm next to an Attention (or the norms
 *            before it the first layer shows), and a run of layers ends at its final
 *            norm (segment_flags in compare_events.c)
 *
 * A NULL ts sorts before every other (as in SQL). No SQLite here; ext/func/compare.c
 * serves the rows as the compare_events / compare_event_groups tables.
 */
#ifndef TSQL_COMPARE_EVENTS_H
#define TSQL_COMPARE_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/kernel_op.h"
#include "store/trace.h"

#define TSQL_CMP_NO_OP 255    /* op of an event without a name */
#define TSQL_CMP_NO_LAYER (-1)
#define TSQL_CMP_NO_PASS UINT32_MAX

enum tsql_cmp_phase { TSQL_PHASE_NONE = 0, TSQL_PHASE_PREFILL, TSQL_PHASE_DECODE, TSQL_PHASE_MIXED };
/* "prefill", "decode", "mixed"; NULL for TSQL_PHASE_NONE */
extern const char *const tsql_cmp_phase_names[4];

/* how an event's phase was found: a phase marker, the attention query length of its
 * forward pass, the name of an Attention kernel (its own or its profiler step's) */
enum tsql_cmp_phase_src { TSQL_PSRC_NONE = 0, TSQL_PSRC_MARKERS, TSQL_PSRC_SHAPES, TSQL_PSRC_KERNEL_NAMES };
/* "markers", "shapes", "kernel names"; NULL for TSQL_PSRC_NONE */
extern const char *const tsql_cmp_phase_src_names[4];

/* GPU events of one (op, phase, layer, name, cpu_op): durations summed exactly in ns,
 * so that any regrouping of groups gives the same totals */
typedef struct tsql_cmp_group {
    uint32_t name, cpu_op; /* string ids, 0 = none */
    uint8_t op, phase;
    uint8_t phase_src;     /* enum tsql_cmp_phase_src */
    int32_t layer;
    uint32_t n;            /* GPU events */
    uint32_t ndur;         /* of them with a duration */
    int64_t dur_ns;        /* Σ dur of those */
} tsql_cmp_group;

/* GPU events of one (phase, forward pass) */
typedef struct tsql_cmp_pass {
    uint8_t phase;
    uint32_t pass;
    uint32_t n;
} tsql_cmp_pass;

typedef struct tsql_cmp_events {
    uint32_t n;            /* = t->kernels.n */
    uint8_t *op, *phase;
    uint8_t *phase_src;    /* enum tsql_cmp_phase_src */
    uint32_t *cpu_op;      /* string id of the CPU op's name, 0 = none */
    double *t_probe;
    uint32_t *step;        /* 0 = none */
    int32_t *layer;        /* TSQL_CMP_NO_LAYER = none */
    uint32_t *pass;        /* TSQL_CMP_NO_PASS = none */
    int module_layers;     /* 1: layers from nn.Module blocks, 0: from kernel patterns */
    tsql_cmp_group *groups; /* by first occurrence in uid order */
    size_t ngroups;
    tsql_cmp_pass *passes;  /* events with a pass, per (phase, pass) */
    size_t npasses;
    uint32_t *layer_order;  /* the rows with a layer, by (pass, layer, ts, uid): built by
                               the first tsql_cmp_kernel_groups, NULL before */
    uint32_t nlayer_order;
} tsql_cmp_events;

/* The kernel pairs of compare_kernels, for one side: the events with a layer (and the
 * phase, when phase >= 0) numbered in GPU order (ts, uid) within their (pass, layer) —
 * pos — and within their (pass, layer, operation) — k — then grouped by (layer, op, k,
 * kernel name) over the passes. Events without an operation take a position but are
 * in no group. */
typedef struct tsql_cmp_kernel_group {
    int32_t layer;
    uint8_t op;
    uint32_t k;            /* 1 = the operation's first kernel in the layer */
    uint32_t name;         /* string id */
    uint32_t n, ndur;
    int64_t dur_ns;
    uint32_t pos;          /* the smallest position in the layer (1 = first) */
} tsql_cmp_kernel_group;

/* *out (malloc'd, *nout groups, by first occurrence). 0, or -1 on OOM. */
int tsql_cmp_kernel_groups(const tsql_trace *t, tsql_cmp_events *e, int phase, tsql_cmp_kernel_group **out,
                           size_t *nout);

/* Computes the rows of t with rules (whose memo it fills). 0, or -1 on OOM. */
int tsql_cmp_events_build(const tsql_trace *t, tsql_kop_rules *rules, tsql_cmp_events *out);
void tsql_cmp_events_free(tsql_cmp_events *e);

#endif
