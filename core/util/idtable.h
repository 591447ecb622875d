/*
 * idtable.h — the one open-addressing hash table: a power-of-two array of slots, each
 * empty or holding an id (a uid, a string id, an index into the caller's arrays), found
 * by linear probing from the key's hash.
 *
 * The table holds only ids; the keys stay where the caller keeps them, so one probe
 * serves keys of any kind: u64map.h (int64 keys in an array beside the slots, the
 * values being the ids), the string interner (store/intern.c), the compact columns'
 * overflow rows (store/icol.c), and keys read back from the event columns
 * (tree/tree.c). The caller gives the key's hash and a test "is the key of this id the
 * one I look for"; the probe is inlined with that test (always_inline: a known test
 * function becomes a direct, inlined comparison), so each use costs what a hand-written
 * loop did.
 *
 *   tsql_idtab t = {0};                    (a zeroed table is empty, with no slots)
 *   if (tsql_idtab_room(&t, hash_of_id, ctx)) ...OOM...
 *   uint32_t j = tsql_idtab_find(&t, h, same_key, &key);
 *   if (t.slot[j] == TSQL_IDTAB_EMPTY) tsql_idtab_set(&t, j, new_id);
 *
 * There is no removal: the tables here only grow while they are built.
 */
#ifndef TSQL_IDTABLE_H
#define TSQL_IDTABLE_H

#include <stddef.h>
#include <stdint.h>

#define TSQL_IDTAB_EMPTY UINT32_MAX /* a free slot (TSQL_NONE, never an id) */

typedef struct tsql_idtab {
    uint32_t *slot;    /* TSQL_IDTAB_EMPTY or an id */
    uint32_t nslots;   /* 0 or a power of two */
    uint32_t n;        /* ids held */
    int owned;         /* slot was allocated here (freed by tsql_idtab_free) */
} tsql_idtab;

/* 1 when the key of id (in slot j) is the key looked for (key: the caller's description
 * of it). Keys are kept by id (an entry array) or by slot (an array beside the slots). */
typedef int tsql_idtab_same_fn(const void *key, uint32_t id, uint32_t j);
/* The hash of id's key, to place it again when the table grows (ctx: the caller's). */
typedef uint32_t tsql_idtab_hash_fn(const void *ctx, uint32_t id);

/* The probe, over any slot array slot[0..nslots) (nslots a power of two, not 0): the
 * slot of the id whose key is key (same(key, id, j) holds), or the empty slot where it
 * would go; h is the key's hash. */
static inline __attribute__((always_inline)) uint32_t tsql_idtab_probe(const uint32_t *slot, uint32_t nslots,
                                                                       uint32_t h, tsql_idtab_same_fn *same,
                                                                       const void *key)
{
    uint32_t mask = nslots - 1, j = h & mask, id;
    while ((id = slot[j]) != TSQL_IDTAB_EMPTY && !same(key, id, j)) j = (j + 1) & mask;
    return j;
}

static inline int tsql_idtab_never_same(const void *key, uint32_t id, uint32_t j)
{
    (void)key;
    (void)id;
    (void)j;
    return 0;
}

/* The empty slot a new key of hash h goes to (when growing: every key is new). */
static inline uint32_t tsql_idtab_free_slot(const uint32_t *slot, uint32_t nslots, uint32_t h)
{
    return tsql_idtab_probe(slot, nslots, h, tsql_idtab_never_same, NULL);
}

/* Slots for n keys at most half full: the rule of tsql_idtab_room, for tsql_idtab_init. */
static inline uint64_t tsql_idtab_slots_for(uint32_t n) { return 2 * (uint64_t)n + 16; }

/* nslots rounded up to a power of two, at least 16; 0 when over 2^31 (ids are 32-bit). */
static inline uint32_t tsql_idtab_round(uint64_t nslots)
{
    uint64_t s = 16;
    while (s < nslots) s *= 2;
    return s > (uint64_t)1 << 31 ? 0 : (uint32_t)s;
}

/* s slots, every one empty (malloc'd). NULL on OOM. */
uint32_t *tsql_idtab_alloc(uint32_t s);

/* A table of at least nslots slots (tsql_idtab_round), all empty. 0, or -1 on OOM
 * (the table then has no slots). */
int tsql_idtab_init(tsql_idtab *t, uint64_t nslots);
/* A table over the caller's memory slot[0..nslots) (nslots a power of two), emptied
 * here; the caller frees it, and the table must not grow (no tsql_idtab_room). */
void tsql_idtab_init_at(tsql_idtab *t, uint32_t *slot, uint32_t nslots);
void tsql_idtab_free(tsql_idtab *t);

/* tsql_idtab_probe on the table, which must have slots. */
static inline __attribute__((always_inline)) uint32_t tsql_idtab_find(const tsql_idtab *t, uint32_t h,
                                                                      tsql_idtab_same_fn *same,
                                                                      const void *key)
{
    return tsql_idtab_probe(t->slot, t->nslots, h, same, key);
}

/* The id whose key is key, or TSQL_IDTAB_EMPTY (also when the table has no slots). */
static inline __attribute__((always_inline)) uint32_t tsql_idtab_get(const tsql_idtab *t, uint32_t h,
                                                                     tsql_idtab_same_fn *same,
                                                                     const void *key)
{
    if (!t->nslots) return TSQL_IDTAB_EMPTY;
    return t->slot[tsql_idtab_probe(t->slot, t->nslots, h, same, key)];
}

/* Puts id in slot j, an empty slot tsql_idtab_find returned (with no growth since). */
static inline void tsql_idtab_set(tsql_idtab *t, uint32_t j, uint32_t id)
{
    t->slot[j] = id;
    t->n++;
}

/* Grows the table (doubles it, from 64 slots) and places every id again at
 * hash(ctx, id). 0, or -1 on OOM (the table unchanged). */
int tsql_idtab_grow(tsql_idtab *t, tsql_idtab_hash_fn *hash, const void *ctx);

/* Room for one more id with the table at most half full: grows it when needed (slots
 * found before then are stale). 0, or -1 on OOM. */
static inline int tsql_idtab_room(tsql_idtab *t, tsql_idtab_hash_fn *hash, const void *ctx)
{
    if ((uint64_t)t->n * 2 + 2 <= t->nslots) return 0;
    return tsql_idtab_grow(t, hash, ctx);
}

#endif
