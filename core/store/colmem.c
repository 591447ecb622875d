/* colmem.c — large arrays on huge pages; see colmem.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* mremap */
#endif
#include "store/colmem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

/* Every block starts with this header (64 bytes: the data of a mapping stays
 * cache-line aligned, of a malloc block as aligned as malloc's). */
typedef struct col_hdr {
    size_t map;   /* length of the block's own mapping, 0 = a malloc block */
    size_t bytes; /* bytes asked for */
    char pad[48];
} col_hdr;

#define HDR sizeof(col_hdr)
#define HUGE ((size_t)2 << 20)
/* From this size on a block gets its own mapping. Its last 2 MiB page is partly used,
 * so a block holds up to 4 times its bytes at this size, less as it grows. Measured on
 * a 1.1 GB trace (CPU time of the load, busy machine): 1 MiB and 256 KiB cost 5-10 %
 * more than 512 KiB, 4 MiB 25 % more, no huge pages 50 % more. */
#define HUGE_MIN ((size_t)512 << 10)

static col_hdr *hdr_of(void *p)
{
    return (col_hdr *)((char *)p - HDR);
}

#if defined(__linux__) && defined(MADV_HUGEPAGE) && defined(MREMAP_FIXED)
#define COL_MAPPED 1

/* Length of the mapping for bytes: whole 2 MiB pages; 0 when it would overflow. */
static size_t map_len(size_t bytes)
{
    if (bytes > SIZE_MAX - HDR - HUGE) return 0;
    return (bytes + HDR + HUGE - 1) & ~(HUGE - 1);
}

/* A fresh mapping of len bytes (a multiple of HUGE) at a HUGE-aligned address, marked
 * for huge pages; NULL on failure. */
static char *map_aligned(size_t len)
{
    if (len > SIZE_MAX - HUGE) return NULL;
    char *m = mmap(NULL, len + HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return NULL;
    uintptr_t a = ((uintptr_t)m + HUGE - 1) & ~(uintptr_t)(HUGE - 1);
    char *base = (char *)a;
    if (base > m) munmap(m, (size_t)(base - m));
    munmap(base + len, (size_t)(m + HUGE - base));
    (void)madvise(base, len, MADV_HUGEPAGE); /* a hint: failure changes nothing */
    return base;
}
#else
#define COL_MAPPED 0
#endif

void *tsql_col_malloc(size_t bytes)
{
#if COL_MAPPED
    if (bytes >= HUGE_MIN) {
        size_t len = map_len(bytes);
        char *base = len ? map_aligned(len) : NULL;
        if (!base) return NULL;
        col_hdr *h = (col_hdr *)base;
        h->map = len;
        h->bytes = bytes;
        return base + HDR;
    }
#endif
    if (bytes > SIZE_MAX - HDR) return NULL;
    col_hdr *h = malloc(HDR + bytes);
    if (!h) return NULL;
    h->map = 0;
    h->bytes = bytes;
    return (char *)h + HDR;
}

void *tsql_col_calloc(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size) return NULL;
    size_t bytes = n * size;
    void *p = tsql_col_malloc(bytes);
    /* a fresh mapping reads as zeros already */
    if (p && !hdr_of(p)->map) memset(p, 0, bytes);
    return p;
}

void tsql_col_free(void *p)
{
    if (!p) return;
    col_hdr *h = hdr_of(p);
#if COL_MAPPED
    if (h->map) {
        munmap(h, h->map);
        return;
    }
#endif
    free(h);
}

void *tsql_col_realloc(void *p, size_t bytes)
{
    if (!p) return tsql_col_malloc(bytes);
    col_hdr *h = hdr_of(p);
#if COL_MAPPED
    if (h->map) {
        size_t len = bytes >= HUGE_MIN ? map_len(bytes) : 0;
        if (len && len <= h->map) { /* fits: give back whole pages past the end */
            if (len < h->map) munmap((char *)h + len, h->map - len);
            h->map = len;
            h->bytes = bytes;
            return p;
        }
        if (len || bytes >= HUGE_MIN) { /* grows: its pages move to a larger mapping */
            char *base = len ? map_aligned(len) : NULL;
            if (!base) return NULL;
            size_t old = h->map;
            void *moved = mremap(h, old, old, MREMAP_MAYMOVE | MREMAP_FIXED, base);
            if (moved == MAP_FAILED) {
                memcpy(base, h, HDR + h->bytes);
                munmap(h, old);
            }
            h = (col_hdr *)base;
            h->map = len;
            h->bytes = bytes;
            return base + HDR;
        }
    }
    if (h->map || bytes >= HUGE_MIN) { /* between a mapping and a malloc block */
        void *q = tsql_col_malloc(bytes);
        if (!q) return NULL;
        memcpy(q, p, h->bytes < bytes ? h->bytes : bytes);
        tsql_col_free(p);
        return q;
    }
#endif
    if (bytes > SIZE_MAX - HDR) return NULL;
    col_hdr *nh = realloc(h, HDR + bytes);
    if (!nh) return NULL;
    nh->bytes = bytes;
    return (char *)nh + HDR;
}
