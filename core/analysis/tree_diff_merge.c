/* tree_diff_merge.c — TraceDiff's merge (docs/diff.md, "How the trees are merged"): one
 * pair of nodes at a time, their children aligned, the merged tree grown iteratively. */
#include "analysis/tree_diff_merge.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/tree_diff_align.h"
#include "analysis/tree_diff_side.h"
#include "util/sort.h"
#include "util/u64map.h"

/* children of u on side s for get_children_with_missing: GPU-path ones plus, for each
 * name the other side has among its GPU-path children and this side has only off the
 * GPU path, the last child of that name */
static int with_missing(ctx *c, int s, uint32_t u, uint32_t other, u32vec *out)
{
    const side *sd = &c->s[s], *od = &c->s[1 - s];
    out->n = 0;
    if (u == NONE) return 0;
    if (td_gpu_kids(sd, u, out)) return -1;
    if (other == NONE) return td_sort_by_ts(sd, out->v, out->n);
    u32vec mine = {0}, theirs = {0}, extra = {0};
    int rc = -1;
    for (size_t i = 0; i < out->n; i++) {
        uint32_t nm = td_name_id(c, sd, out->v[i], 0);
        if (nm == NOT_YET || u32vec_push(&mine, nm)) goto out;
    }
    if (td_gpu_kids(od, other, &theirs)) goto out;
    for (size_t i = 0; i < theirs.n; i++) {
        uint32_t nm = td_name_id(c, od, theirs.v[i], 0);
        if (nm == NOT_YET) goto out;
        theirs.v[i] = nm;
    }
    tsql_qsort(mine.v, mine.n, sizeof *mine.v, tsql_cmp_u32);
    tsql_qsort(theirs.v, theirs.n, sizeof *theirs.v, tsql_cmp_u32);
    /* names on the other side's GPU path missing from ours */
    for (size_t i = 0; i < theirs.n; i++) {
        if (i && theirs.v[i] == theirs.v[i - 1]) continue;
        if (mine.n && bsearch(&theirs.v[i], mine.v, mine.n, sizeof *mine.v, tsql_cmp_u32)) continue;
        const uint32_t *k = kids(sd, u);
        uint32_t last = NONE;
        for (uint32_t j = 0, n = nkids(sd, u); j < n; j++) {
            uint32_t nm = td_name_id(c, sd, k[j], 0);
            if (nm == NOT_YET) goto out;
            if (nm == theirs.v[i]) last = k[j];
        }
        if (last != NONE && u32vec_push(&extra, last)) goto out;
    }
    for (size_t i = 0; i < extra.n; i++)
        if (u32vec_push(out, extra.v[i])) goto out;
    rc = td_sort_by_ts(sd, out->v, out->n);
out:
    free(mine.v);
    free(theirs.v);
    free(extra.v);
    return rc;
}

static int same_names(ctx *c, const side *s1, const u32vec *x, const side *s2, const u32vec *y)
{
    if (x->n != y->n) return 0;
    for (size_t i = 0; i < x->n; i++)
        if (td_name_id(c, s1, x->v[i], 0) != td_name_id(c, s2, y->v[i], 0)) return 0;
    return 1;
}

static int contains_name(ctx *c, const side *sd, const u32vec *v, uint32_t nm)
{
    for (size_t i = 0; i < v->n; i++)
        if (td_name_id(c, sd, v->v[i], 0) == nm) return 1;
    return 0;
}

/* The deleted baseline indexes and inserted variant indexes of ops, appended to del and
 * ins in op order. 0 or -1 on OOM. */
static int unmatched(const dopvec *ops, u32vec *del, u32vec *ins)
{
    for (size_t k = 0; k < ops->n; k++) {
        if (ops->v[k].op == OP_DEL && u32vec_push(del, (uint32_t)ops->v[k].i)) return -1;
        if (ops->v[k].op == OP_INS && u32vec_push(ins, (uint32_t)ops->v[k].j)) return -1;
    }
    return 0;
}

