/*
 * capture_merge.h — the graph-capture merge (docs/inference.md "Merging the capture
 * traces"): the CPU subtree a capture trace recorded while a CUDA/HIP graph was captured
 * is copied under each graph launch of the replay trace that replays it, and every
 * replayed kernel is re-parented under the capture-time launch call it pairs with.
 *
 * The plan (which capture a launch takes, how the kernels pair) is capture_plan.h's; this
 * file adds the capture trees (TraceLens nests Python frames with the ops by time there),
 * their capture roots, and the splice into a loaded replay trace.
 */
#ifndef TSQL_CAPTURE_MERGE_H
#define TSQL_CAPTURE_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include "store/trace.h"

/* What a merge did. */
typedef struct tsql_capture_merge_info {
    int merged;               /* 1: the trace now holds the copies; 0: it is the replay alone */
    const char *why;          /* when merged is 0: why (static text) */
    size_t launches;          /* graph launches of the replay's engine steps */
    size_t spliced;           /* of them, given a copy of their capture */
    size_t kernels;           /* replayed GPU events re-parented */
    size_t rows;              /* rows appended (copied events) */
} tsql_capture_merge_info;

/* The capture roots of a loaded capture trace c (one per StreamBeginCapture /
 * StreamEndCapture pair, paired in file order): the events each would copy, in the
 * order they take UIDs (TSQL_NONE first: the synthetic CaptureRoot event), and its launch
 * calls ("dispatches"). */
typedef struct tsql_capture_root {
    double start, end;        /* the window: end of the begin call .. start of the end call */
    uint32_t *events;         /* [0] = TSQL_NONE (CaptureRoot), then capture uids */
    size_t nevents;
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

/* Merges the capture folder into t, a replay trace loaded for this purpose (no one else
 * reads it): reads folder/execution_details.json (or classifies the folder's traces),
 * plans every graph launch (capture_plan.h), and when TraceLens's merge would not give
 * up as a whole, appends the copies and re-links the kernels; launches it cannot merge
 * stay as they are, each with a warning in t. When the whole merge fails t is left as
 * loaded (info->why says why). Returns 0, or -1 with err set (folder or manifest
 * unreadable, a capture trace that does not load, out of memory, the memory ceiling). */
int tsql_capture_merge(tsql_trace *t, const char *folder, tsql_capture_merge_info *info, tsql_error *err);

/* The capture folder t was merged with, or NULL when t is not a merged trace. */
const char *tsql_capture_merged_folder(const tsql_trace *t);

#endif
