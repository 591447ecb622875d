/* test_vec.c — core/util/vec.h and u32vec.h: growth by doubling from a first capacity,
 * values kept across reallocations. */
#include <stdint.h>

#include "util/u32vec.h"
#include "util/vec.h"
#include "check.h"

int main(void)
{
    dvec d = {0};
    int ok = 1;
    for (int i = 0; i < 1000; i++) ok &= dvec_push(&d, i * 0.5) == 0;
    CHECK(ok);
    CHECK_EQ(d.n, 1000);
    CHECK_EQ(d.cap, 1024); /* 16, 32, ..., 1024 */
    ok = 1;
    for (int i = 0; i < 1000; i++) ok &= d.v[i] == i * 0.5;
    CHECK(ok);
    free(d.v);

    u32vec u = {0};
    for (uint32_t i = 0; i < 257; i++) ok &= u32vec_push(&u, 7 * i) == 0;
    CHECK(ok);
    CHECK_EQ(u.cap, 512); /* 256, then 512 */
    CHECK_EQ(u.v[256], 7 * 256);
    free(u.v);

    /* a capacity that cannot double is refused and leaves the array as it was */
    size_t cap = SIZE_MAX / 2 + 1;
    char *c = malloc(1);
    CHECK(c && tsql_grow(c, &cap, 1, 16) == NULL);
    CHECK(cap == SIZE_MAX / 2 + 1);
    free(c);
    cap = 0;
    void *p = tsql_grow(NULL, &cap, sizeof(double), 16);
    CHECK(p != NULL && cap == 16);
    free(p);
    return check_report("test_vec");
}
