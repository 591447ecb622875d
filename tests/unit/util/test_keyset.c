/* test_keyset.c — tsql_keyset (core/util/keyset.c): dense indexes in first-added order,
 * keys that differ in one byte of one word, the key array read back, growth past many
 * sizes checked against every key, another key size, free and reuse. */
#include <stdint.h>
#include <stdio.h>

#include "util/keyset.h"
#include "check.h"

typedef struct {
    uint32_t w[4];
} quad;

int main(void)
{
    tsql_keyset s;
    tsql_keyset_init(&s, sizeof(quad));
    int added = -1;
    quad a = {{1, 2, 3, 4}}, b = {{1, 2, 3, 5}}, c = {{0x01000000, 2, 3, 4}};
    CHECK_EQ(tsql_keyset_add(&s, &a, &added), 0);
    CHECK_EQ(added, 1);
    CHECK_EQ(tsql_keyset_add(&s, &b, &added), 1); /* the last word differs */
    CHECK_EQ(added, 1);
    CHECK_EQ(tsql_keyset_add(&s, &c, &added), 2); /* the top byte of the first word differs */
    CHECK_EQ(added, 1);
    CHECK_EQ(tsql_keyset_add(&s, &a, &added), 0); /* found again, not added */
    CHECK_EQ(added, 0);
    CHECK_EQ(tsql_keyset_add(&s, &c, &added), 2);
    CHECK_EQ(added, 0);
    CHECK_EQ(s.n, 3);
    const quad *k1 = tsql_keyset_key(&s, 1);
    CHECK_EQ(k1->w[3], 5);

    /* growth: 50000 keys get 3, 4, ... in order; each found at its index afterwards */
    for (uint32_t i = 0; i < 50000; i++) {
        quad q = {{i, i * 7u, 0, 9}};
        CHECK_EQ(tsql_keyset_add(&s, &q, &added), 3 + i);
        if (!added) break;
    }
    CHECK_EQ(s.n, 50003);
    int all = 1;
    for (uint32_t i = 0; i < 50000; i++) {
        quad q = {{i, i * 7u, 0, 9}};
        size_t x = tsql_keyset_add(&s, &q, &added);
        const quad *back = tsql_keyset_key(&s, x);
        if (x != 3 + i || added || back->w[1] != i * 7u) all = 0;
    }
    CHECK(all);
    CHECK_EQ(tsql_keyset_add(&s, &b, &added), 1);
    CHECK_EQ(s.n, 50003);

    /* free leaves an empty set of the same key size, ready for reuse */
    tsql_keyset_free(&s);
    CHECK_EQ(s.n, 0);
    CHECK_EQ(s.key_size, sizeof(quad));
    CHECK_EQ(tsql_keyset_add(&s, &b, &added), 0);
    CHECK_EQ(added, 1);
    tsql_keyset_free(&s);

    /* an odd key size (3 bytes) */
    tsql_keyset t;
    tsql_keyset_init(&t, 3);
    CHECK_EQ(tsql_keyset_add(&t, "abc", &added), 0);
    CHECK_EQ(tsql_keyset_add(&t, "abd", &added), 1);
    CHECK_EQ(tsql_keyset_add(&t, "abc", &added), 0);
    CHECK_EQ(added, 0);
    CHECK_EQ(t.n, 2);
    tsql_keyset_free(&t);
    return check_report("keyset");
}
