/* test_strmap.c — tsql_strmap (core/util/strmap.c): put, get, overwrite, keys that
 * differ only by length or an embedded NUL, the empty key, growth past many sizes
 * checked against every key, clear and reuse. */
#include <stdint.h>
#include <stdio.h>

#include "util/strmap.h"
#include "check.h"

int main(void)
{
    tsql_strmap m = {0};
    uint64_t v = 0;
    CHECK_EQ(tsql_strmap_get(&m, "x", 1, &v), 0); /* a zeroed map is empty */

    CHECK_EQ(tsql_strmap_put(&m, "gemm", 4, 100), 0);
    CHECK_EQ(tsql_strmap_get(&m, "gemm", 4, &v), 1);
    CHECK(v == 100);
    CHECK_EQ(tsql_strmap_get(&m, "gem", 3, &v), 0);   /* a prefix is another key */
    CHECK_EQ(tsql_strmap_get(&m, "gemmx", 5, &v), 0);
    CHECK_EQ(tsql_strmap_put(&m, "gemm", 4, 101), 0); /* overwrite */
    CHECK_EQ(m.n, 1);
    CHECK_EQ(tsql_strmap_get(&m, "gemm", 4, &v), 1);
    CHECK(v == 101);

    /* bytes after a NUL count; the empty key is a key */
    CHECK_EQ(tsql_strmap_put(&m, "a\0b", 3, 100), 0);
    CHECK_EQ(tsql_strmap_put(&m, "a\0c", 3, 102), 0);
    CHECK_EQ(tsql_strmap_put(&m, "", 0, 101), 0);
    CHECK_EQ(tsql_strmap_get(&m, "a\0b", 3, &v), 1);
    CHECK(v == 100);
    CHECK_EQ(tsql_strmap_get(&m, "a\0c", 3, &v), 1);
    CHECK(v == 102);
    CHECK_EQ(tsql_strmap_get(&m, "a", 1, &v), 0);
    CHECK_EQ(tsql_strmap_get(&m, "", 0, &v), 1);
    CHECK(v == 101);
    CHECK_EQ(m.n, 4);
    CHECK_EQ(m.bytes, 4 + 3 + 3 + 0);

    /* growth: 20000 keys, each found with its own value after every doubling */
    enum { N = 20000 };
    char k[32];
    int bad = 0;
    for (int i = 0; i < N; i++) {
        int n = snprintf(k, sizeof k, "kernel_%d", i);
        if (tsql_strmap_put(&m, k, (size_t)n, (uint64_t)i * 3) != 0) bad++;
    }
    CHECK_EQ(bad, 0);
    CHECK_EQ(m.n, N + 4);
    CHECK(m.nslots >= 2 * m.n && (m.nslots & (m.nslots - 1)) == 0);
    for (int i = 0; i < N; i++) {
        int n = snprintf(k, sizeof k, "kernel_%d", i);
        if (!tsql_strmap_get(&m, k, (size_t)n, &v) || v != (uint64_t)i * 3) bad++;
    }
    CHECK_EQ(bad, 0);
    CHECK_EQ(tsql_strmap_get(&m, "kernel_20000", 12, &v), 0);

    /* clear keeps the slots and forgets every key; the map is usable again */
    size_t slots = m.nslots;
    tsql_strmap_clear(&m);
    CHECK_EQ(m.n, 0);
    CHECK_EQ(m.bytes, 0);
    CHECK_EQ(m.nslots, slots);
    CHECK_EQ(tsql_strmap_get(&m, "gemm", 4, &v), 0);
    CHECK_EQ(tsql_strmap_put(&m, "gemm", 4, 102), 0);
    CHECK_EQ(tsql_strmap_get(&m, "gemm", 4, &v), 1);
    CHECK(v == 102);
    tsql_strmap_free(&m);
    CHECK(m.slots == NULL && m.nslots == 0 && m.n == 0);
    return check_report("strmap");
}
