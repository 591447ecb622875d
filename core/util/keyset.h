/*
 * keyset.h — the one table of fixed-size binary keys (a few words: ids packed by the
 * caller) to dense indexes 0, 1, 2... in the order the keys were first added: the
 * group-by of C analyses, whose per-group values live in arrays indexed like the keys.
 * Open addressing with linear probing over the key indexes; the keys are kept in one
 * array, in index order (tsql_keyset_key).
 *
 *   tsql_keyset s;
 *   tsql_keyset_init(&s, sizeof(uint32_t[4]));
 *   int added;
 *   size_t g = tsql_keyset_add(&s, key, &added);   // SIZE_MAX on OOM
 *   tsql_keyset_free(&s);
 *
 * The table grows itself (at half full). Keys are compared byte for byte: a struct key
 * must have no padding.
 */
#ifndef TSQL_KEYSET_H
#define TSQL_KEYSET_H

#include <stddef.h>
#include <stdint.h>

typedef struct tsql_keyset {
    unsigned char *keys; /* n keys of key_size bytes, in index order */
    size_t key_size, n, cap;
    uint32_t *slot;      /* key index + 1; 0 = empty */
    size_t nslots;       /* 0 or a power of two */
} tsql_keyset;

/* An empty set of keys of key_size bytes (no allocation until the first add). */
void tsql_keyset_init(tsql_keyset *s, size_t key_size);
/* The index of key, appended (*added = 1) when new; SIZE_MAX on OOM (the set is then
 * unchanged) or when the set already holds UINT32_MAX - 1 keys. */
size_t tsql_keyset_add(tsql_keyset *s, const void *key, int *added);
/* The key of index i (i < s->n). */
static inline const void *tsql_keyset_key(const tsql_keyset *s, size_t i)
{
    return s->keys + i * s->key_size;
}
void tsql_keyset_free(tsql_keyset *s);

#endif
