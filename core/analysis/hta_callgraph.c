/*
 * hta_callgraph.c — HTA's call graph of one rank (see hta_callgraph.h). Each thread's
 * CPU rows are gathered (a counting sort by thread), their start and end points sorted
 * by time (a radix sort; HTA's comparator only inside a run of equal times) and
 * scanned with a stack; depths and GPU descendants are one pass over the rows in
 * nesting order. The memory is a few arrays of row numbers: on a large trace the cost
 * of fresh pages, not the arithmetic, sets the time.
 */
#include "analysis/hta_callgraph.h"

#include <stdlib.h>
#include <string.h>

#include "store/colmem.h"
#include "util/sort.h"

#define NONE UINT32_MAX

/* ---------- threads: a small hash of (pid, tid) keys ---------- */

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

typedef struct {
    uint64_t key;
    uint32_t nrows; /* its CPU rows in the graph */
    uint8_t all_gpu, all_pid0, all_tid0, main, bwd;
} thread_info;

typedef struct {
    thread_info *th;
    uint32_t n, cap;
    uint32_t *slot; /* thread index + 1, 0 = empty */
    uint32_t nslots;
    uint64_t last_key; /* consecutive rows are mostly of one thread */
    uint32_t last;
} thread_map;

static uint32_t slot_of(uint64_t key, uint32_t nslots)
{
    return (uint32_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & (nslots - 1);
}

static int map_grow(thread_map *m)
{
    uint32_t ns = m->nslots ? 2 * m->nslots : 256;
    uint32_t *slot = calloc(ns, sizeof *slot);
    thread_info *th = realloc(m->th, (size_t)ns / 2 * sizeof *th);
    if (!slot || !th) {
        free(slot);
        if (th) m->th = th;
        return -1;
    }
    m->th = th;
    m->cap = ns / 2;
    for (uint32_t i = 0; i < m->n; i++) {
        uint32_t k = slot_of(th[i].key, ns);
        while (slot[k]) k = (k + 1) & (ns - 1);
        slot[k] = i + 1;
    }
    free(m->slot);
    m->slot = slot;
    m->nslots = ns;
    return 0;
}

/* the thread of key, added (labels all set) when new; NONE on OOM */
static uint32_t thread_of(thread_map *m, uint64_t key)
{
    if (m->n && key == m->last_key) return m->last;
    if (m->n + 1 > m->cap && map_grow(m)) return NONE;
    uint32_t k = slot_of(key, m->nslots);
    while (m->slot[k] && m->th[m->slot[k] - 1].key != key) k = (k + 1) & (m->nslots - 1);
    if (!m->slot[k]) {
        m->th[m->n] = (thread_info){key, 0, 1, 1, 1, 0, 0};
        m->slot[k] = ++m->n;
    }
    m->last_key = key;
    return m->last = m->slot[k] - 1;
}

static int in_graph(const thread_info *p)
{
    return !(p->all_gpu || p->all_pid0 || p->all_tid0);
}

/* ---------- one thread's nesting ---------- */

typedef struct {
    double t, dur;
    uint32_t row;
    uint8_t end;
} point;

/* HTA's order of a thread's points at one time: the same event's start first; a
 * zero-dur event's points after non-zero starts and before non-zero ends; an end
 * before a start; longer starts and shorter ends first; then starts by ascending and
 * ends by descending event order */
static int cmp_point(const void *pa, const void *pb)
{
    const point *a = pa, *b = pb;
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

/* a point is row << 1 | end; its event's dur counts as 0 when negative */
static double clamped_dur(const tsql_hta_rows *r, uint32_t row)
{
    return r->dur[row] > 0 ? r->dur[row] : 0;
}

static point point_of(const tsql_hta_rows *r, uint32_t v)
{
    uint32_t row = v >> 1;
    double dur = clamped_dur(r, row);
    return (point){r->ts[row] + ((v & 1) ? dur : 0), dur, row, (uint8_t)(v & 1)};
}

typedef struct {
    uint64_t *key;
    uint32_t *val, *stack;
    point *run; /* one run of equal times, for the comparator */
    size_t run_cap;
} nest_scratch;

/* Nests the rows[0..n) of one thread: each start under the innermost open row, each end
 * closing the innermost. 0, or -1 on OOM. */
static int nest_thread(const tsql_hta_rows *r, const uint32_t *rows, uint32_t n, tsql_hta_callgraph *g,
                       nest_scratch *s)
{
    uint32_t np = 2 * n;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t i = rows[k];
        s->key[2 * k] = tsql_sort_key(r->ts[i]);
        s->key[2 * k + 1] = tsql_sort_key(r->ts[i] + clamped_dur(r, i));
        s->val[2 * k] = i << 1;
        s->val[2 * k + 1] = i << 1 | 1;
    }
    if (tsql_radix_sort(s->key, s->val, np)) return -1;
    /* runs of one time (short) in HTA's order */
    for (uint32_t a = 0, b; a < np; a = b) {
        double ta = point_of(r, s->val[a]).t;
        for (b = a + 1; b < np && point_of(r, s->val[b]).t == ta; b++) {}
        if (b - a < 2) continue;
        if (b - a > s->run_cap) {
            size_t cap = 2 * (size_t)(b - a);
            point *p = realloc(s->run, cap * sizeof *p);
            if (!p) return -1;
            s->run = p;
            s->run_cap = cap;
        }
        for (uint32_t j = a; j < b; j++) s->run[j - a] = point_of(r, s->val[j]);
        qsort(s->run, b - a, sizeof *s->run, cmp_point);
        for (uint32_t j = a; j < b; j++) s->val[j] = s->run[j - a].row << 1 | s->run[j - a].end;
    }
    uint32_t sp = 0;
    for (uint32_t j = 0; j < np; j++) {
        uint32_t row = s->val[j] >> 1;
        if (!(s->val[j] & 1)) {
            g->parent[row] = sp ? s->stack[sp - 1] : NONE;
            g->depth[row] = 0; /* in the graph */
            s->stack[sp++] = row;
        } else if (sp) {
            sp--;
        }
    }
    return 0;
}

/* ---------- the graph ---------- */

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

typedef struct tsql_hta_kkey {
    double ts;
    uint32_t row;
} kkey_t;

static int cmp_kkey_t(const void *a, const void *b)
{
    const kkey_t *x = a, *y = b;
    if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
    return x->row < y->row ? -1 : x->row > y->row;
}

static int is_kernel(const tsql_hta_rows *r, uint32_t i)
{
    return r->stream[i] > 0 && (r->flags[i] & TSQL_HTA_DEV);
}

/* The backward thread's top rows under the main thread's '## backward ##' rows, else
 * its ProfilerStep# rows, when they span them. 0, or -1 on OOM. */
static int link_backward(const tsql_trace *t, const tsql_hta_rows *r, tsql_hta_callgraph *g, thread_map *m,
                         uint32_t main_th, uint32_t bwd_th)
{
    uint32_t n = r->n;
    kkey_t *tops = malloc(((size_t)m->th[bwd_th].nrows + 1) * sizeof *tops);
    if (!tops) return -1;
    uint32_t ntops = 0;
    for (uint32_t c = 0; c < n; c++)
        if (g->depth[c] >= 0 && g->parent[c] == NONE && r->stream[c] == -1 &&
            thread_of(m, tsql_thread_key(t, r->uid[c])) == bwd_th)
            tops[ntops++] = (kkey_t){r->ts[c], c};
    qsort(tops, ntops, sizeof *tops, cmp_kkey_t);
    for (int pass = 0; pass < 2; pass++) {
        uint32_t found = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (g->depth[i] < 0 || r->stream[i] != -1 || thread_of(m, tsql_thread_key(t, r->uid[i])) != main_th)
                continue;
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
                if (g->parent[c] == NONE && r->ts[c] + r->dur[c] <= hi) g->parent[c] = i;
            }
        }
        if (found) break;
    }
    free(tops);
    return 0;
}

