/* tree_diff_stats.c — TraceDiff's diff_stats rows (docs/diff.md, "tree_diff_stats"): the
 * GPU events under each lowest common ancestor of the differences, and whether the two
 * sides' rows are identical. */
#include "analysis/tree_diff_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/attribution.h"
#include "analysis/tree_diff_side.h"
#include "store/store.h"

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* ---------- diff_stats (docs/diff.md, tree_diff_stats and diff_stats) ---------- */

/* name with every "(<digits>)" removed, interned */
static uint32_t lca_text(ctx *c, const side *sd, uint32_t u)
{
    char num[16];
    const char *s = td_op_name(sd, u, num);
    size_t n = strlen(s);
    c->tmp.n = 0;
    if (tsql_bput(&c->tmp, "", 0)) return 0;
    for (size_t i = 0; i < n;) {
        if (s[i] == '(' && i + 1 < n && is_digit(s[i + 1])) {
            size_t k = i + 1;
            while (k < n && is_digit(s[k])) k++;
            if (k < n && s[k] == ')') {
                i = k + 1;
                continue;
            }
        }
        if (tsql_bput(&c->tmp, s + i, 1)) return 0;
        i++;
    }
    return tsql_intern_add(c->names, c->tmp.p, c->tmp.n);
}

static double round3(double x)
{
    return rint(x * 1000.0) / 1000.0;
}

static int add_rows(ctx *c, int s, const u32vec *g, uint32_t lca, uint32_t lname, double busy, rowvec *rows)
{
    const side *sd = &c->s[s];
    for (size_t i = 0; i < g->n; i++) {
        uint32_t p = sd->par[g->v[i]];
        while (p != NONE && sd->t->kind[p] != TSQL_K_CPU_OP) p = sd->par[p];
        if (p == NONE) continue;
        tsql_diff_row r = {(uint8_t)(s + 1), g->v[i], p, lca, round3(busy), lname, 0, 0};
        if (rowvec_push(rows, r)) return -1;
    }
    return 0;
}

static double busy_of(const side *sd, const u32vec *g)
{
    if (!g->n) return 0.0;
    double *scratch = malloc(2 * g->n * sizeof *scratch);
    if (!scratch) return NAN;
    double b = tsql_busy_us(sd->t, g->v, g->n, scratch);
    free(scratch);
    return b;
}

typedef struct sframe { uint32_t m, parent; uint32_t next; } sframe;

