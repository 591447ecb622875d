/* idtable.c — sizing and growth of the open-addressing table; see idtable.h. */
#include "util/idtable.h"

#include <stdlib.h>
#include <string.h>

uint32_t *tsql_idtab_alloc(uint32_t s)
{
    uint32_t *p = malloc((size_t)s * sizeof *p);
    if (p) memset(p, 0xFF, (size_t)s * sizeof *p); /* every slot TSQL_IDTAB_EMPTY */
    return p;
}

int tsql_idtab_init(tsql_idtab *t, uint64_t nslots)
{
    memset(t, 0, sizeof *t);
    uint32_t s = tsql_idtab_round(nslots);
    if (!s || !(t->slot = tsql_idtab_alloc(s))) return -1;
    t->nslots = s;
    t->owned = 1;
    return 0;
}

void tsql_idtab_init_at(tsql_idtab *t, uint32_t *slot, uint32_t nslots)
{
    memset(slot, 0xFF, (size_t)nslots * sizeof *slot);
    t->slot = slot;
    t->nslots = nslots;
    t->n = 0;
    t->owned = 0;
}

void tsql_idtab_free(tsql_idtab *t)
{
    if (t->owned) free(t->slot);
    memset(t, 0, sizeof *t);
}

int tsql_idtab_grow(tsql_idtab *t, tsql_idtab_hash_fn *hash, const void *ctx)
{
    if (t->nslots && !t->owned) return -1; /* the caller's memory cannot grow */
    if (t->nslots >= (uint32_t)1 << 31) return -1;
    uint32_t ns = t->nslots ? t->nslots * 2 : 64;
    uint32_t *s = tsql_idtab_alloc(ns);
    if (!s) return -1;
    for (uint32_t i = 0; i < t->nslots; i++) {
        uint32_t id = t->slot[i];
        if (id != TSQL_IDTAB_EMPTY) s[tsql_idtab_free_slot(s, ns, hash(ctx, id))] = id;
    }
    free(t->slot);
    t->slot = s;
    t->nslots = ns;
    t->owned = 1;
    return 0;
}