/* Children lists (CSR, in row order), depths from the tops, GPU descendants. order is
 * scratch for every row. */
static void finish(const tsql_hta_rows *r, tsql_hta_callgraph *g, uint32_t *order)
{
    uint32_t n = r->n;
    for (uint32_t i = 0; i < n; i++)
        if (g->depth[i] >= 0 && g->parent[i] != NONE) g->child_at[g->parent[i] + 1]++;
    for (uint32_t i = 0; i < n; i++) g->child_at[i + 1] += g->child_at[i];
    for (uint32_t i = 0; i < n; i++) /* child_at[p] is p's next free slot for now */
        if (g->depth[i] >= 0 && g->parent[i] != NONE) g->child[g->child_at[g->parent[i]]++] = i;
    for (uint32_t i = n; i > 0; i--) g->child_at[i] = g->child_at[i - 1]; /* back to starts */
    g->child_at[0] = 0;
    uint32_t no = 0;
    for (uint32_t i = 0; i < n; i++)
        if (g->depth[i] >= 0 && g->parent[i] == NONE) order[no++] = i;
    for (uint32_t q = 0; q < no; q++) { /* breadth first: parents before children */
        uint32_t i = order[q];
        g->depth[i] = g->parent[i] == NONE ? 0 : g->depth[g->parent[i]] + 1;
        for (uint32_t c = g->child_at[i]; c < g->child_at[i + 1]; c++) order[no++] = g->child[c];
    }
    g->nnodes = no;
    for (uint32_t q = no; q-- > 0;) {
        uint32_t i = order[q], p = g->parent[i];
        if (p == NONE) continue;
        int k = is_kernel(r, i);
        g->nkernels[p] += g->nkernels[i] + (uint32_t)k;
        g->kernel_dur[p] += g->kernel_dur[i] + (k ? r->dur[i] : 0.0);
    }
    for (uint32_t q = 0; q < no; q++)
        if (g->nkernels[order[q]] > g->max_kernels) g->max_kernels = g->nkernels[order[q]];
}

