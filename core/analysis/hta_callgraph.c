/*
 * hta_callgraph.c — HTA's call graph of one rank (see hta_callgraph.h). The nesting
 * sorts each thread's start and end points once (HTA's comparator) and scans them
 * with a stack; depths and GPU descendants are one pass over the rows in nesting
 * order.
 */
#include "analysis/hta_callgraph.h"

#include <stdlib.h>
#include <string.h>

#include "store/colmem.h"
#include "util/sort.h"

typedef struct {
    double t, dur;      /* point time; the event's dur (negative counts as 0) */
    uint32_t row;
    uint8_t end;
    uint64_t thread;
} point;

/* HTA's order of a thread's points: time; the same event's start first; a zero-dur
 * event's points after non-zero starts and before non-zero ends; an end before a
 * start; longer starts and shorter ends first; then starts by ascending and ends by
 * descending event order */
static int cmp_point(const void *pa, const void *pb)
{
    const point *a = pa, *b = pb;
    if (a->thread != b->thread) return a->thread < b->thread ? -1 : 1;
    if (a->t != b->t) return a->t < b->t ? -1 : 1;
    if (a->row == b->row) return (int)a->end - (int)b->end;
    int za = a->dur == 0, zb = b->dur == 0;
    if (za && zb) {
        if (a->end != b->end) return a->end ? 1 : -1;
        return a->end ? (a->row < b->row ? 1 : -1) : (a->row < b->row ? -1 : 1);
    }
    if (za != zb) {
        const point *nz = za ? b : a; /* the non-zero one goes first if it is a start */
        int nz_first = !nz->end;
        return (nz == a) == nz_first ? -1 : 1;
    }
    if (a->end != b->end) return a->end ? -1 : 1;
    if (a->dur != b->dur) return a->end ? (a->dur < b->dur ? -1 : 1) : (a->dur > b->dur ? -1 : 1);
    return a->end ? (a->row < b->row ? 1 : -1) : (a->row < b->row ? -1 : 1);
}

void tsql_hta_callgraph_free(tsql_hta_callgraph *g)
{
    if (!g) return;
    tsql_col_free(g->depth);
    tsql_col_free(g->parent);
    tsql_col_free(g->nkernels);
    tsql_col_free(g->kernel_dur);
    tsql_col_free(g->child_at);
    tsql_col_free(g->child);
    free(g);
}

typedef struct { double ts; uint32_t row; } kkey_t;

static int cmp_kkey_t(const void *a, const void *b)
{
    const kkey_t *x = a, *y = b;
    if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
    return x->row < y->row ? -1 : x->row > y->row;
}

/* What the labels need of a string (a name, a pid or a tid), found once per string id:
 * the rows share a few thousand strings. */
enum { S_KNOWN = 1, S_ZERO = 2, S_STEP = 4, S_AUTOGRAD = 8 };

static uint8_t string_flags(const tsql_trace *t, uint8_t *cache, uint32_t id)
{
    if (!(cache[id] & S_KNOWN)) {
        const char *s = tsql_intern_text(&t->strings, id);
        cache[id] = (uint8_t)(S_KNOWN | (!strcmp(s, "0") ? S_ZERO : 0) | (strstr(s, "ProfilerStep#") ? S_STEP : 0) |
                              (strstr(s, "autograd::") ? S_AUTOGRAD : 0));
    }
    return cache[id];
}

/* Sorts the points in HTA's order: two stable radix passes (time, then thread) and, in
 * each run of one thread's points at one time (short), HTA's comparator. Returns the
 * sorted copy (a column block) or NULL on out of memory. */
