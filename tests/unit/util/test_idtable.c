/* test_idtable.c — the open-addressing table (core/util/idtable.h) and the int64 map on
 * it (core/util/u64map.h): ids found by keys kept outside the table, colliding hashes
 * (every key the same hash), growth from an empty table checked against every key, a
 * table over the caller's memory, sizing; u64map's get, put with and without overwrite,
 * in-place values (a key whose value says "nothing here" keeps later keys of its probe
 * run reachable), growth from zero, presizing. */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "util/hash.h"
#include "util/idtable.h"
#include "util/u64map.h"

/* keys of ids: key[id]; the test's hash may send every key to one slot */
typedef struct keys {
    const int64_t *key;
    int collide;
} keys;

typedef struct wanted {
    const keys *ks;
    int64_t k;
} wanted;

static uint32_t hash_key(const keys *ks, int64_t k) { return ks->collide ? 7u : tsql_u64_hash((uint64_t)k); }

static int same(const void *key, uint32_t id, uint32_t j)
{
    (void)j;
    const wanted *w = key;
    return w->ks->key[id] == w->k;
}

static uint32_t hash_of(const void *ctx, uint32_t id)
{
    const keys *ks = ctx;
    return hash_key(ks, ks->key[id]);
}

/* Adds ids 0..n-1 (key[id]) to a zeroed table that grows; 0 when every key is then found
 * with its id and a key not added is not. */
static int fill_and_check(int collide, uint32_t n)
{
    int64_t *key = malloc(n * sizeof *key);
    if (!key) return -1;
    for (uint32_t i = 0; i < n; i++) key[i] = (int64_t)i * 1000003 - 5000;
    keys ks = {key, collide};
    tsql_idtab t = {0};
    int bad = 0;
    CHECK_EQ(tsql_idtab_get(&t, 1, same, &(wanted){&ks, 1}), TSQL_IDTAB_EMPTY); /* no slots */
    for (uint32_t id = 0; id < n; id++) {
        if (tsql_idtab_room(&t, hash_of, &ks)) return -1;
        wanted w = {&ks, key[id]};
        uint32_t j = tsql_idtab_find(&t, hash_key(&ks, key[id]), same, &w);
        if (t.slot[j] != TSQL_IDTAB_EMPTY) bad++;
        else tsql_idtab_set(&t, j, id);
        if ((uint64_t)t.n * 2 > t.nslots) bad++; /* at most half full */
    }
    CHECK_EQ(t.n, n);
    CHECK((t.nslots & (t.nslots - 1)) == 0);
    for (uint32_t id = 0; id < n; id++) {
        wanted w = {&ks, key[id]};
        if (tsql_idtab_get(&t, hash_key(&ks, key[id]), same, &w) != id) bad++;
    }
    wanted absent = {&ks, -1};
    if (tsql_idtab_get(&t, hash_key(&ks, -1), same, &absent) != TSQL_IDTAB_EMPTY) bad++;
    tsql_idtab_free(&t);
    CHECK(t.slot == NULL && t.nslots == 0 && t.n == 0);
    free(key);
    return bad;
}

