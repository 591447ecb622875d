/* hash.c — see hash.h. */
#include "util/hash.h"

#include <string.h>

uint32_t tsql_hash_bytes(const char *s, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ull ^ len;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        h = (h ^ w) * TSQL_FNV_PRIME;
        h ^= h >> 29;
    }
    uint64_t w = 0;
    memcpy(&w, s + i, len - i);
    h = (h ^ w) * TSQL_FNV_PRIME;
    h ^= h >> 32;
    h *= 0xd6e8feb86659fd93ull;
    h ^= h >> 32;
    return (uint32_t)h;
}
