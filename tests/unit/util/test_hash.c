/* test_hash.c — util/hash.h: the values the tables' layouts depend on, fixed here so a
 * change of seed or mix cannot pass unnoticed (expected values computed independently
 * with Python's integers). */
#include <string.h>

#include "check.h"
#include "util/hash.h"

int main(void)
{
    CHECK(tsql_fnv1a("", 0) == TSQL_FNV_SEED);
    CHECK(tsql_fnv1a("", 0) == 1469598103934665603ull);
    CHECK(tsql_fnv1a("a", 1) == 4953267810257967366ull);
    CHECK(tsql_fnv1a("aten::mm", 8) == 6086547240194936031ull);
    /* extending a hash is hashing the concatenation */
    CHECK(tsql_fnv1a_add(tsql_fnv1a("aten:", 5), ":mm", 3) == tsql_fnv1a("aten::mm", 8));
    CHECK(tsql_u64_hash(0) == 0);
    CHECK(tsql_u64_hash(1) == 885181228u);
    CHECK(tsql_u64_hash(12345) == 4178292473u);
    /* the interner's hash: equal bytes, equal hash; the length takes part */
    CHECK(tsql_hash_bytes("kernel_a", 8) == tsql_hash_bytes("kernel_a", 8));
    CHECK(tsql_hash_bytes("kernel_a", 8) != tsql_hash_bytes("kernel_b", 8));
    CHECK(tsql_hash_bytes("ab\0", 3) != tsql_hash_bytes("ab", 2));
    return check_report("test_hash");
}