/* ops aligned over sub-lists, appended to to with their indexes taken back to the full
 * lists (mi[i], mj[j]). 0 or -1 on OOM. */
static int push_mapped(dopvec *to, const dopvec *ops, const uint32_t *mi, const uint32_t *mj)
{
    for (size_t k = 0; k < ops->n; k++) {
        dop o = ops->v[k];
        dop x = {o.op, o.i >= 0 ? (int32_t)mi[o.i] : -1, o.j >= 0 ? (int32_t)mj[o.j] : -1};
        if (dopvec_push(to, x)) return -1;
    }
    return 0;
}

/* Phase 3: wrapper reconciliation. */
static int reconcile(ctx *c, dopvec *ops, u32vec *c1, u32vec *c2)
{
    const side *A = &c->s[0], *B = &c->s[1];
    u32vec dels = {0}, inss = {0}, r1 = {0}, r2 = {0}, imm_d = {0}, imm_i = {0};
    u32vec *sub1 = NULL, *sub2 = NULL;
    uint8_t *has1 = NULL, *has2 = NULL;
    dopvec nops = {0}, fops = {0};
    u32vec free1 = {0}, free2 = {0}, fi1 = {0}, fi2 = {0};
    uint8_t *pin1 = NULL, *pin2 = NULL;
    size_t n1 = c1->n, n2 = c2->n;
    int rc = -1;
    if (unmatched(ops, &dels, &inss)) goto out;
    if (!dels.n || !inss.n) {
        rc = 0;
        goto out;
    }
    sub1 = calloc(c1->n + 1, sizeof *sub1);
    sub2 = calloc(c2->n + 1, sizeof *sub2);
    has1 = calloc(c1->n + 1, 1);
    has2 = calloc(c2->n + 1, 1);
    if (!sub1 || !sub2 || !has1 || !has2) goto out;
    int changed = 0;
    for (size_t x = 0; x < dels.n; x++)
        for (size_t y = 0; y < inss.n; y++) {
            uint32_t di = dels.v[x], ii = inss.v[y];
            uint32_t ud = c1->v[di], ui = c2->v[ii];
            int kd = A->t->kind[ud], ki = B->t->kind[ui];
            if (((kd == TSQL_K_KERNEL || tsql_kind_is_launch(kd)) && !td_graph_launch(A->t, ud)) ||
                ((ki == TSQL_K_KERNEL || tsql_kind_is_launch(ki)) && !td_graph_launch(B->t, ui)))
                continue;
            uint32_t nd = td_name_id(c, A, ud, 0), ni = td_name_id(c, B, ui, 0);
            if (nd == NOT_YET || ni == NOT_YET) goto out;
            imm_d.n = imm_i.n = 0;
            if (td_gpu_kids(A, ud, &imm_d) || td_gpu_kids(B, ui, &imm_i)) goto out;
            if (nd && contains_name(c, B, &imm_i, nd)) {
                sub2[ii].n = 0;
                for (size_t k = 0; k < imm_i.n; k++)
                    if (u32vec_push(&sub2[ii], imm_i.v[k])) goto out;
                has2[ii] = 1;
                changed = 1;
            }
            if (ni && contains_name(c, A, &imm_d, ni)) {
                sub1[di].n = 0;
                for (size_t k = 0; k < imm_d.n; k++)
                    if (u32vec_push(&sub1[di], imm_d.v[k])) goto out;
                has1[di] = 1;
                changed = 1;
            }
            if (imm_d.n && imm_i.n && same_names(c, A, &imm_d, B, &imm_i)) {
                sub1[di].n = 0;
                sub2[ii].n = 0;
                for (size_t k = 0; k < imm_d.n; k++)
                    if (u32vec_push(&sub1[di], imm_d.v[k])) goto out;
                for (size_t k = 0; k < imm_i.n; k++)
                    if (u32vec_push(&sub2[ii], imm_i.v[k])) goto out;
                has1[di] = has2[ii] = 1;
                changed = 1;
            }
        }
    if (!changed) {
        rc = 0;
        goto out;
    }
    for (size_t i = 0; i < c1->n; i++) {
        if (has1[i]) {
            for (size_t k = 0; k < sub1[i].n; k++)
                if (u32vec_push(&r1, sub1[i].v[k])) goto out;
        } else if (u32vec_push(&r1, c1->v[i])) goto out;
    }
    for (size_t j = 0; j < c2->n; j++) {
        if (has2[j]) {
            for (size_t k = 0; k < sub2[j].n; k++)
                if (u32vec_push(&r2, sub2[j].v[k])) goto out;
        } else if (u32vec_push(&r2, c2->v[j])) goto out;
    }
    if (td_sort_by_ts(A, r1.v, r1.n) || td_sort_by_ts(B, r2.v, r2.n)) goto out;
    pin1 = calloc(r1.n + 1, 1);
    pin2 = calloc(r2.n + 1, 1);
    if (!pin1 || !pin2) goto out;
    for (size_t k = 0; k < ops->n; k++) {
        if (ops->v[k].op != OP_MATCH) continue;
        long ri = find_last(&r1, c1->v[ops->v[k].i]), rj = find_last(&r2, c2->v[ops->v[k].j]);
        if (ri >= 0 && rj >= 0) {
            if (dopvec_push(&nops, (dop){OP_MATCH, (int32_t)ri, (int32_t)rj})) goto out;
            pin1[ri] = pin2[rj] = 1;
        }
    }
    for (size_t i = 0; i < r1.n; i++)
        if (!pin1[i] && (u32vec_push(&free1, (uint32_t)i) || u32vec_push(&fi1, r1.v[i]))) goto out;
    for (size_t j = 0; j < r2.n; j++)
        if (!pin2[j] && (u32vec_push(&free2, (uint32_t)j) || u32vec_push(&fi2, r2.v[j]))) goto out;
    if (free1.n && free2.n) {
        if (td_align(c, fi1.v, fi1.n, fi2.v, fi2.n, &fops)) goto out;
        if (push_mapped(&nops, &fops, free1.v, free2.v)) goto out;
    } else {
        for (size_t i = 0; i < free1.n; i++)
            if (dopvec_push(&nops, (dop){OP_DEL, (int32_t)free1.v[i], -1})) goto out;
        for (size_t j = 0; j < free2.n; j++)
            if (dopvec_push(&nops, (dop){OP_INS, -1, (int32_t)free2.v[j]})) goto out;
    }
    free(ops->v);
    *ops = nops;
    nops.v = NULL;
    free(c1->v);
    free(c2->v);
    *c1 = r1;
    *c2 = r2;
    r1.v = r2.v = NULL;
    rc = 0;
out:
    if (sub1)
        for (size_t i = 0; i < n1; i++) free(sub1[i].v);
    if (sub2)
        for (size_t j = 0; j < n2; j++) free(sub2[j].v);
    free(sub1);
    free(sub2);
    free(has1);
    free(has2);
    free(dels.v);
    free(inss.v);
    free(r1.v);
    free(r2.v);
    free(imm_d.v);
    free(imm_i.v);
    free(nops.v);
    free(fops.v);
    free(free1.v);
    free(free2.v);
    free(fi1.v);
    free(fi2.v);
    free(pin1);
    free(pin2);
    return rc;
}

