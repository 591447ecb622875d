/*
 * tree_diff.h — TraceLens's TraceDiff (docs/diff.md): the call trees of two traces, a
 * baseline (TraceLens's trace1) and a variant (trace2), merged into one tree aligned by
 * edit distance over sibling lists, the points where they differ, the lowest common
 * ancestors of the differences, and the diff_stats rows. The result and its lookups are
 * tree_diff_result.h.
 *
 * Both trees are TraceLens's trees without Python frames: CPU nodes it keeps, GPU events
 * under the runtime call that launched them (ac2g / graph links only).
 */
#ifndef TSQL_TREE_DIFF_H
#define TSQL_TREE_DIFF_H

#include <stdint.h>

#include "analysis/tree_diff_result.h"
#include "store/trace.h"

/* Merges the trees of baseline and variant and computes the diff_stats rows. NULL on
 * OOM or when a tree is deeper than the merge supports (*why set to a message). */
tsql_tree_diff *tsql_tree_diff_build(tsql_trace *baseline, tsql_trace *variant, const char **why);

/* The diff of (baseline, variant), built on first call and kept with the baseline trace
 * (a few pairs, the oldest dropped first). variant_key identifies the variant for as
 * long as the baseline lives (a trace_id that is never reused). */
tsql_tree_diff *tsql_tree_diff_get(tsql_trace *baseline, tsql_trace *variant, int64_t variant_key,
                                   const char **why);

#endif
