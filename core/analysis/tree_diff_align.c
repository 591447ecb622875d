/* tree_diff_align.c — TraceDiff's alignment of two sibling lists (docs/diff.md, "How the
 * trees are merged"): positional pairing, or the edit distance with TraceLens's backtrack
 * and its same-name disambiguation. */
#include "analysis/tree_diff_align.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/tree_diff_pyset.h"
#include "analysis/tree_diff_side.h"
#include "util/sort.h"

/* ---------- edit distance (docs/diff.md, How the trees are merged (edit distance)) ---------- */

typedef struct levels {
    uint32_t nlev;
    uint32_t at[5];        /* level d is v[at[d] .. at[d+1]) */
    u32vec v;              /* sorted name ids per level */
} levels;

static int bfs_levels(ctx *c, const side *sd, uint32_t u, levels *L)
{
    u32vec fr = {0}, nx = {0};
    int rc = -1;
    L->nlev = 0;
    L->v.n = 0;
    L->at[0] = 0;
    if (u32vec_push(&fr, u)) goto out;
    for (int d = 0; d < 4; d++) {
        nx.n = 0;
        for (size_t i = 0; i < fr.n; i++) {
            const uint32_t *k = kids(sd, fr.v[i]);
            for (uint32_t j = 0, n = nkids(sd, fr.v[i]); j < n; j++) {
                if (!sd->gp[k[j]]) continue;
                uint32_t nm = td_name_id(c, sd, k[j], 0);
                if (nm == NOT_YET || u32vec_push(&nx, k[j]) || u32vec_push(&L->v, nm)) goto out;
            }
        }
        uint32_t a = L->at[L->nlev];
        tsql_qsort(L->v.v + a, L->v.n - a, sizeof *L->v.v, tsql_cmp_u32);
        L->at[++L->nlev] = (uint32_t)L->v.n;
        u32vec t = fr;
        fr = nx;
        nx = t;
        if (!fr.n) break;
    }
    rc = 0;
out:
    free(fr.v);
    free(nx.v);
    return rc;
}

/* (levels matched before the first difference, multiset overlap at it) */
static void match_depth(const levels *a, const levels *b, uint32_t *depth, uint32_t *overlap)
{
    uint32_t mx = a->nlev > b->nlev ? a->nlev : b->nlev;
    for (uint32_t d = 0; d < mx; d++) {
        const uint32_t *x = d < a->nlev ? a->v.v + a->at[d] : NULL;
        const uint32_t *y = d < b->nlev ? b->v.v + b->at[d] : NULL;
        uint32_t nx = d < a->nlev ? a->at[d + 1] - a->at[d] : 0;
        uint32_t ny = d < b->nlev ? b->at[d + 1] - b->at[d] : 0;
        int same = nx == ny && (nx == 0 || memcmp(x, y, nx * sizeof *x) == 0);
        if (!same) {
            uint32_t i = 0, j = 0, o = 0;
            while (i < nx && j < ny) {
                if (x[i] == y[j]) {
                    o++;
                    i++;
                    j++;
                } else if (x[i] < y[j]) i++;
                else j++;
            }
            *depth = d;
            *overlap = o;
            return;
        }
    }
    *depth = mx;
    *overlap = 0;
}

typedef struct scored { uint32_t depth, overlap; uint8_t orig; uint32_t i, j; } scored;

static int cmp_scored(const void *x, const void *y)
{
    const scored *a = x, *b = y;
    if (a->depth != b->depth) return a->depth > b->depth ? -1 : 1;
    if (a->overlap != b->overlap) return a->overlap > b->overlap ? -1 : 1;
    if (a->orig != b->orig) return a->orig ? -1 : 1;
    if (a->i != b->i) return a->i < b->i ? -1 : 1;
    return (a->j > b->j) - (a->j < b->j);
}

typedef struct nidx { uint32_t name, idx; } nidx;

static int cmp_nidx(const void *x, const void *y)
{
    const nidx *a = x, *b = y;
    if (a->name != b->name) return a->name < b->name ? -1 : 1;
    return (a->idx > b->idx) - (a->idx < b->idx);
}

