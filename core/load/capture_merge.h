/*
 * capture_merge.h — the graph-capture merge (docs/inference.md "Merging the capture
 * traces"): the CPU subtree a capture trace recorded while a CUDA/HIP graph was captured
 * is copied under each graph launch of the replay trace that replays it, and every
 * replayed kernel is re-parented under the capture-time launch call it pairs with.
 *
 * The plan (which capture a launch takes, how the kernels pair) is capture_plan.h's, the
 * capture trees and their roots capture_tree.h's; this file splices them into a loaded
 * replay trace.
 */
#ifndef TSQL_CAPTURE_MERGE_H
#define TSQL_CAPTURE_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include "input/reader.h"
#include "load/capture_tree.h"
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

/* Merges the capture folder into t, a replay trace loaded for this purpose (no one else
 * reads it): reads folder/execution_details.json (or classifies the folder's traces),
 * plans every graph launch (capture_plan.h), and when TraceLens's merge would not give
 * up as a whole, appends the copies and re-links the kernels; launches it cannot merge
 * stay as they are, each with a warning in t. When the whole merge fails t is left as
 * loaded (info->why says why). The capture traces load with opts (NULL: defaults; its
 * progress callback may interrupt). Returns 0, or -1 with err set (folder or manifest
 * unreadable, a capture trace that does not load, out of memory, the memory ceiling). */
int tsql_capture_merge(tsql_trace *t, const char *folder, const tsql_load_opts *opts, tsql_capture_merge_info *info,
                       tsql_error *err);

/* The capture folder t was merged with, or NULL when t is not a merged trace. */
const char *tsql_capture_merged_folder(const tsql_trace *t);

#endif
