/*
 * tree_diff_text.h — TraceDiff's merged tree as text, the way TraceLens writes
 * merged_tree_output.txt (docs/diff.md, "tree_diff_text()"). The SQL face is
 * tree_diff_text(trace1, trace2 [, uid]).
 */
#ifndef TSQL_TREE_DIFF_TEXT_H
#define TSQL_TREE_DIFF_TEXT_H

#include <stdint.h>

#include "analysis/tree_diff_result.h"
#include "util/buf.h"

/* TraceLens's merged_tree_output.txt (root = TSQL_NONE: every root; else that merged
 * node's subtree as print_merged_subtree prints it), appended to out. 0 or -1 on OOM. */
int tsql_tree_diff_text(const tsql_tree_diff *d, uint32_t root, int prune_non_gpu, tsql_buf *out);

#endif