static int cmp_pair(const void *x, const void *y)
{
    const dop *a = x, *b = y;
    if (a->i != b->i) return a->i < b->i ? -1 : 1;
    return (a->j > b->j) - (a->j < b->j);
}

/* The matches m (OP_MATCH ops) reordered as Python iterates a set of their (i, j). */
static int py_set_order(dopvec *m)
{
    int32_t(*pairs)[2] = malloc((m->n + 1) * sizeof *pairs);
    if (!pairs) return -1;
    for (size_t k = 0; k < m->n; k++) {
        pairs[k][0] = m->v[k].i;
        pairs[k][1] = m->v[k].j;
    }
    int rc = tsql_diff_py_set_order(pairs, m->n);
    for (size_t k = 0; k < m->n && !rc; k++) m->v[k] = (dop){OP_MATCH, pairs[k][0], pairs[k][1]};
    free(pairs);
    return rc;
}

/* Same-name disambiguation (docs/diff.md, How the trees are merged (edit distance)) of ops over
 * a[0..m), b[0..n). */
static int disambiguate(ctx *c, const uint32_t *a, size_t m, const uint32_t *b, size_t n, dopvec *ops)
{
    int rc = -1;
    uint32_t *nm1 = malloc((m + 1) * sizeof *nm1), *nm2 = malloc((n + 1) * sizeof *nm2);
    int32_t *mj = malloc((m + 1) * sizeof *mj);
    uint8_t *h1 = calloc(m + 1, 1), *h2 = calloc(n + 1, 1), *a1 = calloc(m + 1, 1), *a2 = calloc(n + 1, 1);
    nidx *s1 = malloc((m + 1) * sizeof *s1), *s2 = malloc((n + 1) * sizeof *s2);
    u32vec matched = {0};
    dopvec nmat = {0}, ndel = {0}, nins = {0}, fin = {0};
    levels *L1 = NULL, *L2 = NULL;
    scored *sc = NULL;
    size_t nL1 = 0, nL2 = 0;
    if (!nm1 || !nm2 || !mj || !h1 || !h2 || !a1 || !a2 || !s1 || !s2) goto out;
    for (size_t i = 0; i < m; i++) {
        nm1[i] = td_name_id(c, &c->s[0], a[i], 0);
        if (nm1[i] == NOT_YET) goto out;
        mj[i] = -1;
        s1[i] = (nidx){nm1[i], (uint32_t)i};
    }
    for (size_t j = 0; j < n; j++) {
        nm2[j] = td_name_id(c, &c->s[1], b[j], 0);
        if (nm2[j] == NOT_YET) goto out;
        s2[j] = (nidx){nm2[j], (uint32_t)j};
    }
    for (size_t k = 0; k < ops->n; k++)
        if (ops->v[k].op == OP_MATCH) {
            mj[ops->v[k].i] = ops->v[k].j;
            if (u32vec_push(&matched, nm1[ops->v[k].i]) || u32vec_push(&matched, nm2[ops->v[k].j])) goto out;
        }
    if (!matched.n) {
        rc = 0;
        goto out;
    }
    tsql_qsort(matched.v, matched.n, sizeof *matched.v, tsql_cmp_u32);
    tsql_qsort(s1, m, sizeof *s1, cmp_nidx);
    tsql_qsort(s2, n, sizeof *s2, cmp_nidx);
    int any = 0;
    size_t p = 0, q = 0;
    while (p < m && q < n) {
        if (s1[p].name < s2[q].name) {
            p++;
            continue;
        }
        if (s1[p].name > s2[q].name) {
            q++;
            continue;
        }
        uint32_t name = s1[p].name;
        size_t p1 = p, q1 = q;
        while (p1 < m && s1[p1].name == name) p1++;
        while (q1 < n && s2[q1].name == name) q1++;
        size_t ni = p1 - p, nj = q1 - q;
        int in_matched = bsearch(&name, matched.v, matched.n, sizeof *matched.v, tsql_cmp_u32) != NULL;
        if (in_matched && (ni > 1 || nj > 1)) {
            any = 1;
            free(L1);
            free(L2);
            L1 = calloc(ni, sizeof *L1);
            L2 = calloc(nj, sizeof *L2);
            nL1 = ni;
            nL2 = nj;
            free(sc);
            sc = malloc(ni * nj * sizeof *sc);
            if (!L1 || !L2 || !sc) goto out;
            for (size_t i = 0; i < ni; i++) {
                h1[s1[p + i].idx] = 1;
                if (bfs_levels(c, &c->s[0], a[s1[p + i].idx], &L1[i])) goto out;
            }
            for (size_t j = 0; j < nj; j++) {
                h2[s2[q + j].idx] = 1;
                if (bfs_levels(c, &c->s[1], b[s2[q + j].idx], &L2[j])) goto out;
            }
            size_t ns = 0;
            for (size_t i = 0; i < ni; i++)
                for (size_t j = 0; j < nj; j++) {
                    scored x = {0, 0, 0, s1[p + i].idx, s2[q + j].idx};
                    match_depth(&L1[i], &L2[j], &x.depth, &x.overlap);
                    x.orig = mj[x.i] == (int32_t)x.j;
                    sc[ns++] = x;
                }
            tsql_qsort(sc, ns, sizeof *sc, cmp_scored);
            size_t want = ni < nj ? ni : nj, got = 0;
            for (size_t k = 0; k < ns && got < want; k++) {
                if (a1[sc[k].i] || a2[sc[k].j]) continue;
                a1[sc[k].i] = a2[sc[k].j] = 1;
                got++;
                if (dopvec_push(&nmat, (dop){OP_MATCH, (int32_t)sc[k].i, (int32_t)sc[k].j})) goto out;
            }
            for (size_t i = 0; i < ni; i++)
                if (!a1[s1[p + i].idx] && dopvec_push(&ndel, (dop){OP_DEL, (int32_t)s1[p + i].idx, -1})) goto out;
            for (size_t j = 0; j < nj; j++)
                if (!a2[s2[q + j].idx] && dopvec_push(&nins, (dop){OP_INS, -1, (int32_t)s2[q + j].idx})) goto out;
            for (size_t i = 0; i < nL1; i++) free(L1[i].v.v);
            for (size_t j = 0; j < nL2; j++) free(L2[j].v.v);
            nL1 = nL2 = 0;
        }
        p = p1;
        q = q1;
    }
    if (!any) {
        rc = 0;
        goto out;
    }
    int subset = 1;
    for (size_t k = 0; k < nmat.n && subset; k++) subset = mj[nmat.v[k].i] == nmat.v[k].j;
    if (subset) {
        rc = 0;
        goto out;
    }
    for (size_t k = 0; k < ops->n; k++) {
        dop o = ops->v[k];
        int handled = (o.op == OP_MATCH && (h1[o.i] || h2[o.j])) || (o.op == OP_DEL && h1[o.i]) ||
                      (o.op == OP_INS && h2[o.j]);
        if (!handled && dopvec_push(&fin, o)) goto out;
    }
    /* the new matches in Python's set order (their insertion order: names by id, then
     * greedily; TraceLens takes the names in string-hash order, which varies by run) */
    if (py_set_order(&nmat)) goto out;
    tsql_qsort(ndel.v, ndel.n, sizeof *ndel.v, cmp_pair);
    tsql_qsort(nins.v, nins.n, sizeof *nins.v, cmp_pair);
    for (size_t k = 0; k < nmat.n; k++)
        if (dopvec_push(&fin, nmat.v[k])) goto out;
    for (size_t k = 0; k < ndel.n; k++)
        if (dopvec_push(&fin, ndel.v[k])) goto out;
    for (size_t k = 0; k < nins.n; k++)
        if (dopvec_push(&fin, nins.v[k])) goto out;
    free(ops->v);
    *ops = fin;
    fin.v = NULL;
    rc = 0;
out:
    if (L1)
        for (size_t i = 0; i < nL1; i++) free(L1[i].v.v);
    if (L2)
        for (size_t j = 0; j < nL2; j++) free(L2[j].v.v);
    free(L1);
    free(L2);
    free(sc);
    free(nm1);
    free(nm2);
    free(mj);
    free(h1);
    free(h2);
    free(a1);
    free(a2);
    free(s1);
    free(s2);
    free(matched.v);
    free(nmat.v);
    free(ndel.v);
    free(nins.v);
    free(fin.v);
    return rc;
}