/* Phase 4: collapse the unmatched on both sides and align them again. */
static int canonicalise(ctx *c, dopvec *ops, u32vec *c1, u32vec *c2)
{
    u32vec ui = {0}, uj = {0}, k1 = {0}, k2 = {0}, si = {0}, sj = {0}, x1 = {0}, x2 = {0};
    dopvec p1 = {0}, p2 = {0}, cops = {0}, nops = {0};
    int rc = -1;
    if (unmatched(ops, &ui, &uj)) goto out;
    if (!ui.n || !uj.n) {
        rc = 0;
        goto out;
    }
    for (size_t i = 0; i < ui.n; i++) {
        uint32_t to;
        if (td_collapse(&c->s[0], c1->v[ui.v[i]], &to, NULL) || u32vec_push(&k1, to)) goto out;
    }
    for (size_t j = 0; j < uj.n; j++) {
        uint32_t to;
        if (td_collapse(&c->s[1], c2->v[uj.v[j]], &to, NULL) || u32vec_push(&k2, to)) goto out;
    }
    if (td_aligned_wf(c, k1.v, k1.n, k2.v, k2.n, 0, &p1)) goto out;
    if (unmatched(&p1, &si, &sj)) goto out;
    if (si.n && sj.n) {
        for (size_t i = 0; i < si.n; i++)
            if (u32vec_push(&x1, k1.v[si.v[i]])) goto out;
        for (size_t j = 0; j < sj.n; j++)
            if (u32vec_push(&x2, k2.v[sj.v[j]])) goto out;
        if (td_aligned_wf(c, x1.v, x1.n, x2.v, x2.n, 1, &p2)) goto out;
        for (size_t k = 0; k < p1.n; k++)
            if (p1.v[k].op == OP_MATCH && dopvec_push(&cops, p1.v[k])) goto out;
        if (push_mapped(&cops, &p2, si.v, sj.v)) goto out;
    } else {
        for (size_t k = 0; k < p1.n; k++)
            if (dopvec_push(&cops, p1.v[k])) goto out;
    }
    for (size_t k = 0; k < ops->n; k++)
        if (ops->v[k].op == OP_MATCH && dopvec_push(&nops, ops->v[k])) goto out;
    for (size_t k = 0; k < cops.n; k++) {
        dop o = cops.v[k];
        dop x = {o.op, -1, -1};
        if (o.i >= 0) {
            x.i = (int32_t)ui.v[o.i];
            c1->v[x.i] = k1.v[o.i];
        }
        if (o.j >= 0) {
            x.j = (int32_t)uj.v[o.j];
            c2->v[x.j] = k2.v[o.j];
        }
        if (dopvec_push(&nops, x)) goto out;
    }
    free(ops->v);
    *ops = nops;
    nops.v = NULL;
    rc = 0;
out:
    free(ui.v);
    free(uj.v);
    free(k1.v);
    free(k2.v);
    free(si.v);
    free(sj.v);
    free(x1.v);
    free(x2.v);
    free(p1.v);
    free(p2.v);
    free(cops.v);
    free(nops.v);
    return rc;
}

