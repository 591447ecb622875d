/* keyset.c — fixed-size keys to dense indexes; see keyset.h. */
#include "util/keyset.h"

#include <stdlib.h>
#include <string.h>

#include "util/hash.h"

void tsql_keyset_init(tsql_keyset *s, size_t key_size)
{
    memset(s, 0, sizeof *s);
    s->key_size = key_size;
}

void tsql_keyset_free(tsql_keyset *s)
{
    free(s->keys);
    free(s->slot);
    size_t ks = s->key_size;
    memset(s, 0, sizeof *s);
    s->key_size = ks;
}

static uint32_t key_hash(const tsql_keyset *s, const void *key)
{
    return tsql_hash_bytes(key, s->key_size);
}

static int grow_slots(tsql_keyset *s)
{
    size_t ns = s->nslots ? s->nslots * 2 : 1024;
    uint32_t *slot = calloc(ns, sizeof *slot);
    if (!slot) return -1;
    for (size_t i = 0; i < s->n; i++) {
        size_t j = key_hash(s, tsql_keyset_key(s, i)) & (ns - 1);
        while (slot[j]) j = (j + 1) & (ns - 1);
        slot[j] = (uint32_t)i + 1;
    }
    free(s->slot);
    s->slot = slot;
    s->nslots = ns;
    return 0;
}

size_t tsql_keyset_add(tsql_keyset *s, const void *key, int *added)
{
    *added = 0;
    if ((s->n + 1) * 2 > s->nslots && grow_slots(s)) return SIZE_MAX;
    size_t j = key_hash(s, key) & (s->nslots - 1);
    for (; s->slot[j]; j = (j + 1) & (s->nslots - 1))
        if (memcmp(tsql_keyset_key(s, s->slot[j] - 1), key, s->key_size) == 0) return s->slot[j] - 1;
    if (s->n >= UINT32_MAX - 1) return SIZE_MAX;
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 256;
        unsigned char *k = realloc(s->keys, cap * s->key_size);
        if (!k) return SIZE_MAX;
        s->keys = k;
        s->cap = cap;
    }
    memcpy(s->keys + s->n * s->key_size, key, s->key_size);
    s->slot[j] = (uint32_t)++s->n;
    *added = 1;
    return s->n - 1;
}