/* Wagner-Fischer with TraceLens's backtrack, then the disambiguation: ops over
 * a[0..m) (baseline uids) and b[0..n) (variant uids). */
int td_aligned_wf(ctx *c, const uint32_t *a, size_t m, const uint32_t *b, size_t n, int strip, dopvec *ops)
{
    ops->n = 0;
    if ((double)(m + 1) * (double)(n + 1) > 4e9) {
        c->why = "tree_diff: a sibling list is too long for the edit distance";
        return -1;
    }
    uint32_t *na = malloc((m + 1) * sizeof *na), *nb = malloc((n + 1) * sizeof *nb);
    uint32_t *prev = malloc((n + 1) * sizeof *prev), *cur = malloc((n + 1) * sizeof *cur);
    size_t nbits = (m + 1) * (n + 1);
    uint8_t *up = calloc(nbits / 8 + 1, 1); /* bit (i, j): D[i][j] == D[i-1][j] + 1 */
    dopvec rev = {0};
    int rc = -1;
    if (!na || !nb || !prev || !cur || !up) goto out;
    for (size_t i = 0; i < m; i++)
        if ((na[i] = td_wf_name(c, &c->s[0], a[i], strip)) == NOT_YET) goto out;
    for (size_t j = 0; j < n; j++)
        if ((nb[j] = td_wf_name(c, &c->s[1], b[j], strip)) == NOT_YET) goto out;
    for (size_t j = 0; j <= n; j++) prev[j] = (uint32_t)j;
    for (size_t i = 1; i <= m; i++) {
        cur[0] = (uint32_t)i;
        for (size_t j = 1; j <= n; j++) {
            uint32_t del = prev[j] + 1, ins = cur[j - 1] + 1, sub = prev[j - 1] + (na[i - 1] != nb[j - 1]);
            uint32_t v = del < ins ? del : ins;
            if (sub < v) v = sub;
            cur[j] = v;
            if (v == del) {
                size_t bit = i * (n + 1) + j;
                up[bit >> 3] |= (uint8_t)(1u << (bit & 7));
            }
        }
        uint32_t *t = prev;
        prev = cur;
        cur = t;
    }
    size_t i = m, j = n;
    while (i > 0 || j > 0) {
        dop o;
        size_t bit = i * (n + 1) + j;
        if (i > 0 && j > 0 && na[i - 1] == nb[j - 1]) {
            o = (dop){OP_MATCH, (int32_t)(i - 1), (int32_t)(j - 1)};
            i--;
            j--;
        } else if (i > 0 && (j == 0 || (up[bit >> 3] >> (bit & 7) & 1))) {
            o = (dop){OP_DEL, (int32_t)(i - 1), -1};
            i--;
        } else {
            o = (dop){OP_INS, -1, (int32_t)(j - 1)};
            j--;
        }
        if (dopvec_push(&rev, o)) goto out;
    }
    for (size_t k = rev.n; k-- > 0;)
        if (dopvec_push(ops, rev.v[k])) goto out;
    rc = disambiguate(c, a, m, b, n, ops);
out:
    free(na);
    free(nb);
    free(prev);
    free(cur);
    free(up);
    free(rev.v);
    return rc;
}

/* ---------- merging one pair (docs/diff.md, How the trees are merged (Children)) ---------- */

static int any_dispatch(const side *sd, const uint32_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (td_dispatch(sd, v[i])) return 1;
    return 0;
}

/* positional pairing when the lengths agree and no dispatch node is among them, else
 * aligned_wf */
int td_align(ctx *c, const uint32_t *a, size_t m, const uint32_t *b, size_t n, dopvec *ops)
{
    ops->n = 0;
    if (m == n && !any_dispatch(&c->s[0], a, m) && !any_dispatch(&c->s[1], b, n)) {
        for (size_t i = 0; i < m; i++)
            if (dopvec_push(ops, (dop){OP_MATCH, (int32_t)i, (int32_t)i})) return -1;
        return 0;
    }
    return td_aligned_wf(c, a, m, b, n, 0, ops);
}
