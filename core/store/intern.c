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
    tsql_idtab_free(&t->ids);
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

/* What an id is compared with: the string looked for and its hash. */
typedef struct wanted {
    const tsql_intern *t;
    const char *s;
    size_t len;
    uint32_t h;
} wanted;

static inline int same_string(const void *key, uint32_t id, uint32_t j)
{
    (void)j;
    const wanted *w = key;
    const tsql_intern *t = w->t;
    return t->hashes[id] == w->h && t->len[id] == w->len && memcmp(t->str[id], w->s, w->len) == 0;
}

static uint32_t hash_of_id(const void *ctx, uint32_t id)
{
    const tsql_intern *t = ctx;
    return t->hashes[id];
}

uint32_t tsql_intern_find(const tsql_intern *t, const char *s, size_t len)
{
    wanted w = {t, s, len, tsql_hash_bytes(s, len)};
    uint32_t id = tsql_idtab_get(&t->ids, w.h, same_string, &w);
    return id == TSQL_IDTAB_EMPTY ? 0 : id;
}

uint32_t tsql_intern_add(tsql_intern *t, const char *s, size_t len)
{
    if (len > UINT32_MAX - 1) return 0;
    uint32_t had = t->ids.nslots;
    if (tsql_idtab_room(&t->ids, hash_of_id, t)) return 0;
    t->bytes += (size_t)(t->ids.nslots - had) * sizeof *t->ids.slot;
    wanted w = {t, s, len, tsql_hash_bytes(s, len)};
    uint32_t j = tsql_idtab_find(&t->ids, w.h, same_string, &w);
    if (t->ids.slot[j] != TSQL_IDTAB_EMPTY) return t->ids.slot[j];
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
    t->hashes[id] = w.h;
    tsql_idtab_set(&t->ids, j, id);
    return id;
}
