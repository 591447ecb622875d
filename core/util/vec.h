/*
 * vec.h — growable arrays: the growth step they share, and a vector of doubles (values
 * collected for a median, a standard deviation, a sum in a given order).
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

typedef struct dvec {
    double *v;
    size_t n, cap;
} dvec;

/* Appends x. 0, or -1 on OOM (the vector is unchanged). Free v with free(). */
static inline int dvec_push(dvec *d, double x)
{
    if (d->n == d->cap) {
        double *nv = tsql_grow(d->v, &d->cap, sizeof *nv, 16);
        if (!nv) return -1;
        d->v = nv;
    }
    d->v[d->n++] = x;
    return 0;
}

#endif
