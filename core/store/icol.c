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
    free(c->ov_row);
    free(c->ov_val);
    memset(c, 0, sizeof *c);
}

static uint32_t row_hash(uint32_t row)
{
    return (row * 2654435761u) ^ (row >> 15);
}

/* Grows the overflow map; 0 or -1 on OOM. */
static int ov_grow(tsql_icol *c)
{
    uint32_t ns = c->ov_slots ? c->ov_slots * 2 : 64;
    uint32_t *rows = calloc(ns, sizeof *rows);
    int64_t *vals = malloc(ns * sizeof *vals);
    if (!rows || !vals) {
        free(rows);
        free(vals);
        return -1;
    }
    for (uint32_t i = 0; i < c->ov_slots; i++) {
        if (!c->ov_row[i]) continue;
        uint32_t j = row_hash(c->ov_row[i] - 1) & (ns - 1);
        while (rows[j]) j = (j + 1) & (ns - 1);
        rows[j] = c->ov_row[i];
        vals[j] = c->ov_val[i];
    }
    free(c->ov_row);
    free(c->ov_val);
    c->ov_row = rows;
    c->ov_val = vals;
    c->ov_slots = ns;
    return 0;
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
    if ((c->ov_n + 1) * 2 > c->ov_slots && ov_grow(c) != 0) return -1;
    uint32_t j = row_hash(row) & (c->ov_slots - 1);
    while (c->ov_row[j] && c->ov_row[j] != row + 1) j = (j + 1) & (c->ov_slots - 1);
    if (!c->ov_row[j]) c->ov_n++;
    c->ov_row[j] = row + 1;
    c->ov_val[j] = val;
    c->v[row] = ICOL_OVF;
    return 0;
}

int64_t tsql_icol_get_slow(const tsql_icol *c, uint32_t row)
{
    if (!c->ov_slots) return TSQL_NULL;
    uint32_t j = row_hash(row) & (c->ov_slots - 1);
    while (c->ov_row[j]) {
        if (c->ov_row[j] == row + 1) return c->ov_val[j];
        j = (j + 1) & (c->ov_slots - 1);
    }
    return TSQL_NULL;
}

size_t tsql_icol_bytes(const tsql_icol *c, size_t cap)
{
    return cap * sizeof(int32_t) + (size_t)c->ov_slots * (sizeof(uint32_t) + sizeof(int64_t));
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