int main(void)
{
    /* sizing: powers of two, at least 16, at least what was asked */
    tsql_idtab t;
    CHECK_EQ(tsql_idtab_init(&t, 0), 0);
    CHECK_EQ(t.nslots, 16);
    CHECK_EQ(t.n, 0);
    tsql_idtab_free(&t);
    CHECK_EQ(tsql_idtab_init(&t, tsql_idtab_slots_for(100)), 0);
    CHECK_EQ(t.nslots, 256); /* 2 * 100 + 16 = 216 -> 256 */
    tsql_idtab_free(&t);
    CHECK_EQ(tsql_idtab_init(&t, ((uint64_t)1 << 31) + 1), -1); /* more slots than ids */
    CHECK(t.slot == NULL && t.nslots == 0);

    /* growth from nothing, with a real hash and with every key on one hash */
    CHECK_EQ(fill_and_check(0, 50000), 0);
    CHECK_EQ(fill_and_check(1, 700), 0);

    /* over the caller's memory: emptied, used, left to the caller */
    uint32_t mem[32];
    int64_t key[3] = {10, 42, 75};
    keys ks = {key, 0};
    tsql_idtab_init_at(&t, mem, 32);
    for (uint32_t i = 0; i < 32; i++) CHECK_EQ(mem[i], TSQL_IDTAB_EMPTY);
    for (uint32_t id = 0; id < 3; id++) {
        wanted w = {&ks, key[id]};
        tsql_idtab_set(&t, tsql_idtab_find(&t, hash_key(&ks, key[id]), same, &w), id);
    }
    wanted w42 = {&ks, 42};
    CHECK_EQ(tsql_idtab_get(&t, hash_key(&ks, 42), same, &w42), 1);
    CHECK_EQ(tsql_idtab_grow(&t, hash_of, &ks), -1); /* the caller's memory cannot grow */
    CHECK_EQ(t.nslots, 32);
    tsql_idtab_free(&t);
    CHECK(t.slot == NULL); /* mem is still the caller's (on the stack here) */

    /* u64map: a zeroed map grows by itself */
    tsql_u64map m = {0};
    CHECK_EQ(tsql_u64map_get(&m, 5), UINT32_MAX);
    CHECK_EQ(tsql_u64map_put(&m, 5, 50, 1), 0);
    CHECK_EQ(tsql_u64map_put(&m, INT64_MIN, 7, 1), 0); /* any int64 is a key */
    CHECK_EQ(tsql_u64map_put(&m, -1, 8, 1), 0);
    CHECK_EQ(tsql_u64map_get(&m, 5), 50);
    CHECK_EQ(tsql_u64map_get(&m, INT64_MIN), 7);
    CHECK_EQ(tsql_u64map_get(&m, -1), 8);
    CHECK_EQ(tsql_u64map_get(&m, 6), UINT32_MAX);
    CHECK_EQ(tsql_u64map_put(&m, 5, 51, 0), 0); /* kept: no overwrite */
    CHECK_EQ(tsql_u64map_get(&m, 5), 50);
    CHECK_EQ(tsql_u64map_put(&m, 5, 52, 1), 0); /* overwritten */
    CHECK_EQ(tsql_u64map_get(&m, 5), 52);
    CHECK_EQ(m.n, 3);
    /* in-place values: a new key starts with the value asked for; a key whose value
     * means "nothing here" (not UINT32_MAX) keeps its slot, so the later keys of its
     * probe run stay reachable (a slot set back to UINT32_MAX would cut them off) */
    const uint32_t nothing = UINT32_MAX - 1;
    int bad = 0;
    for (int64_t k = 100; k < 20100; k++) {
        uint32_t *v = tsql_u64map_ref(&m, k, nothing);
        if (!v || *v != nothing) {
            bad++;
            break;
        }
        *v = (uint32_t)(k * 2);
    }
    CHECK_EQ(bad, 0);
    CHECK_EQ(m.n, 3 + 20000);
    CHECK(m.n * 2 <= m.nslots && (m.nslots & (m.nslots - 1)) == 0);
    for (int64_t k = 100; k < 20100; k += 2) *tsql_u64map_ref(&m, k, nothing) = nothing;
    for (int64_t k = 100; k < 20100; k++) {
        uint32_t want = k % 2 ? (uint32_t)(k * 2) : nothing;
        if (tsql_u64map_get(&m, k) != want) bad++;
    }
    CHECK_EQ(bad, 0);
    CHECK_EQ(m.n, 3 + 20000);
    /* every slot holding a value holds its key, once */
    uint32_t held = 0;
    for (uint32_t j = 0; j < m.nslots; j++)
        if (m.vals[j] != UINT32_MAX) {
            held++;
            if (tsql_u64map_slot(&m, m.keys[j]) != j) bad++;
        }
    CHECK_EQ(held, m.n);
    CHECK_EQ(bad, 0);
    tsql_u64map_free(&m);
    CHECK(m.keys == NULL && m.vals == NULL && m.n == 0 && m.nslots == 0);

    /* sized ahead: no growth for the keys it was sized for */
    CHECK_EQ(tsql_u64map_init(&m, 1000), 0);
    CHECK_EQ(m.nslots, 2048); /* 2 * 1000 + 16 -> 2048 */
    for (int64_t k = 0; k < 1000; k++) CHECK_EQ(tsql_u64map_put(&m, k * 7919, (uint32_t)k, 1), 0);
    CHECK_EQ(m.nslots, 2048);
    CHECK_EQ(tsql_u64map_get(&m, 999 * 7919), 999);
    CHECK_EQ(tsql_u64map_get(&m, 7), UINT32_MAX);
    tsql_u64map_free(&m);
    return check_report("idtable");
}
