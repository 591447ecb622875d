/* tree_diff_text.c — TraceDiff's merged tree as text; see tree_diff_text.h. */
#include "output/tree_diff_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/attribution.h"
#include "util/u32vec.h"

#define NONE TSQL_NONE

/* ---------- merged_tree_output.txt (docs/diff.md, tree_diff_text()) ---------- */

static const char *label_name(const tsql_tree_diff *d, int s, uint32_t u, char num[16])
{
    tsql_trace *t = d->t[s];
    uint32_t sid = t->name[u];
    if (sid && tsql_intern_len(&t->strings, sid)) return tsql_intern_text(&t->strings, sid);
    snprintf(num, 16, "%u", u);
    return num;
}

static int put_line(const tsql_tree_diff *d, uint32_t m, const char *prefix, size_t plen, int last, tsql_buf *out)
{
    char a[16], b[16];
    if (tsql_bput(out, prefix, plen) || tsql_bput(out, last ? "└── " : "├── ", strlen(last ? "└── " : "├── ")))
        return -1;
    const char *n1 = d->uid1[m] != NONE ? label_name(d, 0, d->uid1[m], a) : "";
    const char *n2 = d->uid2[m] != NONE ? label_name(d, 1, d->uid2[m], b) : "";
    int rc;
    if (d->type[m] == TSQL_DIFF_BOTH) {
        if (strcmp(n1, n2) == 0) rc = tsql_bput(out, n1, strlen(n1));
        else rc = tsql_bput(out, "combined: ", 10) || tsql_bput(out, n1, strlen(n1)) || tsql_bput(out, " | ", 3) || tsql_bput(out, n2, strlen(n2));
    } else if (d->type[m] == TSQL_DIFF_BASELINE) {
        rc = tsql_bput(out, ">> trace1: ", 11) || tsql_bput(out, n1, strlen(n1));
    } else {
        rc = tsql_bput(out, "<< trace2: ", 11) || tsql_bput(out, n2, strlen(n2));
    }
    return rc || tsql_bput(out, "\n", 1);
}

typedef struct tframe { uint32_t m; size_t plen; int last; u32vec kids; size_t next; } tframe;

static int text_subtree(const tsql_tree_diff *d, uint32_t root, int last, tsql_buf *out)
{
    tsql_buf pre = {0};
    tframe *st = NULL;
    size_t nst = 0, capst = 0;
    int rc = -1;
    if (tsql_bput(&pre, "", 0)) goto out;
    st = calloc(1, sizeof *st);
    if (!st) goto out;
    capst = 1;
    st[0] = (tframe){root, 0, last, {0}, 0};
    nst = 1;
    int fresh = 1;
    while (nst) {
        tframe *f = &st[nst - 1];
        if (fresh) {
            if (put_line(d, f->m, pre.p, f->plen, f->last, out)) goto out;
            f->kids.n = 0;
            for (int ty = 0; ty < 3; ty++)
                for (uint32_t k = 0; k < d->kid_n[f->m]; k++) {
                    uint32_t ch = d->kids[d->kid_at[f->m] + k];
                    if (d->type[ch] == ty && u32vec_push(&f->kids, ch)) goto out;
                }
            f->next = 0;
            fresh = 0;
        }
        if (f->next < f->kids.n) {
            uint32_t ch = f->kids.v[f->next];
            int clast = f->next + 1 == f->kids.n;
            f->next++;
            pre.n = f->plen;
            const char *seg = f->last ? "    " : "│   ";
            if (tsql_bput(&pre, seg, strlen(seg))) goto out;
            if (nst == capst) {
                tframe *ns = tsql_grow(st, &capst, sizeof *st, 64);
                if (!ns) goto out;
                memset(ns + nst, 0, (capst - nst) * sizeof *ns);
                st = ns;
                f = &st[nst - 1];
            }
            st[nst].m = ch;
            st[nst].plen = pre.n;
            st[nst].last = clast;
            st[nst].next = 0;
            nst++;
            fresh = 1;
            continue;
        }
        nst--;
    }
    rc = 0;
out:
    for (size_t i = 0; i < capst; i++) free(st[i].kids.v);
    free(st);
    free(pre.p);
    return rc;
}

static int has_gpu(const tsql_tree_diff *d, uint32_t m)
{
    /* the variant's or the baseline's node on the GPU path */
    for (int s = 0; s < 2; s++) {
        uint32_t u = s == 0 ? d->uid1[m] : d->uid2[m];
        if (u == NONE) continue;
        tsql_trace *t = d->t[s];
        if (tsql_kind_is_gpu(t->kind[u])) return 1;
        u32vec g = {0};
        long n = tsql_tl_subtree_gpu(t, u, &g);
        free(g.v);
        if (n != 0) return 1;
    }
    return 0;
}

int tsql_tree_diff_text(const tsql_tree_diff *d, uint32_t root, int prune_non_gpu, tsql_buf *out)
{
    if (tsql_bput(out, "", 0)) return -1;
    if (root != NONE) return root < d->n ? text_subtree(d, root, 1, out) : 0;
    for (uint32_t r = 0; r < d->nroots; r++) {
        if (prune_non_gpu && !has_gpu(d, d->roots[r])) continue;
        if (text_subtree(d, d->roots[r], r + 1 == d->nroots, out)) return -1;
    }
    return 0;
}

