/* strmap.c — the string-keyed hash map; see strmap.h. */
#include "util/strmap.h"

#include <stdlib.h>
#include <string.h>

#include "util/hash.h"

/* The slot of key: its own, or the empty one where it would go. */
static size_t find(const tsql_strmap *m, const char *key, size_t len, uint32_t h)
{
    size_t j = h & (m->nslots - 1);
    for (; m->slots[j].key; j = (j + 1) & (m->nslots - 1)) {
        const tsql_strmap_slot *s = &m->slots[j];
        if (s->hash == h && s->len == len && memcmp(s->key, key, len) == 0) break;
    }
    return j;
}

static int grow(tsql_strmap *m)
{
    size_t ns = m->nslots ? m->nslots * 2 : 64;
    tsql_strmap_slot *s = calloc(ns, sizeof *s);
    if (!s) return -1;
    for (size_t i = 0; i < m->nslots; i++) {
        if (!m->slots[i].key) continue;
        size_t j = m->slots[i].hash & (ns - 1);
        while (s[j].key) j = (j + 1) & (ns - 1);
        s[j] = m->slots[i];
    }
    free(m->slots);
    m->slots = s;
    m->nslots = ns;
    return 0;
}

int tsql_strmap_get(const tsql_strmap *m, const char *key, size_t len, uint64_t *val)
{
    if (!m->n) return 0;
    const tsql_strmap_slot *s = &m->slots[find(m, key, len, tsql_hash_bytes(key, len))];
    if (!s->key) return 0;
    *val = s->val;
    return 1;
}

int tsql_strmap_put(tsql_strmap *m, const char *key, size_t len, uint64_t val)
{
    uint32_t h = tsql_hash_bytes(key, len);
    if (m->nslots) {
        tsql_strmap_slot *s = &m->slots[find(m, key, len, h)];
        if (s->key) {
            s->val = val;
            return 0;
        }
    }
    if ((m->n + 1) * 2 > m->nslots && grow(m) != 0) return -1;
    tsql_strmap_slot *s = &m->slots[find(m, key, len, h)];
    if (!(s->key = malloc(len ? len : 1))) return -1;
    if (len) memcpy(s->key, key, len);
    s->len = len;
    s->hash = h;
    s->val = val;
    m->n++;
    m->bytes += len;
    return 0;
}

void tsql_strmap_clear(tsql_strmap *m)
{
    for (size_t i = 0; i < m->nslots; i++) {
        free(m->slots[i].key);
        m->slots[i].key = NULL;
    }
    m->n = m->bytes = 0;
}

void tsql_strmap_free(tsql_strmap *m)
{
    tsql_strmap_clear(m);
    free(m->slots);
    m->slots = NULL;
    m->nslots = 0;
}
