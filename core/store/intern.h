/*
 * intern.h — a string table: each distinct byte string gets a dense id.
 *
 * Names, categories, pid/tid spellings and args templates repeat millions of times in a
 * trace; storing an id per event instead of the text is most of why the event store is
 * smaller than the file. Ids start at 1; 0 means "absent". Strings are kept
 * NUL-terminated in large arena blocks, so a returned pointer stays valid until
 * tsql_intern_free().
 */
#ifndef TSQL_INTERN_H
#define TSQL_INTERN_H

#include <stddef.h>
#include <stdint.h>

#include "util/idtable.h"

typedef struct tsql_intern {
    uint32_t n;            /* number of strings (ids 1..n) */
    uint32_t cap;          /* capacity of str/len arrays */
    const char **str;      /* str[id] -> NUL-terminated bytes */
    uint32_t *len;         /* len[id] -> length in bytes */
    tsql_idtab ids;        /* the ids, by the hash of their string */
    uint32_t *hashes;      /* hash of each id, to rehash and to compare quickly */
    char *block;           /* current arena block */
    size_t block_used, block_cap;
    char **blocks;         /* all arena blocks, for freeing */
    size_t nblocks, cap_blocks;
    size_t bytes;          /* memory held, for the ceiling */
} tsql_intern;

void tsql_intern_init(tsql_intern *t);
void tsql_intern_free(tsql_intern *t);

/* Returns the id of s[0..len), adding it if new; 0 on allocation failure. */
uint32_t tsql_intern_add(tsql_intern *t, const char *s, size_t len);

/* Returns the id of s[0..len) or 0 if it is not in the table. */
uint32_t tsql_intern_find(const tsql_intern *t, const char *s, size_t len);

static inline const char *tsql_intern_str(const tsql_intern *t, uint32_t id)
{
    return id ? t->str[id] : NULL;
}
/* The same, "" for id 0 (no string): for callers that want text, never NULL. */
static inline const char *tsql_intern_text(const tsql_intern *t, uint32_t id)
{
    return id ? t->str[id] : "";
}
static inline uint32_t tsql_intern_len(const tsql_intern *t, uint32_t id)
{
    return id ? t->len[id] : 0;
}

#endif
