/*
 * tree_diff_stats.h — Private to core/: TraceDiff's diff_stats rows (tree_diff_stats.c).
 */
#ifndef TSQL_TREE_DIFF_STATS_H
#define TSQL_TREE_DIFF_STATS_H

#include "analysis/tree_diff_ctx.h"
#include "analysis/tree_diff_result.h"
#include "util/vec.h"

TSQL_VEC(rowvec, tsql_diff_row, 256)

/* The diff_stats rows of the merged tree d, appended to rows; marks d->is_lca. 0 or -1. */
int td_diff_stats(ctx *c, tsql_tree_diff *d, rowvec *rows);
/* the trace1 rows equal the trace2 rows, column by column (DataFrame.equals) */
int td_rows_identical(ctx *c, const tsql_tree_diff *d);

#endif
