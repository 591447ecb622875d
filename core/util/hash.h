/*
 * hash.h — the project's hashes, one copy each: an integer mix (the open-addressing
 * tables keyed by ids), FNV-1a over bytes (keys built from texts), and a word-wise
 * byte-string hash (the string interner).
 */
#ifndef TSQL_HASH_H
#define TSQL_HASH_H

#include <stddef.h>
#include <stdint.h>

/* A 64-bit integer mixed down to 32 bits (MurmurHash3's finaliser). */
static inline uint32_t tsql_u64_hash(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ull;
    k ^= k >> 33;
    return (uint32_t)k;
}

/* FNV-1a's 64-bit prime, and the seed tracesql's FNV-1a hashes start from. It is not
 * the published offset basis (14695981039346656037): any non-zero seed spreads as well,
 * and keeping it keeps every table's layout as it was. */
#define TSQL_FNV_PRIME 1099511628211ull
#define TSQL_FNV_SEED 1469598103934665603ull

/* h extended with the bytes p[0..n) */
static inline uint64_t tsql_fnv1a_add(uint64_t h, const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)p[i]) * TSQL_FNV_PRIME;
    return h;
}

/* FNV-1a of p[0..n) */
static inline uint64_t tsql_fnv1a(const char *p, size_t n) { return tsql_fnv1a_add(TSQL_FNV_SEED, p, n); }

/* 32-bit hash of a byte string (FNV-1a over 8-byte words, then mixed): faster than
 * the byte-wise form on long names. */
uint32_t tsql_hash_bytes(const char *s, size_t len);

#endif