/* The aligned children of the pair (*u1, *u2) as pairs of uids (NONE = absent side);
 * *u1 / *u2 become the collapsed nodes of phase 1 when it applies. */
static int merge_children(ctx *c, uint32_t *u1, uint32_t *u2, u32vec *p1, u32vec *p2)
{
    u32vec c1 = {0}, c2 = {0}, deeper = {0};
    dopvec ops = {0};
    int rc = -1;
    p1->n = p2->n = 0;
    if (with_missing(c, 0, *u1, *u2, &c1) || with_missing(c, 1, *u2, *u1, &c2)) goto out;
    /* phase 1: one side's lone child collapsed to where it branches */
    if (c1.n != c2.n) {
        int s = c1.n == 1 ? 0 : c2.n == 1 ? 1 : -1;
        if (s >= 0) {
            u32vec *cs = s == 0 ? &c1 : &c2;
            uint32_t to;
            if (td_collapse(&c->s[s], cs->v[0], &to, &deeper)) goto out;
            if (deeper.n) {
                if (s == 0) *u1 = to;
                else *u2 = to;
                u32vec t = *cs;
                *cs = deeper;
                deeper = t;
            }
        }
    }
    /* phase 2 */
    if (td_align(c, c1.v, c1.n, c2.v, c2.n, &ops)) goto out;
    /* phase 3 */
    int unmatched = 0;
    for (size_t k = 0; k < ops.n && !unmatched; k++) unmatched = ops.v[k].op != OP_MATCH;
    if (unmatched && reconcile(c, &ops, &c1, &c2)) goto out;
    /* phase 4 */
    if (canonicalise(c, &ops, &c1, &c2)) goto out;
    for (size_t k = 0; k < ops.n; k++) {
        dop o = ops.v[k];
        uint32_t x1 = o.i >= 0 && (size_t)o.i < c1.n ? c1.v[o.i] : NONE;
        uint32_t x2 = o.j >= 0 && (size_t)o.j < c2.n ? c2.v[o.j] : NONE;
        if (u32vec_push(p1, x1) || u32vec_push(p2, x2)) goto out;
    }
    rc = 0;
out:
    free(c1.v);
    free(c2.v);
    free(deeper.v);
    free(ops.v);
    return rc;
}

