/*
 * u64map.h — hash map from int64 keys to uint32 values (uids), on the one
 * open-addressing probe (idtable.h): the values are the slots (UINT32_MAX = empty slot,
 * so no key holds that value) and the keys sit beside them. Used by the tree builder
 * for id lookups (flow ids, correlations, threads), by TraceDiff, attribution and the
 * analyses that group by id.
 *
 * tsql_u64map_init sizes the map ahead for a known number of keys; put and ref grow it
 * past that (a zeroed map is empty and grows from nothing). Iterate the slots j <
 * nslots with vals[j] != UINT32_MAX.
 */
#ifndef TSQL_U64MAP_H
#define TSQL_U64MAP_H

#include <stdint.h>
#include <stdlib.h>

#include "util/hash.h"
#include "util/idtable.h"

typedef struct tsql_u64map {
    int64_t *keys;
    uint32_t *vals;    /* UINT32_MAX = empty slot */
    uint32_t nslots, n;
} tsql_u64map;

/* The key looked for, with the map's keys (kept by slot). */
typedef struct tsql_u64map_key {
    const int64_t *keys;
    int64_t k;
} tsql_u64map_key;

static inline int tsql_u64map_same(const void *key, uint32_t id, uint32_t j)
{
    const tsql_u64map_key *q = key;
    (void)id;
    return q->keys[j] == q->k;
}

/* Sizes the map for about n keys. 0 or -1 on OOM (free it then). */
static inline int tsql_u64map_init(tsql_u64map *m, uint32_t n)
{
    uint32_t s = tsql_idtab_round(tsql_idtab_slots_for(n));
    /* keys zeroed: only slots with a value are read, but every read is then defined */
    m->keys = s ? calloc(s, sizeof *m->keys) : NULL;
    m->vals = s ? tsql_idtab_alloc(s) : NULL;
    m->nslots = s;
    m->n = 0;
    if (!m->keys || !m->vals) {
        m->nslots = 0;
        return -1;
    }
    return 0;
}

static inline void tsql_u64map_free(tsql_u64map *m)
{
    free(m->keys);
    free(m->vals);
    m->keys = NULL;
    m->vals = NULL;
    m->nslots = m->n = 0;
}

/* Slot of key k (its own, or the empty one where it would go). The map must have
 * slots. */
static inline uint32_t tsql_u64map_slot(const tsql_u64map *m, int64_t k)
{
    tsql_u64map_key q = {m->keys, k};
    return tsql_idtab_probe(m->vals, m->nslots, tsql_u64_hash((uint64_t)k), tsql_u64map_same, &q);
}

static inline uint32_t tsql_u64map_get(const tsql_u64map *m, int64_t k)
{
    if (!m->nslots) return UINT32_MAX;
    return m->vals[tsql_u64map_slot(m, k)];
}

/* Doubles the map (from 64 slots), every key placed again. 0, or -1 on OOM (the map
 * unchanged). */
static inline int tsql_u64map_grow(tsql_u64map *m)
{
    if (m->nslots >= (uint32_t)1 << 31) return -1;
    uint32_t ns = m->nslots ? m->nslots * 2 : 64;
    int64_t *keys = calloc(ns, sizeof *keys);
    uint32_t *vals = tsql_idtab_alloc(ns);
    if (!keys || !vals) {
        free(keys);
        free(vals);
        return -1;
    }
    for (uint32_t i = 0; i < m->nslots; i++) {
        if (m->vals[i] == UINT32_MAX) continue;
        uint32_t j = tsql_idtab_free_slot(vals, ns, tsql_u64_hash((uint64_t)m->keys[i]));
        keys[j] = m->keys[i];
        vals[j] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    m->keys = keys;
    m->vals = vals;
    m->nslots = ns;
    return 0;
}

/* The value of k, to read and write in place (valid until the next key is added); k is
 * added with the value absent (not UINT32_MAX) when it is not in the map. NULL on OOM. */
static inline uint32_t *tsql_u64map_ref(tsql_u64map *m, int64_t k, uint32_t absent)
{
    if ((uint64_t)m->n * 2 + 2 > m->nslots && tsql_u64map_grow(m)) return NULL;
    uint32_t j = tsql_u64map_slot(m, k);
    if (m->vals[j] == UINT32_MAX) {
        m->keys[j] = k;
        m->vals[j] = absent;
        m->n++;
    }
    return &m->vals[j];
}

/* Sets k -> v (v not UINT32_MAX); overwrite = 0 keeps an existing value. Grows the map
 * when it is half full. 0, or -1 on OOM (the map unchanged). */
static inline int tsql_u64map_put(tsql_u64map *m, int64_t k, uint32_t v, int overwrite)
{
    uint32_t had = m->n;
    uint32_t *p = tsql_u64map_ref(m, k, v);
    if (!p) return -1;
    if (overwrite && m->n == had) *p = v;
    return 0;
}

#endif
