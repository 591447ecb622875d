/*
 * py_tree.c — TraceLens's tree with Python frames (py_tree.h).
 *
 * Rows a graph-capture merge appended take the parents it recorded (copy_parents). The others:
 * candidates are grouped by thread, each thread's in ts order (file order among equal
 * ts): the order TraceLens's global stable sort by ts gives each thread, and the
 * threads are independent, so one stack at a time is enough. A thread's events come as
 * a few runs already in ts order, which are merged (radix sort when there are many).
 * Rows the inference report's wrapping pseudo ops moved take them as parents
 * (moved_parents).
 */
#include "analysis/py_tree.h"

#include <stdlib.h>
#include <string.h>

#include "util/sort.h"

static int is_node(const tsql_trace *t, uint32_t i)
{
    int k = t->kind[i];
    return (k == TSQL_K_CPU_OP || k == TSQL_K_RUNTIME || k == TSQL_K_DRIVER || k == TSQL_K_PYTHON) &&
           (t->ph[i] == 'X' || (t->ph[i] == 'B' && (t->flags[i] & TSQL_F_PAIRED))) &&
           t->ts_ns[i] != TSQL_NULL && t->dur_ns[i] != TSQL_NULL;
}

/* The rows a graph-capture merge appended, with their parents in the capture tree with
 * Python frames: the copies all carry their graph launch's ts and dur, so time says
 * nothing about their nesting. */
typedef struct copy_parents {
    uint32_t first, n; /* the rows first .. first + n - 1 */
    uint32_t *parent;  /* [row - first] */
} copy_parents;

static void copy_parents_free(void *p)
{
    copy_parents *cp = p;
    if (!cp) return;
    free(cp->parent);
    free(cp);
}
static void *no_build(tsql_trace *t)
{
    (void)t;
    return NULL;
}
static const tsql_cache_kind copies_kind = {"py_tree.copy_parents", no_build, copy_parents_free};

int tsql_py_tree_record_copies(tsql_trace *t, uint32_t first, uint32_t *parents)
{
    copy_parents *had = tsql_trace_cache_get(t, &copies_kind);
    if (had && first == had->first + had->n) {
        /* rows appended after earlier ones (pseudo ops after a capture merge): one range */
        uint32_t *np = realloc(had->parent, ((size_t)t->n - had->first) * sizeof *np);
        if (!np) {
            free(parents);
            return -1;
        }
        memcpy(np + had->n, parents, ((size_t)t->n - first) * sizeof *np);
        free(parents);
        had->parent = np;
        had->n = t->n - had->first;
        return 0;
    }
    if (had) {
        free(parents);
        return -1;
    }
    copy_parents *cp = calloc(1, sizeof *cp);
    if (!cp) {
        free(parents);
        return -1;
    }
    cp->first = first;
    cp->n = t->n - first;
    cp->parent = parents;
    if (tsql_trace_cache_put(t, &copies_kind, cp)) {
        copy_parents_free(cp);
        return -1;
    }
    return 0;
}

/* Rows of the trace whose parent a later change set (the inference report's wrapping
 * pseudo ops, core/analysis/pseudo_ops.h): applied after time and the copies. */
typedef struct moved_parents {
    uint32_t n;
    uint32_t *row, *parent;
} moved_parents;

static void moved_parents_free(void *p)
{
    moved_parents *mp = p;
    if (!mp) return;
    free(mp->row);
    free(mp->parent);
    free(mp);
}
static const tsql_cache_kind moves_kind = {"py_tree.moved_parents", no_build, moved_parents_free};

