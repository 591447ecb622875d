/*
 * children.c — children lists (CSR) from a parent array (children.h).
 */
#include "tree/children.h"

#include <stdlib.h>
#include <string.h>

#include "store/colmem.h"
#include "store/trace.h"

int tsql_children_build(uint32_t n, const uint32_t *parent, const uint8_t *skip, const uint32_t *extra_parent,
                        const uint32_t *extra_child, uint32_t nextra, uint32_t **child_at, uint32_t **child)
{
    /* counts go to at[p + 2] so that, after the running sum, at[p + 1] is where p's
     * list starts: the fill below advances it to where p's list ends, which is at[p + 1]
     * of the final lists */
    uint32_t *at = tsql_col_calloc((size_t)n + 2, sizeof *at);
    if (!at) return -1;
    for (uint32_t r = 0; r < n; r++)
        if (parent[r] != TSQL_NONE && !(skip && skip[r])) at[parent[r] + 2]++;
    for (uint32_t i = 0; i < nextra; i++) at[extra_parent[i] + 2]++;
    for (uint32_t p = 2; p < n + 2; p++) at[p] += at[p - 1];
    uint32_t m = at[n + 1];
    uint32_t *ch = tsql_col_malloc((size_t)(m ? m : 1) * sizeof *ch);
    if (!ch) {
        tsql_col_free(at);
        return -1;
    }
    /* each list: its rows in row order, then its extra children in pair order */
    for (uint32_t r = 0; r < n; r++)
        if (parent[r] != TSQL_NONE && !(skip && skip[r])) ch[at[parent[r] + 1]++] = r;
    for (uint32_t i = 0; i < nextra; i++) ch[at[extra_parent[i] + 1]++] = extra_child[i];
    at[n + 1] = at[n];
    *child_at = at;
    *child = ch;
    return 0;
}