static point *sort_points(const point *pts, uint32_t np)
{
    size_t m = np ? np : 1;
    uint64_t *key = malloc(m * sizeof *key);
    uint32_t *idx = malloc(m * sizeof *idx);
    point *out = tsql_col_malloc(m * sizeof *out);
    int ok = key && idx && out;
    if (ok) {
        for (uint32_t i = 0; i < np; i++) key[i] = tsql_sort_key(pts[i].t), idx[i] = i;
        ok = tsql_radix_sort(key, idx, np) == 0;
    }
    if (ok) {
        for (uint32_t i = 0; i < np; i++) key[i] = pts[idx[i]].thread;
        ok = tsql_radix_sort(key, idx, np) == 0;
    }
    if (ok) {
        for (uint32_t i = 0; i < np; i++) out[i] = pts[idx[i]];
        for (uint32_t i = 0, j; i < np; i = j) {
            for (j = i + 1; j < np && out[j].thread == out[i].thread && out[j].t == out[i].t; j++) {}
            if (j - i > 1) qsort(out + i, j - i, sizeof *out, cmp_point);
        }
    }
    free(key);
    free(idx);
    if (ok) return out;
    tsql_col_free(out);
    return NULL;
}

/* per thread (by pid and tid) */
typedef struct {
    uint64_t key;
    uint8_t all_gpu, all_pid0, all_tid0, main, bwd;
} thread_info;

static int cmp_thread(const void *a, const void *b)
{
    uint64_t x = ((const thread_info *)a)->key, y = ((const thread_info *)b)->key;
    return x < y ? -1 : x > y;
}

static thread_info *find_thread(thread_info *th, uint32_t n, uint64_t key)
{
    thread_info k = {.key = key};
    return bsearch(&k, th, n, sizeof *th, cmp_thread);
}