tsql_hta_callgraph *tsql_hta_callgraph_build(const tsql_trace *t, const tsql_hta_rows *r, int kept_only)
{
    uint32_t n = r->n;
    if (n >= UINT32_MAX / 2) return NULL; /* a point is row << 1 | end */
    size_t m = n ? n : 1;
    tsql_hta_callgraph *g = calloc(1, sizeof *g);
    uint8_t *sflags = calloc((size_t)t->strings.n + 1, 1);
    thread_map map = {0};
    nest_scratch ns = {0};
    uint32_t *by_thread = NULL, *at = NULL;
    int ok = g && sflags;
    if (ok) {
        g->n = n;
        g->depth = tsql_col_malloc(m * sizeof *g->depth);
        g->parent = tsql_col_malloc(m * sizeof *g->parent);
        g->nkernels = tsql_col_calloc(m, sizeof *g->nkernels);
        g->kernel_dur = tsql_col_calloc(m, sizeof *g->kernel_dur);
        g->child_at = tsql_col_calloc(m + 1, sizeof *g->child_at);
        g->child = tsql_col_malloc(m * sizeof *g->child);
        ok = g->depth && g->parent && g->nkernels && g->kernel_dur && g->child_at && g->child;
    }
    /* threads and their labels */
    for (uint32_t i = 0; ok && i < n; i++) {
        g->depth[i] = -1;
        g->parent[i] = NONE;
        if (kept_only && !(r->flags[i] & TSQL_HTA_KEEP)) continue;
        uint32_t u = r->uid[i], k = thread_of(&map, tsql_thread_key(t, u));
        if (k == NONE) {
            ok = 0;
            break;
        }
        thread_info *p = &map.th[k];
        if (r->stream[i] <= 0) p->all_gpu = 0;
        if (!(string_flags(t, sflags, t->pid[u]) & S_ZERO)) p->all_pid0 = 0;
        if (!(string_flags(t, sflags, t->tid[u]) & S_ZERO)) p->all_tid0 = 0;
        uint8_t nf = string_flags(t, sflags, t->name[u]);
        if (nf & S_STEP) p->main = 1;
        if (nf & S_AUTOGRAD) p->bwd = 1;
    }
    free(sflags);
    /* the CPU rows of the graph's threads, gathered by thread (in row order) */
    uint32_t ncpu = 0, biggest = 0;
    for (uint32_t i = 0; ok && i < n; i++) {
        if ((kept_only && !(r->flags[i] & TSQL_HTA_KEEP)) || r->stream[i] != -1) continue;
        thread_info *p = &map.th[thread_of(&map, tsql_thread_key(t, r->uid[i]))];
        if (in_graph(p)) p->nrows++, ncpu++;
    }
    if (ok) {
        by_thread = tsql_col_malloc(((size_t)ncpu + 1) * sizeof *by_thread);
        at = malloc(((size_t)map.n + 1) * sizeof *at);
        ok = by_thread && at;
    }
    if (ok) {
        uint32_t sum = 0;
        for (uint32_t k = 0; k < map.n; k++) {
            at[k] = sum;
            sum += map.th[k].nrows;
            if (map.th[k].nrows > biggest) biggest = map.th[k].nrows;
        }
        at[map.n] = sum;
        for (uint32_t i = 0; i < n; i++) {
            if ((kept_only && !(r->flags[i] & TSQL_HTA_KEEP)) || r->stream[i] != -1) continue;
            uint32_t k = thread_of(&map, tsql_thread_key(t, r->uid[i]));
            if (in_graph(&map.th[k])) by_thread[at[k]++] = i;
        }
        for (uint32_t k = map.n; k > 0; k--) at[k] = at[k - 1]; /* back to starts */
        at[0] = 0;
        size_t mp = 2 * (size_t)biggest + 1;
        ns.key = tsql_col_malloc(mp * sizeof *ns.key);
        ns.val = tsql_col_malloc(mp * sizeof *ns.val);
        ns.stack = tsql_col_malloc(((size_t)biggest + 1) * sizeof *ns.stack);
        ok = ns.key && ns.val && ns.stack;
    }
    for (uint32_t k = 0; ok && k < map.n; k++)
        if (at[k + 1] > at[k] && nest_thread(r, by_thread + at[k], at[k + 1] - at[k], g, &ns)) ok = 0;
    tsql_col_free(ns.key), tsql_col_free(ns.val), tsql_col_free(ns.stack), free(ns.run);
    tsql_col_free(by_thread), free(at);
    /* kernels under their launches */
    for (uint32_t i = 0; ok && i < n; i++) {
        if ((kept_only && !(r->flags[i] & TSQL_HTA_KEEP)) || r->stream[i] <= 0 || r->index_corr[i] <= 0) continue;
        uint32_t p = r->partner[i];
        if (p == NONE || g->depth[p] < 0) continue;
        if ((r->flags[i] & TSQL_HTA_DEV) && r->stream[p] == -1) {
            g->parent[i] = p;
            g->depth[i] = 0;
        }
    }
    /* the backward thread's top ops under the main thread's steps: exactly one main
     * and one bwd thread among the graph's */
    uint32_t nmain = 0, nbwd = 0, main_th = 0, bwd_th = 0;
    for (uint32_t k = 0; ok && k < map.n; k++) {
        if (!in_graph(&map.th[k])) continue;
        if (map.th[k].main) nmain++, main_th = k;
        else if (map.th[k].bwd) nbwd++, bwd_th = k;
    }
    if (ok && nmain == 1 && nbwd == 1 && link_backward(t, r, g, &map, main_th, bwd_th)) ok = 0;
    uint32_t *order = ok ? tsql_col_malloc(m * sizeof *order) : NULL;
    if (order) finish(r, g, order);
    ok = ok && order;
    tsql_col_free(order);
    free(map.th), free(map.slot);
    if (ok) return g;
    tsql_hta_callgraph_free(g);
    return NULL;
}

