/*
 * u32vec.h — a growable array of uint32 (uids), for the analyses that collect events.
 */
#ifndef TSQL_U32VEC_H
#define TSQL_U32VEC_H

#include <stdint.h>
#include <stdlib.h>

#include "util/vec.h"

typedef struct u32vec {
    uint32_t *v;
    size_t n, cap;
} u32vec;

/* Appends x. 0, or -1 on OOM (the vector is unchanged). */
static inline int u32vec_push(u32vec *a, uint32_t x)
{
    if (a->n == a->cap) {
        uint32_t *nv = tsql_grow(a->v, &a->cap, sizeof *nv, 256);
        if (!nv) return -1;
        a->v = nv;
    }
    a->v[a->n++] = x;
    return 0;
}

#endif
