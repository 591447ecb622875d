/*
 * capture_plan.h — the first steps of merging CUDA/HIP-graph capture traces into a
 * graph-replay serving trace (docs/inference.md): which batch size and mode a capture
 * trace records, which iteration annotations of the replay trace are engine steps and
 * which graph launches each holds, and which capture a step's launches take. The
 * splice itself (copying the captured CPU subtree under each launch) builds on these.
 *
 * Rules are TraceLens's (its graph-capture merge), e.g. a step of 20 tokens takes the
 * smallest captured batch size >= 20.
 */
#ifndef TSQL_CAPTURE_PLAN_H
#define TSQL_CAPTURE_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "store/trace.h"

/* What a capture trace recorded. */
typedef struct tsql_capture_class {
    int has_batch;            /* batch_size is known */
    int64_t batch_size;
    char mode[64];            /* "FULL", "PIECEWISE", or the annotation's text */
    int from_annotation;      /* read from capture_<bs>_<mode> annotations */
} tsql_capture_class;

/* Classifies a loaded capture trace: capture_<bs>_<mode> user annotations when there
 * are as many as vLLM dummy runs; otherwise FULL when at most one StreamBeginCapture
 * call was recorded (else PIECEWISE), and the batch size is the most frequent first
 * size of the cpu_ops' inputs (ties: first seen). Returns 0, -1 on out of memory. */
int tsql_capture_classify(const tsql_trace *t, tsql_capture_class *out);

/* An engine step of the replay trace and the graph launches inside it. */
typedef struct tsql_exec_root {
    uint32_t uid;             /* the user annotation */
    int has_batch;
    int64_t batch_size;       /* tokens of the step */
    uint32_t *graphs;         /* graph launches inside it, by ts */
    size_t ngraphs;
} tsql_exec_root;

/* The steps of a replay trace: user annotations named like an iteration annotation
 * (detailed ones when any exists, else native ones), by ts. *out is malloc'd (free with
 * tsql_exec_roots_free). Returns 0, -1 on out of memory. */
int tsql_exec_roots(const tsql_trace *t, tsql_exec_root **out, size_t *n);
void tsql_exec_roots_free(tsql_exec_root *r, size_t n);

/* One entry of a capture folder's manifest (execution_details.json). */
typedef struct tsql_capture_entry {
    int64_t batch_size;
    const char *mode;         /* only "FULL" and "PIECEWISE" entries are usable */
    int file_exists;
} tsql_capture_entry;

/* The entry a step of batch_size tokens with ngraphs graph launches takes: the smallest
 * recorded batch size >= batch_size (recorded even when its file is missing); then
 * PIECEWISE when both modes exist and the step has other than one launch, else FULL,
 * else whichever exists (the last entry of that key). -1 when none: *why says why. */
long tsql_capture_select(const tsql_capture_entry *e, size_t n, int64_t batch_size, size_t ngraphs,
                         const char **why);

/* One capture window of a capture trace: the span between a StreamBeginCapture call
 * (its end) and the matching StreamEndCapture call (its start), the calls paired in file
 * order, with its capture root's launch calls ("dispatches": runtime / driver calls named
 * *launch*, *memcpy* or *memset*) in the order the merge copies them (capture_tree.h,
 * which finds them). */
typedef struct tsql_capture_window {
    double start, end;
    size_t nroots;
    uint32_t *dispatch;
    size_t ndispatch;
} tsql_capture_window;

int tsql_capture_windows(const tsql_trace *c, tsql_capture_window **out, size_t *n);
void tsql_capture_windows_free(tsql_capture_window *w, size_t n);

/* The replayed GPU events (kernels, memcpy, memset) of every graph launch of the replay
 * trace, grouped by launch and by ts within one: built once (one sort), then each
 * launch's events are found by binary search. */
typedef struct tsql_graph_kernels {
    uint32_t *launch;         /* sorted */
    uint32_t *gpu;            /* gpu[i] is launched by launch[i] */
    size_t n;
} tsql_graph_kernels;

int tsql_graph_kernels_build(const tsql_trace *t, tsql_graph_kernels *out);
void tsql_graph_kernels_free(tsql_graph_kernels *g);
/* the events of one launch: a range of g->gpu (by ts); *n = 0 when none */
const uint32_t *tsql_graph_kernels_of(const tsql_graph_kernels *g, uint32_t launch, size_t *n);

/* How the dispatches of a capture window pair with the replayed kernels of a launch. */
typedef struct tsql_capture_pairs {
    int code;                 /* 1 positional, 2 greedy (counts differ), 3 reordered by name,
                                 4 per stream; 0 when the launch cannot be merged */
    int fails_merge;          /* the whole merge fails (several streams, a dispatch without
                                 its kernel name) */
    const char *why;          /* reason when code is 0 */
    uint32_t *kernel;         /* replayed GPU events (replay uids) ... */
    uint32_t *dispatch;       /* ... and their capture dispatches (capture uids) */
    size_t n;
} tsql_capture_pairs;

/* Aligns dispatches d[0..nd) of capture trace c with the replayed GPU events g[0..ng)
 * (by ts) of trace t. Returns 0 (see out->code), -1 on out of memory. */
int tsql_capture_align(const tsql_trace *t, const uint32_t *g, size_t ng, const tsql_trace *c, const uint32_t *d,
                       size_t nd, tsql_capture_pairs *out);
void tsql_capture_pairs_free(tsql_capture_pairs *p);

/* ---- the whole plan of a replay trace and a capture folder ---- */

/* One graph launch of an engine step and what the merge would do with it. */
typedef struct tsql_capture_launch {
    uint32_t step;            /* the step's annotation (replay uid) */
    uint32_t graph;           /* the graph launch (replay uid), TSQL_NONE when the step has none */
    int has_batch;
    int64_t batch_size;       /* tokens of the step */
    long entry;               /* manifest entry taken, -1 if none */
    int code;                 /* tsql_capture_pairs.code; 0 = not merged */
    const char *why;          /* reason when not merged (static text) */
    size_t nkernels;          /* replayed GPU events paired */
} tsql_capture_launch;

typedef struct tsql_capture_plan {
    tsql_capture_launch *launch;
    size_t n;
    int fails_merge;          /* TraceLens's merge returns nothing: the report is the replay's */
    const char *fails_why;
    /* the manifest: execution_details.json, or the capture files classified */
    char **file;              /* absolute-or-given path of each entry */
    int64_t *batch_size;
    char **mode;
    size_t nentries;
} tsql_capture_plan;

/* Plans the merge of the capture folder into replay: reads folder/execution_details.json
 * (or, when it is absent, classifies the folder's .json / .json.gz files, sorted by name,
 * without writing anything), then for every engine step picks a capture, pairs its
 * windows with the step's graph launches (one window: every launch; else one per launch
 * in order, equal counts needed) and aligns the kernels. Returns 0, or -1 with err set
 * (folder unreadable, manifest malformed, a capture file that does not load, out of
 * memory). */
int tsql_capture_plan_make(const tsql_trace *replay, const char *folder, tsql_capture_plan *out, tsql_error *err);
void tsql_capture_plan_free(tsql_capture_plan *p);

/* Only the manifest part of the plan (file, batch_size, mode, nentries; no launches):
 * folder/execution_details.json, or the folder's traces classified. 0, or -1 with err
 * set (free with tsql_capture_plan_free either way). */
int tsql_capture_manifest(const char *folder, tsql_capture_plan *p, tsql_error *err);

/* 1 when path is a regular file (a capture file the merge may read), else 0. */
int tsql_capture_regular_file(const char *path);

#endif