/* ---------- a node's kernels ---------- */

int tsql_hta_cg_scratch_init(tsql_hta_cg_scratch *s, const tsql_hta_callgraph *g)
{
    s->stack = malloc(((size_t)g->nnodes + 1) * sizeof *s->stack);
    s->keys = malloc(((size_t)g->max_kernels + 1) * sizeof *s->keys);
    if (s->stack && s->keys) return 0;
    tsql_hta_cg_scratch_free(s);
    return -1;
}

void tsql_hta_cg_scratch_free(tsql_hta_cg_scratch *s)
{
    free(s->stack);
    free(s->keys);
    s->stack = NULL;
    s->keys = NULL;
}

uint32_t tsql_hta_callgraph_kernels(const tsql_hta_callgraph *g, const tsql_hta_rows *r, uint32_t i,
                                    uint32_t *out, tsql_hta_cg_scratch *s)
{
    /* depth first, every node of the subtree pushed once */
    uint32_t want = g->nkernels[i], nk = 0, sp = 0;
    kkey_t *keys = s->keys;
    s->stack[sp++] = i;
    while (sp) {
        uint32_t v = s->stack[--sp];
        for (uint32_t c = g->child_at[v]; c < g->child_at[v + 1]; c++) {
            uint32_t w = g->child[c];
            if (is_kernel(r, w) && nk < want) keys[nk++] = (kkey_t){r->ts[w], w};
            s->stack[sp++] = w;
        }
    }
    tsql_qsort(keys, nk, sizeof *keys, cmp_kkey_t);
    for (uint32_t q = 0; q < nk; q++) out[q] = keys[q].row;
    return nk;
}