int td_diff_stats(ctx *c, tsql_tree_diff *d, rowvec *rows)
{
    const side *A = &c->s[0], *B = &c->s[1];
    uint8_t *visited = calloc((size_t)d->n + 1, 1);
    sframe *st = NULL;
    size_t nst = 0, capst = 0;
    u32vec g1 = {0}, g2 = {0}, t1 = {0}, t2 = {0};
    int rc = -1;
    if (!visited) goto out;
    for (uint32_t r = 0; r < d->nroots; r++) {
        if (nst == capst) {
            sframe *ns = tsql_grow(st, &capst, sizeof *st, 64);
            if (!ns) goto out;
            st = ns;
        }
        st[nst++] = (sframe){d->roots[r], NONE, UINT32_MAX};
        while (nst) {
            sframe *f = &st[nst - 1];
            uint32_t m = f->m;
            if (f->next == UINT32_MAX) {
                /* first visit */
                f->next = 0;
                if (visited[m]) {
                    nst--;
                    continue;
                }
                int t = d->type[m];
                if (t == TSQL_DIFF_BOTH) {
                    uint32_t e1 = d->uid1[m], e2 = d->uid2[m];
                    if (A->gp[e1] && B->gp[e2]) {
                        t1.n = t2.n = 0;
                        for (uint32_t k = 0; k < d->kid_n[m]; k++) {
                            uint32_t ch = d->kids[d->kid_at[m] + k];
                            if (d->type[ch] == TSQL_DIFF_BOTH) continue;
                            if (d->uid1[ch] != NONE && A->gp[d->uid1[ch]] && u32vec_push(&t1, ch)) goto out;
                            if (d->uid2[ch] != NONE && B->gp[d->uid2[ch]] && u32vec_push(&t2, ch)) goto out;
                        }
                        if (t1.n || t2.n || (td_kernelish(A, e1) && td_kernelish(B, e2))) {
                            uint32_t l1 = lca_text(c, A, e1), l2 = lca_text(c, B, e2), ln = l1;
                            if (!l1 || !l2) goto out;
                            if (l1 != l2) {
                                c->tmp.n = 0;
                                const char *s1 = tsql_intern_str(c->names, l1), *s2 = tsql_intern_str(c->names, l2);
                                if (tsql_bput(&c->tmp, s1, strlen(s1)) || tsql_bput(&c->tmp, " | ", 3) ||
                                    tsql_bput(&c->tmp, s2, strlen(s2)))
                                    goto out;
                                if (!(ln = tsql_intern_add(c->names, c->tmp.p, c->tmp.n))) goto out;
                            }
                            g1.n = g2.n = 0;
                            for (size_t k = 0; k < t1.n; k++) {
                                uint32_t cu = d->uid1[t1.v[k]];
                                if (tsql_tl_subtree_gpu(A->t, cu, &g1) < 0) goto out;
                                if (td_kernelish(A, cu) && u32vec_push(&g1, cu)) goto out;
                            }
                            if (td_kernelish(A, e1) && u32vec_push(&g1, e1)) goto out;
                            for (size_t k = 0; k < t2.n; k++) {
                                uint32_t cu = d->uid2[t2.v[k]];
                                if (tsql_tl_subtree_gpu(B->t, cu, &g2) < 0) goto out;
                                if (td_kernelish(B, cu) && u32vec_push(&g2, cu)) goto out;
                            }
                            if (td_kernelish(B, e2) && u32vec_push(&g2, e2)) goto out;
                            double b1 = busy_of(A, &g1), b2 = busy_of(B, &g2);
                            if (isnan(b1) || isnan(b2)) goto out;
                            if (add_rows(c, 0, &g1, m, ln, b1, rows) || add_rows(c, 1, &g2, m, ln, b2, rows))
                                goto out;
                            d->is_lca[m] = 1;
                            visited[m] = 1;
                            for (size_t k = 0; k < t1.n; k++) visited[t1.v[k]] = 1;
                            for (size_t k = 0; k < t2.n; k++) visited[t2.v[k]] = 1;
                        }
                    }
                    if (!A->gp[e1] && !B->gp[e2]) {
                        nst--;
                        continue;
                    }
                } else {
                    int s = t == TSQL_DIFF_BASELINE ? 0 : 1;
                    const side *sd = &c->s[s];
                    uint32_t e = s == 0 ? d->uid1[m] : d->uid2[m];
                    if (sd->gp[e]) {
                        uint32_t lname = 0, lca = f->parent;
                        if (lca != NONE) {
                            uint32_t pe = s == 0 ? d->uid1[lca] : d->uid2[lca];
                            if (!(lname = lca_text(c, sd, pe))) goto out;
                        }
                        g1.n = 0;
                        if (tsql_tl_subtree_gpu(sd->t, e, &g1) < 0) goto out;
                        double b = busy_of(sd, &g1);
                        if (isnan(b) || add_rows(c, s, &g1, lca, lname, b, rows)) goto out;
                    }
                    visited[m] = 1;
                    nst--;
                    continue;
                }
            }
            if (f->next < d->kid_n[m]) {
                uint32_t ch = d->kids[d->kid_at[m] + f->next++];
                if (nst == capst) {
                    sframe *ns = tsql_grow(st, &capst, sizeof *st, 64);
                    if (!ns) goto out;
                    st = ns;
                }
                st[nst++] = (sframe){ch, m, UINT32_MAX};
                continue;
            }
            nst--;
        }
    }
    rc = 0;
out:
    free(visited);
    free(st);
    free(g1.v);
    free(g2.v);
    free(t1.v);
    free(t2.v);
    return rc;
}

/* the trace1 rows equal the trace2 rows, column by column (DataFrame.equals) */
int td_rows_identical(ctx *c, const tsql_tree_diff *d)
{
    uint32_t n1 = 0, n2 = 0;
    for (uint32_t i = 0; i < d->nrows; i++) {
        if (d->rows[i].side == 1) n1++;
        else n2++;
    }
    if (n1 != n2 || !n1) return 0;
    const tsql_diff_row *r1 = d->rows, *r2 = d->rows;
    tsql_buf a = {0}, b = {0};
    int same = 1;
    for (uint32_t k = 0; k < n1 && same; k++, r1++, r2++) {
        while (r1->side != 1) r1++;
        while (r2->side != 2) r2++;
        const side *A = &c->s[0], *B = &c->s[1];
        char x[16], y[16];
        same = r1->gpu == r2->gpu && r1->op == r2->op && r1->lca == r2->lca && r1->busy_us == r2->busy_us &&
               r1->lca_name == r2->lca_name && strcmp(td_op_name(A, r1->gpu, x), td_op_name(B, r2->gpu, y)) == 0 &&
               strcmp(td_op_name(A, r1->op, x), td_op_name(B, r2->op, y)) == 0 &&
               tsql_trace_dur_us(A->t, r1->gpu) == tsql_trace_dur_us(B->t, r2->gpu);
        if (same) {
            a.n = b.n = 0;
            long la = tsql_trace_args_json(A->t, r1->op, &a), lb = tsql_trace_args_json(B->t, r2->op, &b);
            same = la == lb && la >= 0 && (la == 0 || memcmp(a.p, b.p, (size_t)la) == 0);
        }
    }
    free(a.p);
    free(b.p);
    return same;
}