/* ---------- the merge, iteratively (docs/diff.md, How the trees are merged) ---------- */


static int64_t pair_key(uint32_t a, uint32_t b)
{
    return (int64_t)(((uint64_t)(a == NONE ? 0 : (uint64_t)a + 1) << 32) | (b == NONE ? 0 : (uint64_t)b + 1));
}

typedef struct frame {
    uint32_t id;
    u32vec p1, p2;          /* the aligned child pairs */
    size_t next;
    u32vec kid;             /* merged ids of the children so far */
} frame;

typedef struct mgr {
    tsql_tree_diff *d;
    size_t cap;
    u32vec pool;            /* children lists */
    tsql_u64map memo;       /* (uid1, uid2) -> merged id */
} mgr;

static int grow_nodes(mgr *g)
{
    tsql_tree_diff *d = g->d;
    if (d->n < g->cap) return 0;
    size_t nc = g->cap ? g->cap * 2 : 1024;
#define GROW(f)                                                     \
    do {                                                            \
        void *np = realloc(d->f, nc * sizeof *d->f);                \
        if (!np) return -1;                                         \
        d->f = np;                                                  \
    } while (0)
    GROW(uid1);
    GROW(uid2);
    GROW(type);
    GROW(pod);
    GROW(is_lca);
    GROW(parent);
    GROW(depth);
    GROW(kid_at);
    GROW(kid_n);
#undef GROW
    g->cap = nc;
    return 0;
}

/* Creates the merged node of (u1, u2) under parent (docs/diff.md, How the trees are merged
 * (Children)) and computes its child pairs into f. */
static int new_node(ctx *c, mgr *g, uint32_t u1, uint32_t u2, uint32_t parent, frame *f)
{
    tsql_tree_diff *d = g->d;
    side *A = &c->s[0], *B = &c->s[1];
    if (u1 != NONE && u2 != NONE) {
        if (!A->pod[u1] && !B->pod[u2]) {
            uint32_t n1 = td_name_id(c, A, u1, 0), n2 = td_name_id(c, B, u2, 0);
            if (n1 == NOT_YET || n2 == NOT_YET) return -1;
            if (n1 != n2) A->pod[u1] = B->pod[u2] = 1;
        }
    } else if (u1 != NONE) A->pod[u1] = 1;
    else B->pod[u2] = 1;
    if (grow_nodes(g)) return -1;
    uint32_t id = d->n++;
    if (tsql_u64map_put(&g->memo, pair_key(u1, u2), id, 1)) return -1;
    if (u1 != NONE && tsql_u64map_put(&d->uidmap, (int64_t)u1, u2 == NONE ? TSQL_DIFF_ALONE : u2, 1))
        return -1;
    if (u2 != NONE &&
        tsql_u64map_put(&d->uidmap, (int64_t)((1ull << 32) | u2), u1 == NONE ? TSQL_DIFF_ALONE : u1, 1))
        return -1;
    d->pod[id] = (u1 != NONE && A->pod[u1]) || (u2 != NONE && B->pod[u2]);
    d->is_lca[id] = 0;
    d->parent[id] = parent;
    d->depth[id] = parent == NONE ? 0 : d->depth[parent] + 1;
    d->type[id] = u1 != NONE && u2 != NONE ? TSQL_DIFF_BOTH : u1 != NONE ? TSQL_DIFF_BASELINE : TSQL_DIFF_VARIANT;
    d->kid_at[id] = 0;
    d->kid_n[id] = 0;
    f->id = id;
    f->next = 0;
    f->kid.n = 0;
    if (merge_children(c, &u1, &u2, &f->p1, &f->p2)) return -1;
    d->uid1[id] = u1;
    d->uid2[id] = u2;
    return 0;
}