/* ---------- the kernel sequences of an operator ---------- */

/* 1 if needle[0..nlen) occurs in hay[0..hlen) (as SQL's instr finds it) */
static int contains(const char *hay, size_t hlen, const char *needle, size_t nlen)
{
    if (!nlen) return 1;
    for (const char *p = hay, *end = hay + hlen; (size_t)(end - p) >= nlen;) {
        const char *q = memchr(p, needle[0], (size_t)(end - p) - nlen + 1);
        if (!q) return 0;
        if (!memcmp(q, needle, nlen)) return 1;
        p = q + 1;
    }
    return 0;
}

void tsql_hta_kseq_free(tsql_hta_kseq *k)
{
    if (!k) return;
    free(k->root);
    free(k->kernel_at);
    free(k->kernel);
    free(k);
}

tsql_hta_kseq *tsql_hta_kseq_build(const tsql_trace *t, const tsql_hta_rows *r, const tsql_hta_callgraph *g,
                                   const char *op, size_t op_len, uint32_t min_kernels)
{
    tsql_hta_kseq *k = calloc(1, sizeof *k);
    uint8_t *match = calloc((size_t)t->strings.n + 1, 1); /* per name: 0 unknown, 1 no, 2 yes */
    if (!k || !match) {
        free(match);
        tsql_hta_kseq_free(k);
        return NULL;
    }
    /* the candidates' smallest depth; names tested once each */
    int32_t d0 = -1;
    for (uint32_t i = 0; i < g->n; i++) {
        uint32_t nm = t->name[r->uid[i]];
        if (g->depth[i] < 0 || !nm) continue;
        if (!match[nm])
            match[nm] = contains(tsql_intern_str(&t->strings, nm), tsql_intern_len(&t->strings, nm), op, op_len) ? 2 : 1;
        if (match[nm] == 2 && (d0 < 0 || g->depth[i] < d0)) d0 = g->depth[i];
    }
    size_t nroots = 0, nkern = 0;
    for (uint32_t i = 0; d0 >= 0 && i < g->n; i++)
        if (g->depth[i] == d0 && match[t->name[r->uid[i]]] == 2 && g->nkernels[i] >= min_kernels)
            nroots++, nkern += g->nkernels[i];
    tsql_hta_cg_scratch s = {0};
    k->root = malloc((nroots + 1) * sizeof *k->root);
    k->kernel_at = malloc((nroots + 1) * sizeof *k->kernel_at);
    k->kernel = malloc((nkern + 1) * sizeof *k->kernel);
    if (!k->root || !k->kernel_at || !k->kernel || tsql_hta_cg_scratch_init(&s, g)) {
        free(match);
        tsql_hta_kseq_free(k);
        return NULL;
    }
    /* roots at one depth do not nest: their kernels are disjoint */
    uint32_t nk = 0;
    k->kernel_at[0] = 0;
    for (uint32_t i = 0; nroots && i < g->n; i++) {
        if (g->depth[i] != d0 || match[t->name[r->uid[i]]] != 2 || g->nkernels[i] < min_kernels) continue;
        nk += tsql_hta_callgraph_kernels(g, r, i, k->kernel + nk, &s);
        k->root[k->n++] = i;
        k->kernel_at[k->n] = nk;
    }
    tsql_hta_cg_scratch_free(&s);
    free(match);
    return k;
}
