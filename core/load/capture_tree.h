/*
 * capture_tree.h — a capture trace's tree as TraceLens's graph-capture merge sees it:
 * Python frames nested with the ops by time, and the capture roots (docs/inference.md
 * "Merging the capture traces"). Shared by the plan (capture_plan.c: which capture
 * windows there are) and the splice (capture_merge.c: what each copies).
 */
#ifndef TSQL_CAPTURE_TREE_H
#define TSQL_CAPTURE_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "store/trace.h"

/* The capture roots of a loaded capture trace c (one per StreamBeginCapture /
 * StreamEndCapture pair, paired in file order): the events each would copy, in the
 * order they take UIDs (TSQL_NONE first: the synthetic CaptureRoot event), and its launch
 * calls ("dispatches"). */
typedef struct tsql_capture_root {
    double start, end;        /* the window: end of the begin call .. start of the end call */
    uint32_t *events;         /* [0] = TSQL_NONE (CaptureRoot), then capture uids */
    size_t nevents;
    size_t ntop;              /* of them, the window roots (ops and frames whose parent lies outside) */
    uint32_t *dispatch;       /* capture uids, in events order */
    size_t ndispatch;
} tsql_capture_root;

typedef struct tsql_capture_tree {
    uint32_t *parent;         /* TraceLens's parent with Python frames nested by time, or TSQL_NONE */
    tsql_capture_root *roots;
    size_t nroots;
} tsql_capture_tree;

/* Builds c's capture tree and roots. 0, or -1 on out of memory. */
int tsql_capture_tree_build(const tsql_trace *c, tsql_capture_tree *out);
void tsql_capture_tree_free(tsql_capture_tree *ct);

#endif