int tsql_py_tree_record_moves(tsql_trace *t, const uint32_t *rows, const uint32_t *parents, uint32_t n)
{
    moved_parents *mp = tsql_trace_cache_get(t, &moves_kind);
    int fresh = mp == NULL;
    if (fresh && !(mp = calloc(1, sizeof *mp))) return -1;
    size_t m = (size_t)mp->n + n;
    uint32_t *r = realloc(mp->row, (m ? m : 1) * sizeof *r);
    if (r) mp->row = r;
    uint32_t *q = r ? realloc(mp->parent, (m ? m : 1) * sizeof *q) : NULL;
    if (q) mp->parent = q;
    if (!r || !q) {
        if (fresh) moved_parents_free(mp);
        return -1;
    }
    memcpy(mp->row + mp->n, rows, (size_t)n * sizeof *rows);
    memcpy(mp->parent + mp->n, parents, (size_t)n * sizeof *parents);
    mp->n = (uint32_t)m;
    if (fresh && tsql_trace_cache_put(t, &moves_kind, mp)) {
        moved_parents_free(mp);
        return -1;
    }
    return 0;
}

static void py_tree_free(void *p)
{
    tsql_py_tree *pt = p;
    if (!pt) return;
    free(pt->parent);
    free(pt);
}

/* the double whose sort key (tsql_sort_key) k is */
static double key_ts(uint64_t k)
{
    uint64_t u = (k >> 63) ? k & ~UINT64_C(0x8000000000000000) : ~k;
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

/* Thread numbers in first-met order: a small open-addressing table of thread keys. */
typedef struct thread_ids {
    uint64_t *key;
    uint32_t *id;
    uint32_t cap, n;
} thread_ids;

static uint32_t thread_id(thread_ids *h, uint64_t k)
{
    if (2 * (h->n + 1) > h->cap) {
        uint32_t nc = h->cap ? h->cap * 2 : 64;
        uint64_t *nk = malloc((size_t)nc * sizeof *nk);
        uint32_t *ni = malloc((size_t)nc * sizeof *ni);
        if (!nk || !ni) {
            free(nk);
            free(ni);
            return TSQL_NONE;
        }
        for (uint32_t j = 0; j < nc; j++) ni[j] = TSQL_NONE;
        for (uint32_t j = 0; j < h->cap; j++) {
            if (h->id[j] == TSQL_NONE) continue;
            uint32_t s = (uint32_t)(h->key[j] * 0x9E3779B97F4A7C15ull >> 32) & (nc - 1);
            while (ni[s] != TSQL_NONE) s = (s + 1) & (nc - 1);
            nk[s] = h->key[j], ni[s] = h->id[j];
        }
        free(h->key);
        free(h->id);
        h->key = nk, h->id = ni, h->cap = nc;
    }
    uint32_t s = (uint32_t)(k * 0x9E3779B97F4A7C15ull >> 32) & (h->cap - 1);
    for (; h->id[s] != TSQL_NONE; s = (s + 1) & (h->cap - 1))
        if (h->key[s] == k) return h->id[s];
    h->key[s] = k;
    return h->id[s] = h->n++;
}

/* A thread's events come as runs already in ts order (its ops and calls, then its
 * Python frames, per step, say): up to this many are merged, more are radix sorted. */
#define MAX_RUNS 4096

/* Sorts key[0 .. n) ascending, moving ord along, stably, by merging its nr ascending
 * runs pairwise, back and forth between the arrays and a scratch copy. 0, or -1 on out
 * of memory. */
static int merge_runs(uint64_t *key, uint32_t *ord, uint32_t n, uint32_t nr)
{
    uint32_t *start = malloc(((size_t)nr + 1) * sizeof *start);
    uint64_t *k2 = malloc((size_t)n * sizeof *k2);
    uint32_t *o2 = malloc((size_t)n * sizeof *o2);
    if (!start || !k2 || !o2) {
        free(start);
        free(k2);
        free(o2);
        return -1;
    }
    uint32_t r0 = 0;
    start[r0++] = 0;
    for (uint32_t k = 1; k < n; k++)
        if (key[k - 1] > key[k]) start[r0++] = k;
    start[r0] = n;
    nr = r0;
    uint64_t *ka = key, *kb = k2;
    uint32_t *oa = ord, *ob = o2;
    while (nr > 1) {
        uint32_t w = 0;
        for (uint32_t r = 0; r < nr; r += 2) {
            uint32_t i = start[r], mid = start[r + 1 < nr ? r + 1 : nr], end = start[r + 2 < nr ? r + 2 : nr];
            uint32_t j = mid, o = i;
            /* equal keys: the left run's first, so the row order stays */
            while (i < mid && j < end)
                if (ka[j] < ka[i]) kb[o] = ka[j], ob[o++] = oa[j++];
                else kb[o] = ka[i], ob[o++] = oa[i++];
            while (i < mid) kb[o] = ka[i], ob[o++] = oa[i++];
            while (j < end) kb[o] = ka[j], ob[o++] = oa[j++];
            start[w++] = start[r];
        }
        start[w] = n;
        nr = w;
        uint64_t *kt = ka;
        ka = kb, kb = kt;
        uint32_t *ot = oa;
        oa = ob, ob = ot;
    }
    if (ka != key) {
        memcpy(key, ka, (size_t)n * sizeof *key);
        memcpy(ord, oa, (size_t)n * sizeof *ord);
    }
    free(start);
    free(k2);
    free(o2);
    return 0;
}

/* The tree's events (rows below `rows`) grouped by thread, each thread's in ts order,
 * equal ts in row order, into *ordp[0 .. *m) with their sort keys in *keyp (both
 * allocated here); the threads'
 * runs start at (*seg)[0 .. *nseg), then (*seg)[*nseg] = *m. A thread's events mostly
 * come in ts order already: such a run is kept as it is, another one radix sorted (as
 * stable). 0, or -1 on out of memory. */
static int by_thread_then_ts(const tsql_trace *t, uint32_t rows, uint64_t **keyp, uint32_t **ordp, uint32_t *m,
                             uint32_t **seg, uint32_t *nseg)
{
    thread_ids h = {0};
    uint32_t *tid = malloc((size_t)(rows ? rows : 1) * sizeof *tid), *at = NULL, *ord = NULL;
    uint64_t *key = NULL;
    int rc = -1;
    *seg = NULL;
    if (!tid) goto out;
    /* thread number of each node (TSQL_NONE: not a node) */
    uint32_t n = 0;
    for (uint32_t i = 0; i < rows; i++) {
        tid[i] = TSQL_NONE;
        if (!is_node(t, i)) continue;
        if ((tid[i] = thread_id(&h, tsql_thread_key(t, i))) == TSQL_NONE) goto out;
        n++;
    }
    at = calloc((size_t)h.n + 1, sizeof *at);
    key = malloc((size_t)(n ? n : 1) * sizeof *key);
    ord = malloc((size_t)(n ? n : 1) * sizeof *ord);
    if (!at || !key || !ord) goto out;
    for (uint32_t i = 0; i < rows; i++)
        if (tid[i] != TSQL_NONE) at[tid[i] + 1]++;
    for (uint32_t g = 0; g < h.n; g++) at[g + 1] += at[g];
    *seg = malloc(((size_t)h.n + 1) * sizeof **seg);
    if (!*seg) goto out;
    memcpy(*seg, at, ((size_t)h.n + 1) * sizeof **seg);
    for (uint32_t i = 0; i < rows; i++)
        if (tid[i] != TSQL_NONE) {
            uint32_t k = at[tid[i]]++;
            ord[k] = i;
            key[k] = tsql_sort_key(tsql_trace_ts_us(t, i));
        }
    for (uint32_t g = 0; g < h.n; g++) {
        uint32_t a = (*seg)[g], b = (*seg)[g + 1], runs = 1;
        for (uint32_t k = a + 1; k < b && runs <= MAX_RUNS; k++) runs += key[k - 1] > key[k];
        if (runs == 1) continue;
        if (runs <= MAX_RUNS ? merge_runs(key + a, ord + a, b - a, runs) : tsql_radix_sort(key + a, ord + a, b - a))
            goto out;
    }
    *m = n;
    *nseg = h.n;
    *keyp = key;
    *ordp = ord;
    rc = 0;
out:
    if (rc) {
        free(*seg);
        *seg = NULL;
        free(key);
        free(ord);
    }
    free(tid);
    free(at);
    free(h.key);
    free(h.id);
    return rc;
}

static void *py_tree_build(tsql_trace *t)
{
    tsql_py_tree *pt = calloc(1, sizeof *pt);
    uint32_t m = 0, *seg = NULL, nseg = 0;
    uint64_t *key = NULL;
    uint32_t *ord = NULL;
    size_t scap = (size_t)t->n + 1; /* the deepest path holds every event at most */
    uint32_t *stack = malloc(scap * sizeof *stack);
    double *stack_end = malloc(scap * sizeof *stack_end);
    if (pt) pt->parent = malloc((size_t)(t->n ? t->n : 1) * sizeof *pt->parent);
    if (!pt || !pt->parent || !stack || !stack_end) goto fail;
    pt->n = t->n;
    const copy_parents *cps = tsql_trace_cache_get(t, &copies_kind);
    uint32_t copies = cps && cps->first <= t->n ? cps->first : t->n;
    for (uint32_t i = 0; i < t->n; i++) pt->parent[i] = TSQL_NONE;
    if (by_thread_then_ts(t, copies, &key, &ord, &m, &seg, &nseg)) goto fail;
    uint32_t depth = 0;
    for (uint32_t k = 0, g = 0; k < m; k++) {
        uint32_t e = ord[k];
        if (k == seg[g]) depth = 0, g++; /* a new thread */
        double ts = key_ts(key[k]);
        double t_end = ts + tsql_trace_dur_us(t, e);
        while (depth && ts >= stack_end[depth - 1]) depth--;
        if (depth && t_end > stack_end[depth - 1]) {
            if (stack_end[depth - 1] - ts < 1.0 && depth >= 2) depth--;
            else continue; /* left out of TraceLens's tree */
        }
        if (depth) pt->parent[e] = stack[depth - 1];
        stack[depth] = e;
        stack_end[depth++] = t_end;
    }
    /* the merged copies: their recorded parents (GPU events follow below) */
    for (uint32_t i = copies; cps && i - copies < cps->n && i < t->n; i++)
        if (!tsql_kind_is_gpu(t->kind[i])) pt->parent[i] = cps->parent[i - copies];
    /* rows moved below a pseudo op, in the order they were moved */
    const moved_parents *mp = tsql_trace_cache_get(t, &moves_kind);
    for (uint32_t i = 0; mp && i < mp->n; i++)
        if (mp->row[i] < t->n) pt->parent[mp->row[i]] = mp->parent[i];
    /* GPU events under TraceLens's launching call */
    const tsql_kernels *ks = &t->kernels;
    for (uint32_t r = 0; r < ks->n; r++)
        if (ks->tl_runtime[r] != TSQL_NONE) pt->parent[ks->uid[r]] = ks->tl_runtime[r];
    free(key);
    free(ord);
    free(seg);
    free(stack);
    free(stack_end);
    return pt;
fail:
    free(seg);
    free(key);
    free(ord);
    free(stack);
    free(stack_end);
    py_tree_free(pt);
    return NULL;
}

static const tsql_cache_kind py_tree_kind = {"py_tree", py_tree_build, py_tree_free};

const tsql_py_tree *tsql_py_tree_get(tsql_trace *t)
{
    return tsql_trace_cached(t, &py_tree_kind);
}

int tsql_py_stack_frame(const char *name, int kind)
{
    return kind == TSQL_K_CPU_OP || strstr(name, "nn.Module") || strstr(name, "::") || strchr(name, '/');
}

size_t tsql_strip_instance_ids(const char *name, char *out)
{
    size_t n = 0;
    for (const char *p = name; *p;) {
        if (*p == '_' && p[1] >= '0' && p[1] <= '9') {
            p++;
            while (*p >= '0' && *p <= '9') p++;
            continue;
        }
        out[n++] = *p++;
    }
    out[n] = 0;
    return n;
}
