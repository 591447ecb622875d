/*
 * py_tree.c — TraceLens's tree with Python frames (py_tree.h).
 *
 * Rows a graph-capture merge appended keep the merge's parents (first_copy). The others:
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

/* The first row a graph-capture merge appended (core/load/capture_merge.h: its first
 * CaptureRoot, a runtime row under a graph launch), or t->n when the trace is not merged.
 * The copies all carry their graph launch's ts and dur: time says nothing about their
 * nesting, so they keep the parents the merge gave them. */
static uint32_t first_copy(const tsql_trace *t)
{
    for (uint32_t i = 0; i < t->n; i++) {
        if (t->kind[i] != TSQL_K_RUNTIME || !t->name[i] || t->parent[i] == TSQL_NONE ||
            strcmp(tsql_intern_text(&t->strings, t->name[i]), "CaptureRoot") != 0)
            continue;
        const char *pn = t->name[t->parent[i]] ? tsql_intern_text(&t->strings, t->name[t->parent[i]]) : "";
        if (strcasestr(pn, "graphlaunch")) return i;
    }
    return t->n;
}

/* the nearest ancestor of u (by the merge's parents) that is not a Python frame */
static uint32_t nonpy_above(const tsql_trace *t, uint32_t u)
{
    uint32_t p = t->parent[u];
    while (p != TSQL_NONE && t->kind[p] == TSQL_K_PYTHON) p = t->parent[p];
    return p;
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
    uint32_t copies = first_copy(t);
    for (uint32_t i = 0; i < t->n; i++) pt->parent[i] = i < copies ? TSQL_NONE : t->parent[i];
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
    /* the merged copies (uid order is the capture's start order: a pre-order of its tree
     * with Python frames): a Python frame has its parent; a copied op or runtime call has
     * its nearest non-Python ancestor P, and goes under the innermost frame still on the
     * path whose own nearest non-Python ancestor is P (a frame that ended before it
     * cannot be told from one still open: its times are gone) */
    depth = 0;
    for (uint32_t i = copies; i < t->n; i++) {
        if (tsql_kind_is_gpu(t->kind[i])) continue;
        uint32_t p = t->parent[i];
        if (t->kind[i] == TSQL_K_PYTHON) {
            while (depth && stack[depth - 1] != p) depth--;
        } else {
            while (depth && stack[depth - 1] != p &&
                   !(t->kind[stack[depth - 1]] == TSQL_K_PYTHON && nonpy_above(t, stack[depth - 1]) == p))
                depth--;
            if (depth) p = stack[depth - 1];
        }
        pt->parent[i] = p;
        if (depth == 0 && p != TSQL_NONE) stack[depth++] = p;
        if (depth < scap) stack[depth++] = i;
    }
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
