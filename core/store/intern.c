/* intern.c — string table with an arena; see intern.h. */
#include "store/intern.h"

#include <stdlib.h>
#include <string.h>

#include "util/hash.h"

#define BLOCK_BYTES (1u << 20)

void tsql_intern_init(tsql_intern *t)
{
    memset(t, 0, sizeof *t);
}

void tsql_intern_free(tsql_intern *t)
{
    if (!t) return;
    for (size_t i = 0; i < t->nblocks; i++) free(t->blocks[i]);
    free(t->blocks);
    free(t->str);
    free(t->len);
    free(t->slots);
    free(t->hashes);
    memset(t, 0, sizeof *t);
}

/* Copies s into the arena; returns the copy or NULL on allocation failure. */
static char *arena_copy(tsql_intern *t, const char *s, size_t len)
{
    if (t->block_used + len + 1 > t->block_cap) {
        size_t cap = len + 1 > BLOCK_BYTES ? len + 1 : BLOCK_BYTES;
        if (t->nblocks == t->cap_blocks) {
            size_t nc = t->cap_blocks ? 2 * t->cap_blocks : 16;
            char **nb = realloc(t->blocks, nc * sizeof *nb);
            if (!nb) return NULL;
            t->blocks = nb;
            t->cap_blocks = nc;
        }
        char *b = malloc(cap);
        if (!b) return NULL;
        t->blocks[t->nblocks++] = b;
        t->block = b;
        t->block_used = 0;
        t->block_cap = cap;
        t->bytes += cap;
    }
    char *d = t->block + t->block_used;
    memcpy(d, s, len);
    d[len] = 0;
    t->block_used += len + 1;
    return d;
}

/* Doubles the slot table; returns 0 on success, -1 on allocation failure. */
static int grow_slots(tsql_intern *t)
{
    uint32_t ns = t->nslots ? t->nslots * 2 : 1024;
    uint32_t *slots = calloc(ns, sizeof *slots);
    if (!slots) return -1;
    for (uint32_t id = 1; id <= t->n; id++) {
        uint32_t j = t->hashes[id] & (ns - 1);
        while (slots[j]) j = (j + 1) & (ns - 1);
        slots[j] = id;
    }
    free(t->slots);
    t->bytes += (size_t)(ns - t->nslots) * sizeof *slots;
    t->slots = slots;
    t->nslots = ns;
    return 0;
}

uint32_t tsql_intern_find(const tsql_intern *t, const char *s, size_t len)
{
    if (!t->nslots) return 0;
    uint32_t h = tsql_hash_bytes(s, len);
    for (uint32_t j = h & (t->nslots - 1);; j = (j + 1) & (t->nslots - 1)) {
        uint32_t id = t->slots[j];
        if (!id) return 0;
        if (t->hashes[id] == h && t->len[id] == len && memcmp(t->str[id], s, len) == 0)
            return id;
    }
}

uint32_t tsql_intern_add(tsql_intern *t, const char *s, size_t len)
{
    if (len > UINT32_MAX - 1) return 0;
    if ((uint64_t)(t->n + 1) * 2 >= t->nslots && grow_slots(t) != 0) return 0;
    uint32_t h = tsql_hash_bytes(s, len);
    uint32_t j = h & (t->nslots - 1);
    for (;; j = (j + 1) & (t->nslots - 1)) {
        uint32_t id = t->slots[j];
        if (!id) break;
        if (t->hashes[id] == h && t->len[id] == len && memcmp(t->str[id], s, len) == 0)
            return id;
    }
    if (t->n + 2 > t->cap) {
        uint32_t nc = t->cap ? t->cap * 2 : 1024;
        const char **ns = realloc(t->str, nc * sizeof *ns);
        if (!ns) return 0;
        t->str = ns;
        uint32_t *nl = realloc(t->len, nc * sizeof *nl);
        if (!nl) return 0;
        t->len = nl;
        uint32_t *nh = realloc(t->hashes, nc * sizeof *nh);
        if (!nh) return 0;
        t->hashes = nh;
        t->bytes += (size_t)(nc - t->cap) * (sizeof *ns + 2 * sizeof *nl);
        t->cap = nc;
    }
    char *copy = arena_copy(t, s, len);
    if (!copy) return 0;
    uint32_t id = ++t->n;
    t->str[id] = copy;
    t->len[id] = (uint32_t)len;
    t->hashes[id] = h;
    t->slots[j] = id;
    return id;
}