tsql_hta_callgraph *tsql_hta_callgraph_build(const tsql_trace *t, const tsql_hta_rows *r, int kept_only)
{
    uint32_t n = r->n;
    size_t m = n ? n : 1;
    tsql_hta_callgraph *g = calloc(1, sizeof *g);
    point *pts = tsql_col_malloc(2 * m * sizeof *pts);
    uint8_t *sflags = calloc((size_t)t->strings.n + 1, 1);
    thread_info *th = malloc(m * sizeof *th);
    uint32_t *stack = malloc(m * sizeof *stack), *order = malloc(m * sizeof *order);
    if (g) {
        g->n = n;
        g->depth = tsql_col_malloc(m * sizeof *g->depth);
        g->parent = tsql_col_malloc(m * sizeof *g->parent);
        g->nkernels = tsql_col_calloc(m, sizeof *g->nkernels);
        g->kernel_dur = tsql_col_calloc(m, sizeof *g->kernel_dur);
        g->child_at = tsql_col_calloc(m + 1, sizeof *g->child_at);
        g->child = tsql_col_malloc(m * sizeof *g->child);
    }
    if (!g || !pts || !sflags || !th || !stack || !order || !g->depth || !g->parent || !g->nkernels ||
        !g->kernel_dur || !g->child_at || !g->child) {
        tsql_col_free(pts), free(sflags), free(th), free(stack), free(order);
        tsql_hta_callgraph_free(g);
        return NULL;
    }
    /* threads and their labels */
    uint32_t nth = 0;
    for (uint32_t i = 0; i < n; i++) {
        g->depth[i] = -1;
        g->parent[i] = UINT32_MAX;
        if (kept_only && !(r->flags[i] & TSQL_HTA_KEEP)) continue;
        th[nth++] = (thread_info){tsql_thread_key(t, r->uid[i]), 1, 1, 1, 0, 0};
    }
    qsort(th, nth, sizeof *th, cmp_thread);
    uint32_t k = 0;
    for (uint32_t i = 0; i < nth; i++)
        if (!k || th[i].key != th[k - 1].key) th[k++] = th[i];
    nth = k;
    for (uint32_t i = 0; i < n; i++) {
        if (kept_only && !(r->flags[i] & TSQL_HTA_KEEP)) continue;
        uint32_t u = r->uid[i];
        thread_info *p = find_thread(th, nth, tsql_thread_key(t, u));
        if (r->stream[i] <= 0) p->all_gpu = 0;
        if (!(string_flags(t, sflags, t->pid[u]) & S_ZERO)) p->all_pid0 = 0;
        if (!(string_flags(t, sflags, t->tid[u]) & S_ZERO)) p->all_tid0 = 0;
        uint8_t nf = string_flags(t, sflags, t->name[u]);
        if (nf & S_STEP) p->main = 1;
        if (nf & S_AUTOGRAD) p->bwd = 1;
    }
    /* the CPU threads' points, nested by a stack */
    uint32_t np = 0;
    for (uint32_t i = 0; i < n; i++) {
        if ((kept_only && !(r->flags[i] & TSQL_HTA_KEEP)) || r->stream[i] != -1) continue;
        uint64_t key = tsql_thread_key(t, r->uid[i]);
        const thread_info *p = find_thread(th, nth, key);
        if (p->all_gpu || p->all_pid0 || p->all_tid0) continue;
        double dur = r->dur[i] > 0 ? r->dur[i] : 0;
        pts[np++] = (point){r->ts[i], dur, i, 0, key};
        pts[np++] = (point){r->ts[i] + dur, dur, i, 1, key};
    }
    point *sorted = sort_points(pts, np);
    tsql_col_free(pts);
    free(sflags);
    pts = sorted;
    if (!pts) {
        free(th), free(stack), free(order);
        tsql_hta_callgraph_free(g);
        return NULL;
    }
    uint32_t sp = 0;
    for (uint32_t j = 0; j < np; j++) {
        if (j && pts[j].thread != pts[j - 1].thread) sp = 0;
        if (!pts[j].end) {
            g->parent[pts[j].row] = sp ? stack[sp - 1] : UINT32_MAX;
            g->depth[pts[j].row] = 0; /* in the graph */
            stack[sp++] = pts[j].row;
        } else if (sp) {
            sp--;
        }
    }
    /* kernels under their launches */
    for (uint32_t i = 0; i < n; i++) {
        if ((kept_only && !(r->flags[i] & TSQL_HTA_KEEP)) || r->stream[i] <= 0 || r->index_corr[i] <= 0) continue;
        uint32_t p = r->partner[i];
        if (p == UINT32_MAX || g->depth[p] < 0) continue;
        if ((r->flags[i] & TSQL_HTA_DEV) && r->stream[p] == -1) {
            g->parent[i] = p;
            g->depth[i] = 0;
        }
    }
    /* the backward thread's top ops under the main thread's steps: exactly one main
     * and one bwd thread; its '## backward ##' rows, else its ProfilerStep# rows */
    uint32_t nmain = 0, nbwd = 0;
    uint64_t main_key = 0, bwd_key = 0;
    for (uint32_t i = 0; i < nth; i++) {
        if (th[i].all_gpu || th[i].all_pid0 || th[i].all_tid0) continue; /* not in the graph */
        if (th[i].main) nmain++, main_key = th[i].key;
        else if (th[i].bwd) nbwd++, bwd_key = th[i].key;
    }
    if (nmain == 1 && nbwd == 1) {
        /* the backward thread's top rows by start, each step's span found by a search */
        kkey_t *tops = malloc(m * sizeof *tops);
        if (!tops) {
            tsql_col_free(pts), free(th), free(stack), free(order);
            tsql_hta_callgraph_free(g);
            return NULL;
        }
        uint32_t ntops = 0;
        for (uint32_t c = 0; c < n; c++)
            if (g->depth[c] >= 0 && g->parent[c] == UINT32_MAX && r->stream[c] == -1 &&
                tsql_thread_key(t, r->uid[c]) == bwd_key)
                tops[ntops++] = (kkey_t){r->ts[c], c};
        qsort(tops, ntops, sizeof *tops, cmp_kkey_t);
        for (int pass = 0; pass < 2; pass++) {
            uint32_t found = 0;
            for (uint32_t i = 0; i < n; i++) {
                if (g->depth[i] < 0 || r->stream[i] != -1 || tsql_thread_key(t, r->uid[i]) != main_key) continue;
                const char *name = tsql_intern_text(&t->strings, t->name[r->uid[i]]);
                if (pass == 0 ? !strstr(name, "## backward ##") : !strstr(name, "ProfilerStep#")) continue;
                found++;
                double lo = r->ts[i], hi = r->ts[i] + r->dur[i];
                uint32_t a = 0, b = ntops;
                while (a < b) {
                    uint32_t mid = a + (b - a) / 2;
                    if (tops[mid].ts < lo) a = mid + 1; else b = mid;
                }
                for (uint32_t q = a; q < ntops && tops[q].ts <= hi; q++) {
                    uint32_t c = tops[q].row;
                    if (g->parent[c] == UINT32_MAX && r->ts[c] + r->dur[c] <= hi) g->parent[c] = i;
                }
            }
            if (found) break;
        }
        free(tops);
    }
    /* children lists (CSR, in row order), depths from the tops, GPU descendants */
    for (uint32_t i = 0; i < n; i++)
        if (g->depth[i] >= 0 && g->parent[i] != UINT32_MAX) g->child_at[g->parent[i] + 1]++;
    for (uint32_t i = 0; i < n; i++) g->child_at[i + 1] += g->child_at[i];
    uint32_t *fill = stack; /* reused: next free slot per parent */
    memcpy(fill, g->child_at, m * sizeof *fill);
    for (uint32_t i = 0; i < n; i++)
        if (g->depth[i] >= 0 && g->parent[i] != UINT32_MAX) g->child[fill[g->parent[i]]++] = i;
    uint32_t no = 0;
    for (uint32_t i = 0; i < n; i++)
        if (g->depth[i] >= 0 && g->parent[i] == UINT32_MAX) order[no++] = i;
    for (uint32_t q = 0; q < no; q++) { /* breadth first: parents before children */
        uint32_t i = order[q];
        g->depth[i] = g->parent[i] == UINT32_MAX ? 0 : g->depth[g->parent[i]] + 1;
        for (uint32_t c = g->child_at[i]; c < g->child_at[i + 1]; c++) order[no++] = g->child[c];
    }
    for (uint32_t q = no; q-- > 0;) {
        uint32_t i = order[q], p = g->parent[i];
        int is_kernel = r->stream[i] > 0 && r->stream[i] != -1 && (r->flags[i] & TSQL_HTA_DEV);
        if (p == UINT32_MAX) continue;
        g->nkernels[p] += g->nkernels[i] + (uint32_t)is_kernel;
        g->kernel_dur[p] += g->kernel_dur[i] + (is_kernel ? r->dur[i] : 0.0);
    }
    tsql_col_free(pts), free(th), free(stack), free(order);
    return g;
}

uint32_t tsql_hta_callgraph_kernels(const tsql_hta_callgraph *g, const tsql_hta_rows *r, uint32_t i,
                                    uint32_t *out)
{
    /* depth-first with out[] as the stack of rows to visit, kernels collected after */
    uint32_t want = g->nkernels[i], nk = 0;
    kkey_t *keys = malloc((want ? want : 1) * sizeof *keys);
    uint32_t *todo = malloc(((size_t)g->n + 1) * sizeof *todo);
    if (!keys || !todo) {
        free(keys), free(todo);
        return UINT32_MAX;
    }
    uint32_t sp = 0;
    todo[sp++] = i;
    while (sp) {
        uint32_t v = todo[--sp];
        for (uint32_t c = g->child_at[v]; c < g->child_at[v + 1]; c++) {
            uint32_t w = g->child[c];
            if (r->stream[w] > 0 && (r->flags[w] & TSQL_HTA_DEV) && nk < want) keys[nk++] = (kkey_t){r->ts[w], w};
            todo[sp++] = w;
        }
    }
    qsort(keys, nk, sizeof *keys, cmp_kkey_t);
    for (uint32_t q = 0; q < nk; q++) out[q] = keys[q].row;
    free(keys), free(todo);
    return nk;
}
