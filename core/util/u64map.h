/*
 * u64map.h — open-addressing hash from int64 keys to uint32 values (uids).
 * Used by the tree builder for id lookups (flow ids, correlations, Python ids).
 */
#ifndef TSQL_U64MAP_H
#define TSQL_U64MAP_H

#include <stdint.h>
#include <stdlib.h>

#include "util/hash.h"

typedef struct tsql_u64map {
    int64_t *keys;
    uint32_t *vals;    /* UINT32_MAX = empty slot */
    uint32_t nslots, n;
} tsql_u64map;

/* Sizes the map for about n keys. 0 or -1 on OOM. */
static inline int tsql_u64map_init(tsql_u64map *m, uint32_t n)
{
    uint32_t s = 16;
    while (s < 2 * (uint64_t)n + 16) s *= 2;
    m->keys = malloc((size_t)s * sizeof *m->keys);
    m->vals = malloc((size_t)s * sizeof *m->vals);
    m->nslots = s;
    m->n = 0;
    if (!m->keys || !m->vals) return -1;
    for (uint32_t i = 0; i < s; i++) m->vals[i] = UINT32_MAX;
    return 0;
}

static inline void tsql_u64map_free(tsql_u64map *m)
{
    free(m->keys);
    free(m->vals);
    m->keys = NULL;
    m->vals = NULL;
}

/* Slot of key k (its own, or the empty one where it would go). */
static inline uint32_t tsql_u64map_slot(const tsql_u64map *m, int64_t k)
{
    uint32_t j = tsql_u64_hash((uint64_t)k) & (m->nslots - 1);
    while (m->vals[j] != UINT32_MAX && m->keys[j] != k) j = (j + 1) & (m->nslots - 1);
    return j;
}

static inline uint32_t tsql_u64map_get(const tsql_u64map *m, int64_t k)
{
    if (!m->nslots) return UINT32_MAX;
    return m->vals[tsql_u64map_slot(m, k)];
}

/* Sets k -> v; overwrite = 0 keeps an existing value. The map must have been sized
 * for every key it will hold (tsql_u64map_init). */
static inline void tsql_u64map_put(tsql_u64map *m, int64_t k, uint32_t v, int overwrite)
{
    uint32_t j = tsql_u64map_slot(m, k);
    if (m->vals[j] == UINT32_MAX) {
        m->keys[j] = k;
        m->vals[j] = v;
        m->n++;
    } else if (overwrite) {
        m->vals[j] = v;
    }
}

#endif
