/*
 * py_tree.c — TraceLens's tree with Python frames (py_tree.h).
 *
 * Rows a graph-capture merge appended take the parents it recorded (copy_parents). The others:
 * candidates are sorted stably by ts, then stably by thread: each thread's events stay
 * in ts order (file order among equal ts), and the threads are independent, so one
 * stack at a time is enough.
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

static void *py_tree_build(tsql_trace *t)
{
    tsql_py_tree *pt = calloc(1, sizeof *pt);
    uint32_t m = 0;
    for (uint32_t i = 0; i < t->n; i++) m += (uint32_t)is_node(t, i);
    size_t cap = (size_t)(m ? m : 1);
    uint64_t *key = malloc(cap * sizeof *key);
    uint32_t *ord = malloc(cap * sizeof *ord);
    size_t scap = (size_t)t->n + 1; /* the deepest path holds every event at most */
    uint32_t *stack = malloc(scap * sizeof *stack);
    double *stack_end = malloc(scap * sizeof *stack_end);
    if (pt) pt->parent = malloc((size_t)(t->n ? t->n : 1) * sizeof *pt->parent);
    if (!pt || !pt->parent || !key || !ord || !stack || !stack_end) goto fail;
    pt->n = t->n;
    const copy_parents *cps = tsql_trace_cache_get(t, &copies_kind);
    uint32_t copies = cps && cps->first <= t->n ? cps->first : t->n;
    for (uint32_t i = 0; i < t->n; i++) pt->parent[i] = TSQL_NONE;
    m = 0;
    for (uint32_t i = 0; i < copies; i++) {
        if (!is_node(t, i)) continue;
        key[m] = tsql_sort_key(tsql_trace_ts_us(t, i));
        ord[m++] = i;
    }
    if (tsql_radix_sort(key, ord, m)) goto fail;
    for (uint32_t k = 0; k < m; k++) key[k] = tsql_thread_key(t, ord[k]);
    if (tsql_radix_sort(key, ord, m)) goto fail;
    uint32_t depth = 0;
    for (uint32_t k = 0; k < m; k++) {
        uint32_t e = ord[k];
        if (k && key[k] != key[k - 1]) depth = 0; /* a new thread */
        double ts = tsql_trace_ts_us(t, e);
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
    free(stack);
    free(stack_end);
    return pt;
fail:
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
