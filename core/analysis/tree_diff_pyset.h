/*
 * tree_diff_pyset.h — the order CPython iterates a set of (i, j) pairs in: the order
 * TraceDiff's same-name disambiguation emits its matches in (docs/diff.md).
 */
#ifndef TSQL_TREE_DIFF_PYSET_H
#define TSQL_TREE_DIFF_PYSET_H

#include <stddef.h>
#include <stdint.h>

/* Reorders pairs[0..n) (distinct (i, j) pairs of non-negative ints, in insertion order)
 * as CPython (>= 3.8) iterates a set they were added to. 0 or -1 on OOM. */
int tsql_diff_py_set_order(int32_t (*pairs)[2], size_t n);

#endif
