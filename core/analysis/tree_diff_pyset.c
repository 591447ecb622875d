/* tree_diff_pyset.c — the order CPython iterates a set of (i, j) pairs in; see
 * tree_diff_pyset.h. */
#include "analysis/tree_diff_pyset.h"

#include <stdlib.h>
#include <string.h>

/* ---------- Python's set iteration order ----------
 * TraceLens collects the disambiguated matches in a Python set of (i, j) tuples and
 * emits them in the set's iteration order: the slots of CPython's hash table. That
 * order follows from the tuples' hashes (xxHash-based tuple hash, Python >= 3.8; a
 * small int hashes to itself), the insertion order, linear probing over 9 slots then
 * perturbed probing, and the table growing (x4) when it is 3/5 full. */

static uint64_t py_pair_hash(uint64_t a, uint64_t b)
{
    const uint64_t p1 = 11400714785074694791ULL, p2 = 14029467366897019727ULL, p5 = 2870177450012600261ULL;
    uint64_t acc = p5, lane[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        acc += lane[k] * p2;
        acc = (acc << 31) | (acc >> 33);
        acc *= p1;
    }
    acc += 2 ^ (p5 ^ 3527539ULL);
    return acc == UINT64_MAX ? 1546275796ULL : acc;
}

typedef struct pyslot { uint64_t hash; int32_t k; } pyslot; /* k: item index + 1, 0 = empty */

static void pyset_put(pyslot *tab, size_t mask, uint64_t h, int32_t k)
{
    size_t i = (size_t)h & mask, perturb = (size_t)h;
    for (;;) {
        size_t probes = i + 9 <= mask ? 9 : 0;
        for (size_t p = 0; p <= probes; p++)
            if (!tab[i + p].k) {
                tab[i + p] = (pyslot){h, k};
                return;
            }
        perturb >>= 5;
        i = (i * 5 + 1 + perturb) & mask;
    }
}

int tsql_diff_py_set_order(int32_t (*pairs)[2], size_t n)
{
    size_t size = 8, fill = 0;
    pyslot *tab = calloc(size, sizeof *tab);
    int32_t(*out)[2] = malloc((n + 1) * sizeof *out);
    if (!tab || !out) {
        free(tab);
        free(out);
        return -1;
    }
    for (size_t k = 0; k < n; k++) {
        pyset_put(tab, size - 1, py_pair_hash((uint64_t)pairs[k][0], (uint64_t)pairs[k][1]), (int32_t)k + 1);
        fill++;
        if (fill * 5 >= (size - 1) * 3) {
            size_t want = fill > 50000 ? fill * 2 : fill * 4, ns = 8;
            while (ns <= want) ns <<= 1;
            pyslot *nt = calloc(ns, sizeof *nt);
            if (!nt) {
                free(tab);
                free(out);
                return -1;
            }
            for (size_t i = 0; i < size; i++)
                if (tab[i].k) pyset_put(nt, ns - 1, tab[i].hash, tab[i].k);
            free(tab);
            tab = nt;
            size = ns;
        }
    }
    size_t o = 0;
    for (size_t i = 0; i < size; i++)
        if (tab[i].k) memcpy(out[o++], pairs[tab[i].k - 1], sizeof *out);
    memcpy(pairs, out, n * sizeof *pairs);
    free(tab);
    free(out);
    return 0;
}
