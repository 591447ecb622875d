/*
 * tree_diff_rename.h — Private to core/: the op names of cpu_op_map.json
 * (tree_diff_rename.c).
 */
#ifndef TSQL_TREE_DIFF_RENAME_H
#define TSQL_TREE_DIFF_RENAME_H

#include "analysis/tree_diff_ctx.h"
#include "analysis/tree_diff_result.h"

/* Sets op_name and op_map_name of d's rows (TraceLens's get_rename_map). 0 or -1. */
int td_rename_ops(ctx *c, tsql_tree_diff *d);

#endif
