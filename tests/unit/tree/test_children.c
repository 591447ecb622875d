/* test_children.c — core/tree/children.c: children lists in row order, rows left out of
 * their parent's list, extra children after the others, the tree's n + 2 convention. */
#include <stdint.h>

#include "check.h"
#include "store/colmem.h"
#include "store/trace.h"
#include "tree/children.h"

static void list_is(const uint32_t *at, const uint32_t *ch, uint32_t u, const uint32_t *want, uint32_t n)
{
    CHECK_EQ(at[u + 1] - at[u], n);
    for (uint32_t i = 0; i < n && at[u] + i < at[u + 1]; i++) CHECK_EQ(ch[at[u] + i], want[i]);
}

int main(void)
{
    /*      0          5
     *    / | \        |
     *   1  2  4       6
     *      |
     *      3                                                                          */
    const uint32_t N = TSQL_NONE;
    const uint32_t parent[7] = {N, 0, 0, 2, 0, N, 5};
    uint32_t *at = NULL, *ch = NULL;
    CHECK_EQ(tsql_children_build(7, parent, NULL, NULL, NULL, 0, &at, &ch), 0);
    if (!at) return check_report("test_children");
    list_is(at, ch, 0, (const uint32_t[]){1, 2, 4}, 3);
    list_is(at, ch, 2, (const uint32_t[]){3}, 1);
    list_is(at, ch, 5, (const uint32_t[]){6}, 1);
    list_is(at, ch, 3, NULL, 0);
    CHECK_EQ(at[0], 0);
    CHECK_EQ(at[7], 5);
    CHECK_EQ(at[8], 5); /* n + 2 entries, the last equal to the one before */
    tsql_col_free(at);
    tsql_col_free(ch);

    /* 2 left out of 0's list and listed under 6 after 6's own children; 3 stays below 2 */
    const uint8_t skip[7] = {0, 0, 1, 0, 0, 0, 0};
    const uint32_t xp[2] = {6, 0}, xc[2] = {2, 5};
    CHECK_EQ(tsql_children_build(7, parent, skip, xp, xc, 2, &at, &ch), 0);
    if (!at) return check_report("test_children");
    list_is(at, ch, 0, (const uint32_t[]){1, 4, 5}, 3);
    list_is(at, ch, 6, (const uint32_t[]){2}, 1);
    list_is(at, ch, 2, (const uint32_t[]){3}, 1);
    list_is(at, ch, 5, (const uint32_t[]){6}, 1);
    CHECK_EQ(at[8], 6);
    tsql_col_free(at);
    tsql_col_free(ch);

    /* no rows: one empty list block */
    CHECK_EQ(tsql_children_build(0, parent, NULL, NULL, NULL, 0, &at, &ch), 0);
    CHECK(at != NULL && ch != NULL);
    if (at) CHECK_EQ(at[0] + at[1], 0);
    tsql_col_free(at);
    tsql_col_free(ch);
    return check_report("test_children");
}