int td_merge_all(ctx *c, tsql_tree_diff *d)
{
    mgr g = {d, 0, {0}, {0}};
    frame *st = NULL;
    size_t nst = 0, capst = 0;
    int rc = -1;
    side *A = &c->s[0], *B = &c->s[1];
    uint32_t nr = A->nroots > B->nroots ? A->nroots : B->nroots;
    d->roots = malloc(((size_t)nr + 1) * sizeof *d->roots);
    uint32_t guess = A->t->n + B->t->n + 16;
    if (!d->roots || tsql_u64map_init(&g.memo, guess / 4) || tsql_u64map_init(&d->uidmap, guess / 4))
        goto out;
    for (uint32_t r = 0; r < nr; r++) {
        uint32_t u1 = r < A->nroots ? A->roots[r] : NONE, u2 = r < B->nroots ? B->roots[r] : NONE;
        uint32_t got = tsql_u64map_get(&g.memo, pair_key(u1, u2));
        if (got != NONE) {
            d->roots[d->nroots++] = got;
            continue;
        }
        if (nst == capst) {
            frame *ns = tsql_grow(st, &capst, sizeof *st, 64);
            if (!ns) goto out;
            memset(ns + nst, 0, (capst - nst) * sizeof *ns);
            st = ns;
        }
        if (new_node(c, &g, u1, u2, NONE, &st[nst])) goto out;
        d->roots[d->nroots++] = st[nst].id;
        nst++;
        while (nst) {
            frame *f = &st[nst - 1];
            if (f->next < f->p1.n) {
                uint32_t c1 = f->p1.v[f->next], c2 = f->p2.v[f->next];
                f->next++;
                uint32_t got2 = tsql_u64map_get(&g.memo, pair_key(c1, c2));
                if (got2 != NONE) {
                    if (u32vec_push(&f->kid, got2)) goto out;
                    continue;
                }
                if (nst == capst) {
                    frame *ns = tsql_grow(st, &capst, sizeof *st, 64);
                    if (!ns) goto out;
                    memset(ns + nst, 0, (capst - nst) * sizeof *ns);
                    st = ns;
                    f = &st[nst - 1];
                }
                uint32_t pid = f->id;
                if (new_node(c, &g, c1, c2, pid, &st[nst])) goto out;
                if (u32vec_push(&st[nst - 1].kid, st[nst].id)) goto out;
                nst++;
                continue;
            }
            d->kid_at[f->id] = (uint32_t)g.pool.n;
            d->kid_n[f->id] = (uint32_t)f->kid.n;
            for (size_t k = 0; k < f->kid.n; k++)
                if (u32vec_push(&g.pool, f->kid.v[k])) goto out;
            nst--;
        }
    }
    d->kids = g.pool.v;
    g.pool.v = NULL;
    if (!d->kids && !(d->kids = malloc(sizeof *d->kids))) goto out;
    rc = 0;
out:
    for (size_t i = 0; i < capst; i++) {
        free(st[i].p1.v);
        free(st[i].p2.v);
        free(st[i].kid.v);
    }
    free(st);
    free(g.pool.v);
    tsql_u64map_free(&g.memo);
    return rc;
}
