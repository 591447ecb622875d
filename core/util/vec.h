/*
 * vec.h — growable arrays: the growth step they share, the vector type every one of
 * them is (TSQL_VEC), and dvec, a vector of doubles (values collected for a median, a
 * standard deviation, a sum in a given order). u32vec.h has the vector of uids.
 */
#ifndef TSQL_VEC_H
#define TSQL_VEC_H

#include <stdint.h>
#include <stdlib.h>

/* p (an array of *cap elements of elem bytes) reallocated to twice as many, or to first
 * when *cap is 0; *cap is updated. NULL on OOM or overflow: p is then unchanged. */
static inline void *tsql_grow(void *p, size_t *cap, size_t elem, size_t first)
{
    size_t nc = *cap ? *cap * 2 : first;
    if (nc < *cap || nc > SIZE_MAX / elem) return NULL;
    void *np = realloc(p, nc * elem);
    if (np) *cap = nc;
    return np;
}

/* Defines the vector type name ({v, n, cap}, zero-initialised = empty, v freed with
 * free()) and name_push(vec, x): appends x, 0 or -1 on OOM (the vector unchanged). */
/* NOLINTBEGIN(bugprone-macro-parentheses): name and type are an identifier and a type */
#define TSQL_VEC(name, type, first_cap)                                                    \
    typedef struct name {                                                                  \
        type *v;                                                                           \
        size_t n, cap;                                                                     \
    } name;                                                                                \
    static inline int name##_push(name *a, type x)                                         \
    {                                                                                      \
        if (a->n == a->cap) {                                                              \
            type *nv = tsql_grow(a->v, &a->cap, sizeof *nv, (first_cap));                  \
            if (!nv) return -1;                                                            \
            a->v = nv;                                                                     \
        }                                                                                  \
        a->v[a->n++] = x;                                                                  \
        return 0;                                                                          \
    }
/* NOLINTEND(bugprone-macro-parentheses) */

TSQL_VEC(dvec, double, 16)

#endif
