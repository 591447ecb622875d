/*
 * tree_diff_align.h — Private to core/: TraceDiff's alignment of two sibling lists
 * (tree_diff_align.c).
 */
#ifndef TSQL_TREE_DIFF_ALIGN_H
#define TSQL_TREE_DIFF_ALIGN_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/tree_diff_ctx.h"

/* Wagner-Fischer with TraceLens's backtrack, then the same-name disambiguation: ops
 * over a[0..m) (baseline uids) and b[0..n) (variant uids), names compared in strip mode
 * when strip. */
int td_aligned_wf(ctx *c, const uint32_t *a, size_t m, const uint32_t *b, size_t n, int strip, dopvec *ops);
/* positional pairing when the lengths agree and no dispatch node is among them, else
 * the edit distance and its disambiguation */
int td_align(ctx *c, const uint32_t *a, size_t m, const uint32_t *b, size_t n, dopvec *ops);

#endif
