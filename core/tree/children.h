/*
 * children.h — the one builder of children lists (CSR) over a parent array.
 *
 * The call tree keeps each node's children as one block: the children of row e are
 * child[child_at[e] .. child_at[e + 1]). The tree build makes them (core/tree/tree.c);
 * the graph-capture merge rebuilds them after
 * splicing (core/load/capture_merge.c); the inference report's pseudo ops rebuild them
 * with lists that go down only (core/analysis/pseudo_ops.c: a launch call listed under
 * its pseudo op while its parent stays) and read the tree with Python frames through
 * them.
 */
#ifndef TSQL_TREE_CHILDREN_H
#define TSQL_TREE_CHILDREN_H

#include <stdint.h>

/* Children lists of rows 0 .. n - 1: each row r with parent[r] != TSQL_NONE is listed
 * under parent[r], in row order, unless skip (NULL: none) has skip[r] set; then, for
 * i = 0 .. nextra - 1 in order, extra_child[i] is listed under extra_parent[i] after
 * that row's other children. *child_at gets n + 2 entries (child_at[n + 1] ==
 * child_at[n], as the tree keeps it) and *child at least one; both are column blocks
 * (tsql_col_free). 0, or -1 on out of memory (nothing allocated, outputs untouched). */
int tsql_children_build(uint32_t n, const uint32_t *parent, const uint8_t *skip, const uint32_t *extra_parent,
                        const uint32_t *extra_child, uint32_t nextra, uint32_t **child_at, uint32_t **child);

#endif
