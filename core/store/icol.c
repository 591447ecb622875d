/* icol.c — overflow side of the compact int64 column; see icol.h. */
#include "store/icol.h"

#include <stdlib.h>
#include <string.h>

#include "store/colmem.h"

int tsql_icol_reserve(tsql_icol *c, size_t cap)
{
    int32_t *v = tsql_col_realloc(c->v, cap * sizeof *v);
    if (!v) return -1;
    c->v = v;
    return 0;
}

void tsql_icol_free(tsql_icol *c)
{
    if (!c) return;
    tsql_col_free(c->v);
    tsql_idtab_free(&c->ov);
    free(c->ov_row);
    free(c->ov_val);
    memset(c, 0, sizeof *c);
}

static uint32_t row_hash(uint32_t row)
{
    return (row * 2654435761u) ^ (row >> 15);
}

/* What an overflow entry is compared with: the row looked for. */
typedef struct wanted_row {
    const tsql_icol *c;
    uint32_t row;
} wanted_row;

static inline int same_row(const void *key, uint32_t k, uint32_t j)
{
    (void)j;
    const wanted_row *w = key;
    return w->c->ov_row[k] == w->row;
}

static uint32_t hash_of_entry(const void *ctx, uint32_t k)
{
    const tsql_icol *c = ctx;
    return row_hash(c->ov_row[k]);
}

/* Room for one more overflow entry; 0 or -1 on OOM. */
static int ov_room(tsql_icol *c)
{
    if (c->ov_n == c->ov_cap) {
        if (c->ov_cap >= UINT32_MAX / 2) return -1;
        uint32_t nc = c->ov_cap ? c->ov_cap * 2 : 32;
        uint32_t *rows = realloc(c->ov_row, (size_t)nc * sizeof *rows);
        if (!rows) return -1;
        c->ov_row = rows;
        int64_t *vals = realloc(c->ov_val, (size_t)nc * sizeof *vals);
        if (!vals) return -1; /* ov_row has the room already: fine for the next try */
        c->ov_val = vals;
        c->ov_cap = nc;
    }
    return tsql_idtab_room(&c->ov, hash_of_entry, c);
}

int tsql_icol_set_slow(tsql_icol *c, uint32_t row, int64_t val)
{
    if (val == TSQL_NULL) {
        c->v[row] = ICOL_NULL;
        return 0;
    }
    if (!c->has_base) {
        c->has_base = 1;
        c->base = val;
        c->v[row] = 0;
        return 0;
    }
    int64_t d;
    if (!__builtin_sub_overflow(val, c->base, &d) && d > ICOL_OVF && d <= INT32_MAX) {
        c->v[row] = (int32_t)d;
        return 0;
    }
    if (ov_room(c)) return -1;
    wanted_row w = {c, row};
    uint32_t j = tsql_idtab_find(&c->ov, row_hash(row), same_row, &w);
    uint32_t k = c->ov.slot[j];
    if (k == TSQL_IDTAB_EMPTY) {
        k = c->ov_n++;
        c->ov_row[k] = row;
        tsql_idtab_set(&c->ov, j, k);
    }
    c->ov_val[k] = val;
    c->v[row] = ICOL_OVF;
    return 0;
}

int64_t tsql_icol_get_slow(const tsql_icol *c, uint32_t row)
{
    wanted_row w = {c, row};
    uint32_t k = tsql_idtab_get(&c->ov, row_hash(row), same_row, &w);
    return k == TSQL_IDTAB_EMPTY ? TSQL_NULL : c->ov_val[k];
}

size_t tsql_icol_bytes(const tsql_icol *c, size_t cap)
{
    return cap * sizeof(int32_t) + (size_t)c->ov.nslots * sizeof(uint32_t) +
           (size_t)c->ov_cap * (sizeof(uint32_t) + sizeof(int64_t));
}

int tsql_icol_append(tsql_icol *dst, uint32_t at, const tsql_icol *src, uint32_t n)
{
    if (src->has_base && !dst->has_base) {
        dst->has_base = 1;
        dst->base = src->base;
    }
    /* same base and no overflow: the stored offsets carry over as they are */
    if (!src->has_base || (src->base == dst->base && src->ov_n == 0)) {
        memcpy(dst->v + at, src->v, (size_t)n * sizeof *src->v);
        return 0;
    }
    /* re-base: the same shift for every stored offset; overflow rows the slow way */
    int64_t delta;
    if (__builtin_sub_overflow(src->base, dst->base, &delta) || delta < -(INT64_C(1) << 40) ||
        delta > (INT64_C(1) << 40))
        delta = INT64_MAX; /* no shift fits: every row the slow way */
    for (uint32_t i = 0; i < n; i++) {
        int32_t x = src->v[i];
        if (x == ICOL_NULL) {
            dst->v[at + i] = ICOL_NULL;
            continue;
        }
        if (x != ICOL_OVF && delta != INT64_MAX) {
            int64_t y = (int64_t)x + delta;
            if (y > ICOL_OVF && y <= INT32_MAX) {
                dst->v[at + i] = (int32_t)y;
                continue;
            }
        }
        if (tsql_icol_set(dst, at + i, tsql_icol_get(src, i))) return -1;
    }
    return 0;
}
