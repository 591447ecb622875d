/*
 * strmap.h — the one string-keyed hash map: byte strings (any bytes, length-counted)
 * to 64-bit values (an index, an id), open addressing with linear probing, keys copied into the map.
 *
 *   tsql_strmap m = {0};
 *   tsql_strmap_put(&m, "gemm", 4, 7);
 *   uint64_t v;
 *   if (tsql_strmap_get(&m, "gemm", 4, &v)) ...
 *   tsql_strmap_free(&m);
 *
 * The map grows itself (at half full); a zeroed struct is an empty map.
 */
#ifndef TSQL_STRMAP_H
#define TSQL_STRMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct tsql_strmap_slot {
    char *key;            /* NULL: an empty slot */
    size_t len;
    uint32_t hash;
    uint64_t val;
} tsql_strmap_slot;

typedef struct tsql_strmap {
    tsql_strmap_slot *slots;
    size_t nslots;        /* 0 or a power of two */
    size_t n;             /* keys held */
    size_t bytes;         /* bytes of the keys held */
} tsql_strmap;

/* 1 with *val if key[0..len) is in the map, else 0. */
int tsql_strmap_get(const tsql_strmap *m, const char *key, size_t len, uint64_t *val);
/* Sets key[0..len) to val (a copy of the key is kept). 0, or -1 on OOM (the map is
 * unchanged). */
int tsql_strmap_put(tsql_strmap *m, const char *key, size_t len, uint64_t val);
/* Removes every key; the slots are kept. */
void tsql_strmap_clear(tsql_strmap *m);
void tsql_strmap_free(tsql_strmap *m);

#endif
