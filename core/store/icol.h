/*
 * icol.h — a compact nullable int64 column.
 *
 * Ids in a trace (correlation, External id, Python id, stream, ...) are 64-bit in
 * principle but cluster in a narrow range, so each value is stored as a 32-bit offset
 * from the column's first value; the rare value that does not fit goes to a small
 * overflow map keyed by row (entries in an array, found through an idtable.h table). Half the memory of an int64 array, same answers.
 */
#ifndef TSQL_ICOL_H
#define TSQL_ICOL_H

#include <stdint.h>
#include <stddef.h>

#include "util/idtable.h"

#define TSQL_NULL INT64_MIN          /* "no value" in every int64 API of core/ */

#define ICOL_NULL INT32_MIN          /* stored: no value */
#define ICOL_OVF (INT32_MIN + 1)     /* stored: value is in the overflow map */

typedef struct tsql_icol {
    int32_t *v;          /* one entry per row */
    int64_t base;        /* value of stored 0 */
    int has_base;
    tsql_idtab ov;       /* overflow map: row -> entry k, ov_row[k] -> ov_val[k] */
    uint32_t *ov_row;
    int64_t *ov_val;
    uint32_t ov_n, ov_cap; /* entries held, room in ov_row / ov_val */
} tsql_icol;

/* Resizes v to cap rows (new rows are not initialised). Returns 0 or -1 on OOM. */
int tsql_icol_reserve(tsql_icol *c, size_t cap);
void tsql_icol_free(tsql_icol *c);

/* Stores val (TSQL_NULL allowed) at row. Returns 0 or -1 on OOM. */
int tsql_icol_set_slow(tsql_icol *c, uint32_t row, int64_t val);
int64_t tsql_icol_get_slow(const tsql_icol *c, uint32_t row);

static inline int tsql_icol_set(tsql_icol *c, uint32_t row, int64_t val)
{
    if (val != TSQL_NULL && c->has_base) {
        int64_t d;
        if (!__builtin_sub_overflow(val, c->base, &d) && d > ICOL_OVF && d <= INT32_MAX) {
            c->v[row] = (int32_t)d;
            return 0;
        }
    }
    return tsql_icol_set_slow(c, row, val);
}

static inline int64_t tsql_icol_get(const tsql_icol *c, uint32_t row)
{
    int32_t x = c->v[row];
    if (x > ICOL_OVF) return c->base + x;
    if (x == ICOL_NULL) return TSQL_NULL;
    return tsql_icol_get_slow(c, row);
}

/* Copies rows [0, n) of src to rows [at, at + n) of dst, whose v must hold them.
 * Returns 0 or -1 on OOM. */
int tsql_icol_append(tsql_icol *dst, uint32_t at, const tsql_icol *src, uint32_t n);

/* Bytes held by the column for cap rows. */
size_t tsql_icol_bytes(const tsql_icol *c, size_t cap);

#endif
