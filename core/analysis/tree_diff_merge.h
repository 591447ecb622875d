/*
 * tree_diff_merge.h — Private to core/: TraceDiff's merged tree (tree_diff_merge.c).
 */
#ifndef TSQL_TREE_DIFF_MERGE_H
#define TSQL_TREE_DIFF_MERGE_H

#include "analysis/tree_diff_ctx.h"
#include "analysis/tree_diff_result.h"

/* The merged tree of both sides into d (nodes, children, roots, d->uidmap). 0 or -1. */
int td_merge_all(ctx *c, tsql_tree_diff *d);

#endif
