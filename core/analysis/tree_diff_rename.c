/* tree_diff_rename.c — the op names of cpu_op_map.json (TraceLens's get_rename_map;
 * docs/diff.md, "tree_diff_cpu_op_map()"). */
#include "analysis/tree_diff_rename.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/tree_diff_side.h"
#include "util/sort.h"

/* ---------- cpu_op_map's renaming (TraceLens's get_rename_map) ---------- */

/* text id of s[0..n) in names, 0 on OOM */
static uint32_t text_id(tsql_intern *names, const char *s, size_t n)
{
    return tsql_intern_add(names, s, n);
}

static const char *after_colons(const char *s)
{
    const char *p = s, *q;
    while ((q = strstr(p, "::"))) p = q + 2;
    return p;
}

/* find_common_name: every op's nn_module_parent is "root" here (no Python frames) */
static uint32_t common_name(tsql_intern *names, const char *n1, const char *n2, tsql_buf *tmp)
{
    const char *a = after_colons(n1), *b = after_colons(n2);
    if (strcmp(a, b) == 0 || strstr(b, a)) return text_id(names, a, strlen(a));
    if (strstr(a, b)) return text_id(names, b, strlen(b));
    size_t la = strlen(a), lb = strlen(b);
    size_t pa = la < 20 ? la : 20, pb = lb < 20 ? lb : 20;
    if (pa == pb && memcmp(a, b, pa) == 0) {
        tmp->n = 0;
        if (tsql_bput(tmp, a, la) || tsql_bput(tmp, "/", 1) || tsql_bput(tmp, b, lb)) return 0;
        return text_id(names, tmp->p, tmp->n);
    }
    return text_id(names, "root", 4);
}

static int push_unique(u32vec *v, uint32_t x)
{
    for (size_t i = 0; i < v->n; i++)
        if (v->v[i] == x) return 0;
    return u32vec_push(v, x);
}

int td_rename_ops(ctx *c, tsql_tree_diff *d)
{
    tsql_intern *N = c->names;
    uint32_t nr = d->nrows;
    uint32_t *opn = malloc(((size_t)nr + 1) * sizeof *opn);
    uint32_t *ren = NULL; /* text id -> renamed text id (0 = itself) */
    uint32_t *first = NULL;
    uint64_t *ord = NULL;
    uint8_t *seen = NULL;  /* op names already paired under an earlier LCA */
    u32vec l1 = {0}, l2 = {0}, l1c = {0};
    int rc = -1;
    if (!opn) goto out;
    for (uint32_t i = 0; i < nr; i++) {
        char num[16];
        const side *sd = &c->s[d->rows[i].side - 1];
        const char *s = td_op_name(sd, d->rows[i].op, num);
        if (!(opn[i] = text_id(N, s, strlen(s)))) goto out;
    }
    /* the rows of each LCA, LCAs in order of first appearance (pandas' unique()) */
    first = malloc(((size_t)d->n + 1) * sizeof *first);
    ord = malloc(((size_t)nr + 1) * sizeof *ord);
    seen = calloc((size_t)N->n + 1, 1);
    if (!first || !ord || !seen) goto out;
    for (uint32_t m = 0; m < d->n; m++) first[m] = NONE;
    size_t no = 0;
    for (uint32_t i = 0; i < nr; i++) {
        uint32_t l = d->rows[i].lca;
        if (l == NONE) continue;
        if (first[l] == NONE) first[l] = i;
        ord[no++] = ((uint64_t)first[l] << 32) | i;
    }
    tsql_qsort(ord, no, sizeof *ord, tsql_cmp_u64);
    ren = calloc((size_t)N->n + 64, sizeof *ren);
    size_t nren = (size_t)N->n + 64;
    if (!ren) goto out;
#define RENAME(x, to)                                                                   \
    do {                                                                                \
        if ((x) >= nren) {                                                              \
            size_t nn = (size_t)(x) * 2 + 64;                                           \
            uint32_t *r2 = realloc(ren, nn * sizeof *r2);                               \
            if (!r2) goto out;                                                          \
            memset(r2 + nren, 0, (nn - nren) * sizeof *r2);                             \
            ren = r2;                                                                   \
            nren = nn;                                                                  \
        }                                                                               \
        ren[(x)] = (to);                                                                \
    } while (0)
    for (size_t g = 0; g < no;) {
        size_t h = g;
        while (h < no && ord[h] >> 32 == ord[g] >> 32) h++;
        l1.n = l2.n = 0;
        for (size_t k = g; k < h; k++) {
            uint32_t i = (uint32_t)ord[k];
            if (push_unique(d->rows[i].side == 1 ? &l1 : &l2, opn[i])) goto out;
        }
        g = h;
        if (!l1.n || !l2.n) continue;
        int all = 1;
        for (size_t i = 0; i < l1.n && all; i++) all = seen[l1.v[i]];
        for (size_t i = 0; i < l2.n && all; i++) all = seen[l2.v[i]];
        if (all) continue;
        for (size_t i = 0; i < l1.n; i++) seen[l1.v[i]] = 1;
        for (size_t i = 0; i < l2.n; i++) seen[l2.v[i]] = 1;
        if (l1.n == l2.n) {
            for (size_t i = 0; i < l1.n; i++) {
                if (l1.v[i] == l2.v[i]) continue;
                uint32_t cn = common_name(N, tsql_intern_str(N, l1.v[i]), tsql_intern_str(N, l2.v[i]), &c->tmp2);
                if (!cn) goto out;
                RENAME(l2.v[i], cn);
                RENAME(l1.v[i], cn);
            }
        } else {
            /* drop the names both lists hold, then pair the rest greedily */
            l1c.n = 0;
            for (size_t i = 0; i < l1.n; i++)
                if (u32vec_push(&l1c, l1.v[i])) goto out;
            for (size_t i = 0; i < l1.n; i++) {
                long at = find_last(&l2, l1.v[i]);
                if (at < 0) continue;
                long a1 = find_last(&l1c, l1.v[i]);
                memmove(l1c.v + a1, l1c.v + a1 + 1, (l1c.n - (size_t)a1 - 1) * sizeof *l1c.v);
                l1c.n--;
                memmove(l2.v + at, l2.v + at + 1, (l2.n - (size_t)at - 1) * sizeof *l2.v);
                l2.n--;
            }
            for (size_t i = 0; i < l1c.n; i++) {
                if (!l2.n) continue;
                /* the first remaining name always has a common name ("root" at worst) */
                uint32_t cn = common_name(N, tsql_intern_str(N, l1c.v[i]), tsql_intern_str(N, l2.v[0]), &c->tmp2);
                if (!cn) goto out;
                RENAME(l1c.v[i], cn);
                RENAME(l2.v[0], cn);
                memmove(l2.v, l2.v + 1, (l2.n - 1) * sizeof *l2.v);
                l2.n--;
            }
        }
    }
#undef RENAME
    for (uint32_t i = 0; i < nr; i++) {
        d->rows[i].op_name = opn[i];
        d->rows[i].op_map_name = opn[i] < nren && ren[opn[i]] ? ren[opn[i]] : opn[i];
    }
    rc = 0;
out:
    free(opn);
    free(ren);
    free(first);
    free(ord);
    free(seen);
    free(l1.v);
    free(l2.v);
    free(l1c.v);
    return rc;
}

