/* test_colmem.c — the column allocator (core/store/colmem.c): contents survive every
 * resize across the malloc / own-mapping boundary, calloc zeroes, huge blocks are
 * aligned as promised, shrinking keeps the prefix. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/colmem.h"

static int passed, failed;

#define CHECK(cond)                                                                       \
    do {                                                                                  \
        if (cond) passed++;                                                               \
        else {                                                                            \
            failed++;                                                                     \
            fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, #cond);             \
        }                                                                                 \
    } while (0)

/* 1 if p[0..n) holds the pattern fill() wrote. */
static int holds(const uint32_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != (uint32_t)(i * 2654435761u)) return 0;
    return 1;
}

static void fill(uint32_t *p, size_t from, size_t n)
{
    for (size_t i = from; i < n; i++) p[i] = (uint32_t)(i * 2654435761u);
}

int main(void)
{
    /* grow from a small malloc block to mappings of several sizes, as a column does */
    uint32_t *c = NULL;
    size_t have = 0;
    size_t sizes[] = {10, 4096, 200000, 262144, 300000, 1u << 20, 3u << 20, 5000000, 9000000};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        uint32_t *g = tsql_col_realloc(c, sizes[k] * sizeof *g);
        CHECK(g != NULL);
        if (!g) break;
        c = g;
        CHECK(((uintptr_t)c & 15) == 0); /* aligned for every column type */
        CHECK(holds(c, have));
        fill(c, have, sizes[k]);
        have = sizes[k];
    }
    CHECK(holds(c, have));
    /* shrink within the mapping, then below the mapping threshold: prefix kept */
    uint32_t *s = tsql_col_realloc(c, 3000000 * sizeof *s);
    CHECK(s != NULL);
    if (s) c = s;
    CHECK(holds(c, 3000000));
    s = tsql_col_realloc(c, 1000 * sizeof *s);
    CHECK(s != NULL);
    if (s) c = s;
    CHECK(holds(c, 1000));
    tsql_col_free(c);

    /* calloc reads as zeros, small and large, also after a reuse of freed memory */
    for (int round = 0; round < 2; round++) {
        size_t ns[] = {1, 1000, 1u << 20, 5u << 20};
        for (size_t k = 0; k < 4; k++) {
            unsigned char *z = tsql_col_calloc(ns[k], 1);
            CHECK(z != NULL);
            size_t nz = 0;
            for (size_t i = 0; z && i < ns[k]; i++) nz += z[i] != 0;
            CHECK(nz == 0);
            if (z) memset(z, 0xAB, ns[k]);
            tsql_col_free(z);
        }
    }
    CHECK(tsql_col_calloc(SIZE_MAX / 2, 4) == NULL); /* n * size overflows */
    CHECK(tsql_col_malloc(SIZE_MAX - 8) == NULL); /* its mapping's length overflows */
    CHECK(tsql_col_malloc(SIZE_MAX - 100) == NULL);
    void *r = tsql_col_malloc(10);
    CHECK(r != NULL);
    CHECK(tsql_col_realloc(r, SIZE_MAX - 8) == NULL); /* r kept */
    tsql_col_free(r);
    tsql_col_free(NULL);

    /* a zero-byte block is a block */
    void *e = tsql_col_malloc(0);
    CHECK(e != NULL);
    tsql_col_free(e);

    printf("test_colmem: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
