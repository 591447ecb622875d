/*
 * hta_critical_path.c — HTA's critical path of one rank (see hta_critical_path.h and
 * docs/hta.md). The graph is built in HTA's order (runtime-lock edges, then each CPU
 * thread's call stack, then the kernels), because the longest path's ties go to the
 * first candidate in that order: nodes enter the graph with their first edge, the
 * topological order is generation by generation in that insertion order, and each
 * node keeps its first best predecessor.
 */
#include "analysis/hta_critical_path.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const tsql_hta_cp_type_names[5] = {
    "critical_path_operator", "critical_path_dependency", "critical_path_kernel_launch_delay",
    "critical_path_kernel_kernel_delay", "critical_path_sync_dependency"};

const char *const tsql_hta_cp_bound_names[6] = {
    "", "cpu_bound", "gpu_compute_bound", "gpu_communication_bound", "gpu_kernel_kernel_overhead",
    "gpu_kernel_launch_overhead"};

/* a kernel-kernel gap at least this long (µs) is not an edge */
#define KERNEL_KERNEL_MAX_GAP 1500.0
#define NONE UINT32_MAX

char *tsql_hta_short_name(const char *name, char *out, size_t cap)
{
    if (!cap) return out;
    size_t len = strlen(name);
    if (tsql_hta_kernel_type(name) == TSQL_HTA_MEMORY || (!strchr(name, '<') && !strchr(name, '('))) {
        size_t n = len < cap - 1 ? len : cap - 1;
        memcpy(out, name, n);
        out[n] = 0;
        return out;
    }
    /* a stack of characters: '>' and ')' unwind to their opener ("->" does not count) */
    size_t sp = 0;
    for (size_t i = 0; i < len && sp < cap - 1; i++) {
        char c = name[i];
        if (c == '-' && name[i + 1] == '>') {
            i++;
            continue;
        }
        if (c == '>' || c == ')') {
            char open = c == '>' ? '<' : '(';
            while (sp && out[sp - 1] != open) sp--;
            if (sp) sp--;
        } else {
            out[sp++] = c;
        }
    }
    out[sp] = 0;
    char *last = strrchr(out, ' ');
    if (last) memmove(out, last + 1, strlen(last + 1) + 1);
    return out;
}

/* ---------- the graph ---------- */

typedef struct {
    uint32_t src, dst;
    double weight, gweight;
    uint32_t attributed;
    uint8_t type, has_attr;
} edge_t;

typedef struct {
    const tsql_trace *t;
    const tsql_hta_rows *r;
    /* nodes, in (ts, uid, start first) order */
    uint32_t nn;
    uint32_t *node_row;
    double *node_ts;
    uint8_t *node_start, *node_blocking, *node_lock;
    uint32_t *start_of, *end_of; /* per row: its nodes, NONE = no nodes */
    /* edges, in insertion order; a hash of (src, dst) finds an edge added again */
    edge_t *e;
    uint32_t ne, ecap;
    uint32_t *hash; /* edge index + 1, 0 = empty */
    uint32_t hcap;
    uint32_t *gorder; /* per node: position it entered the graph, NONE = not yet */
    uint32_t ng;
    uint32_t *gnodes; /* nodes in the order they entered the graph */
    int oom;
} graph;

static uint32_t hash_key(uint32_t a, uint32_t b, uint32_t cap)
{
    uint64_t k = ((uint64_t)a << 32 | b) * 0x9E3779B97F4A7C15ull;
    return (uint32_t)(k >> 32) & (cap - 1);
}

static int hash_grow(graph *g)
{
    uint32_t cap = g->hcap ? g->hcap * 2 : 1024;
    uint32_t *h = calloc(cap, sizeof *h);
    if (!h) return -1;
    for (uint32_t i = 0; i < g->ne; i++) {
        uint32_t k = hash_key(g->e[i].src, g->e[i].dst, cap);
        while (h[k]) k = (k + 1) & (cap - 1);
        h[k] = i + 1;
    }
    free(g->hash);
    g->hash = h;
    g->hcap = cap;
    return 0;
}

static void enter_graph(graph *g, uint32_t node)
{
    if (g->gorder[node] != NONE) return;
    g->gorder[node] = g->ng;
    g->gnodes[g->ng++] = node;
}

/* adds src -> dst (an edge added again takes the new type and weight, and keeps its
 * place and attribution, as a networkx DiGraph does); returns its index or NONE */
static uint32_t add_edge(graph *g, uint32_t src, uint32_t dst, int type, int zero_weight)
{
    if (g->oom || src == dst) return NONE;
    if (2 * (g->ne + 1) > g->hcap && hash_grow(g)) {
        g->oom = 1;
        return NONE;
    }
    double w = (type == TSQL_HTA_CP_DEPENDENCY || type == TSQL_HTA_CP_SYNC || zero_weight)
                   ? 0.0
                   : g->node_ts[dst] - g->node_ts[src];
    uint32_t k = hash_key(src, dst, g->hcap);
    while (g->hash[k]) {
        edge_t *x = &g->e[g->hash[k] - 1];
        if (x->src == src && x->dst == dst) {
            x->type = (uint8_t)type;
            x->weight = x->gweight = w;
            return g->hash[k] - 1;
        }
        k = (k + 1) & (g->hcap - 1);
    }
    if (g->ne == g->ecap) {
        uint32_t cap = g->ecap ? g->ecap * 2 : 1024;
        edge_t *e = realloc(g->e, cap * sizeof *e);
        if (!e) {
            g->oom = 1;
            return NONE;
        }
        g->e = e;
        g->ecap = cap;
    }
    g->e[g->ne] = (edge_t){src, dst, w, w, NONE, (uint8_t)type, 0};
    g->hash[k] = g->ne + 1;
    enter_graph(g, src);
    enter_graph(g, dst);
    return g->ne++;
}

/* HTA's attribution of an op or kernel span: a kernel-kernel gap to the previous
 * kernel; from a start, to that start's event; into an end, to that end's event;
 * from an end to a start, to the parent of the event that owns the source */
static void attribute(graph *g, uint32_t ei, uint32_t parent_row)
{
    if (ei == NONE || ei >= g->ne || !g->e) return;
    edge_t *x = &g->e[ei];
    if (x->type != TSQL_HTA_CP_OPERATOR && x->type != TSQL_HTA_CP_KERNEL_KERNEL) return;
    uint32_t row;
    if (x->type == TSQL_HTA_CP_KERNEL_KERNEL || g->node_start[x->src]) row = g->node_row[x->src];
    else if (!g->node_start[x->dst]) row = g->node_row[x->dst];
    else row = parent_row;
    x->attributed = row;
    x->has_attr = 1;
}

/* ---------- preparation ---------- */

static int name_is(const tsql_trace *t, uint32_t uid, const char *s)
{
    return !strcmp(tsql_intern_text(&t->strings, t->name[uid]), s);
}

static int cat_is(const tsql_trace *t, uint32_t uid, const char *s)
{
    return !strcmp(tsql_intern_text(&t->strings, t->cat[uid]), s);
}

static int is_blocking_name(const char *n)
{
    static const char *const blocking[] = {"cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventQuery",
                                           "cudaEventSynchronize", "cudaMemcpy", "cudaMemcpyAsync"};
    for (size_t i = 0; i < sizeof blocking / sizeof *blocking; i++)
        if (!strcmp(n, blocking[i])) return 1;
    return 0;
}

/* the calls that take the CUDA runtime's lock (HTA models only these three) */
static int is_lock_name(const char *n)
{
    return !strcmp(n, "cudaLaunchKernel") || !strcmp(n, "cudaMemcpyAsync") || !strcmp(n, "cudaHostAlloc");
}

typedef struct {
    double ts;
    uint32_t uid, row;
    uint8_t end;
} nkey;

static int cmp_nkey(const void *pa, const void *pb)
{
    const nkey *a = pa, *b = pb;
    if (a->ts != b->ts) return a->ts < b->ts ? -1 : 1;
    if (a->uid != b->uid) return a->uid < b->uid ? -1 : 1;
    return (int)a->end - (int)b->end;
}

/* queue length after each launch and kernel event of the rank (HTA's time series, with
 * launches before kernels at equal ts); NAN where a row has none */
typedef struct {
    int64_t stream;
    double ts;
    uint8_t kernel;
    uint32_t uid, row;
} qev;

static int cmp_qev(const void *pa, const void *pb)
{
    const qev *a = pa, *b = pb;
    if (a->stream != b->stream) return a->stream < b->stream ? -1 : 1;
    if (a->ts != b->ts) return a->ts < b->ts ? -1 : 1;
    if (a->kernel != b->kernel) return (int)a->kernel - (int)b->kernel;
    return a->uid < b->uid ? -1 : a->uid > b->uid;
}

typedef struct {
    int64_t corr;
    uint32_t row;
} crow;

static int cmp_crow(const void *pa, const void *pb)
{
    const crow *a = pa, *b = pb;
    if (a->corr != b->corr) return a->corr < b->corr ? -1 : 1;
    return a->row < b->row ? -1 : a->row > b->row;
}

static const crow *crow_find(const crow *c, uint32_t n, int64_t corr)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (c[mid].corr < corr) lo = mid + 1;
        else hi = mid;
    }
    return lo < n && c[lo].corr == corr ? &c[lo] : NULL;
}

static int queue_lengths(const tsql_hta_rows *r, const uint8_t *used, double *ql)
{
    uint32_t n = r->n;
    crow *dev = malloc((r->ndev + 1) * sizeof *dev), *lc = malloc((r->nlaunch + 1) * sizeof *lc);
    qev *ev = malloc(((size_t)r->ndev + r->nlaunch + 1) * sizeof *ev);
    if (!dev || !lc || !ev) {
        free(dev), free(lc), free(ev);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++) ql[i] = NAN;
    uint32_t nd = 0, nl = 0, ne = 0;
    for (uint32_t k = 0; k < r->ndev; k++)
        if (used[r->dev[k]]) dev[nd++] = (crow){r->correlation[r->dev[k]], r->dev[k]};
    qsort(dev, nd, sizeof *dev, cmp_crow);
    for (uint32_t k = 0; k < r->nlaunch; k++) {
        uint32_t i = r->launch[k];
        if (!used[i] || !(r->flags[i] & TSQL_HTA_QUEUE_LAUNCH) || r->index_corr[i] <= 0) continue;
        lc[nl++] = (crow){r->correlation[i], i};
        const crow *d = crow_find(dev, nd, r->correlation[i]);
        if (d) ev[ne++] = (qev){r->stream[d->row], r->ts[i], 0, r->uid[i], i};
    }
    qsort(lc, nl, sizeof *lc, cmp_crow);
    for (uint32_t k = 0; k < nd; k++)
        if (crow_find(lc, nl, dev[k].corr)) ev[ne++] = (qev){r->stream[dev[k].row], r->ts[dev[k].row], 1,
                                                            r->uid[dev[k].row], dev[k].row};
    qsort(ev, ne, sizeof *ev, cmp_qev);
    int64_t q = 0;
    for (uint32_t k = 0; k < ne; k++) {
        if (k == 0 || ev[k].stream != ev[k - 1].stream) q = 0;
        q += ev[k].kernel ? -1 : 1;
        ql[ev[k].row] = (double)q;
    }
    free(dev), free(lc), free(ev);
    return 0;
}

/* ---------- call stacks ---------- */

typedef struct {
    double t, dur;
    uint32_t row, uid;
    uint8_t end;
} cpoint;

/* HTA's order of a thread's start and end points (durations here are > 0 or 0) */
static int cmp_cpoint(const void *pa, const void *pb)
{
    const cpoint *a = pa, *b = pb;
    if (a->uid == b->uid) return (int)a->end - (int)b->end;
    if (a->t != b->t) return a->t < b->t ? -1 : 1;
    if (a->end == b->end) {
        if (a->dur == b->dur) return a->end ? (a->uid < b->uid ? 1 : -1) : (a->uid < b->uid ? -1 : 1);
        return a->end ? (a->dur < b->dur ? -1 : 1) : (a->dur < b->dur ? 1 : -1);
    }
    if (a->dur > 0 && b->dur > 0) return a->end ? -1 : 1;
    if (a->dur == 0 && b->dur == 0) return a->uid < b->uid ? -1 : 1;
    return a->end ? 1 : -1;
}

/* a pid or tid as pandas groups it: numbers by value, before text */
typedef struct {
    int text;
    double num;
    const char *s;
} idval;

static idval id_value(const tsql_trace *t, uint32_t sid)
{
    const char *s = tsql_intern_text(&t->strings, sid);
    char *endp;
    double d = strtod(s, &endp);
    if (*s && !*endp && isfinite(d)) return (idval){0, d, s};
    return (idval){1, 0, s};
}

static int cmp_idval(idval a, idval b)
{
    if (a.text != b.text) return a.text - b.text;
    if (!a.text) return a.num < b.num ? -1 : a.num > b.num;
    return strcmp(a.s, b.s);
}

typedef struct {
    idval pid, tid;
    uint32_t row;
} trow;

static int cmp_trow(const void *pa, const void *pb)
{
    const trow *a = pa, *b = pb;
    int c = cmp_idval(a->pid, b->pid);
    if (!c) c = cmp_idval(a->tid, b->tid);
    if (!c) c = a->row < b->row ? -1 : a->row > b->row;
    return c;
}

static int shares_lock(const graph *g, uint32_t a, uint32_t b)
{
    return g->node_lock[a] && g->node_lock[b] && (g->node_start[a] || !g->node_start[b]);
}

/* one CPU thread: nest its rows, then walk the tree adding HTA's call-stack edges */
static int thread_edges(graph *g, const trow *rows, uint32_t n, uint32_t *local)
{
    const tsql_hta_rows *r = g->r;
    cpoint *pts = malloc((2 * (size_t)n + 1) * sizeof *pts);
    uint32_t *parent = malloc((n + 1) * sizeof *parent), *first = malloc((n + 1) * sizeof *first),
             *next = malloc((n + 1) * sizeof *next), *last = malloc((n + 1) * sizeof *last),
             *stack = malloc((n + 1) * sizeof *stack);
    int rc = -1;
    if (!pts || !parent || !first || !next || !last || !stack) goto out;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t i = rows[k].row;
        local[i] = k;
        double dur = r->dur[i] > 0 ? r->dur[i] : 0;
        pts[2 * k] = (cpoint){r->ts[i], dur, i, r->uid[i], 0};
        pts[2 * k + 1] = (cpoint){r->ts[i] + dur, dur, i, r->uid[i], 1};
        parent[k] = first[k] = next[k] = last[k] = NONE;
    }
    qsort(pts, 2 * (size_t)n, sizeof *pts, cmp_cpoint);
    /* children in the order they start; an end pops whatever is on top */
    uint32_t sp = 0, root_first = NONE, root_last = NONE;
    for (uint32_t j = 0; j < 2 * n; j++) {
        uint32_t k = local[pts[j].row];
        if (!pts[j].end) {
            uint32_t p = sp ? stack[sp - 1] : NONE;
            parent[k] = p;
            uint32_t *f = p == NONE ? &root_first : &first[p], *l = p == NONE ? &root_last : &last[p];
            if (*l == NONE) *f = k;
            else next[*l] = k;
            *l = k;
            stack[sp++] = k;
        } else if (sp) {
            sp--;
        }
    }
    /* depth-first walk (iterative): enter a node, its children, exit it */
    uint32_t last_node = NONE, last_parent = NONE;
    int depth = 0;
    sp = 0;
    uint32_t cur = root_first;
    while (cur != NONE || sp) {
        if (cur != NONE) {
            uint32_t i = rows[cur].row;
            uint32_t s = g->start_of[i];
            if (s != NONE) {
                if (last_node != NONE && !shares_lock(g, last_node, s)) {
                    uint32_t e = add_edge(g, last_node, s, depth == 0 ? TSQL_HTA_CP_DEPENDENCY : TSQL_HTA_CP_OPERATOR, 0);
                    attribute(g, e, last_parent);
                }
                last_node = s;
                last_parent = parent[cur] == NONE ? NONE : rows[parent[cur]].row;
                depth++;
            }
            stack[sp++] = cur;
            cur = first[cur];
        } else {
            uint32_t k = stack[--sp];
            uint32_t i = rows[k].row;
            uint32_t e_node = g->end_of[i];
            if (e_node != NONE) {
                if (last_node != NONE && !shares_lock(g, last_node, e_node)) {
                    uint32_t e = add_edge(g, last_node, e_node, TSQL_HTA_CP_OPERATOR, g->node_blocking[e_node]);
                    attribute(g, e, last_parent);
                }
                last_node = e_node;
                last_parent = parent[k] == NONE ? NONE : rows[parent[k]].row;
                depth--;
            }
            cur = next[k];
        }
    }
    rc = g->oom ? -1 : 0;
out:
    free(pts), free(parent), free(first), free(next), free(last), free(stack);
    return rc;
}

/* forward and backward threads: the one tid whose cpu_op / user_annotation names
 * contain the word, if exactly one has such names */
static int one_tid(const tsql_trace *t, const tsql_hta_rows *r, const uint32_t *rows, uint32_t n,
                   const char *word, uint32_t *tid)
{
    int found = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t u = r->uid[rows[k]];
        if (!cat_is(t, u, "cpu_op") && !cat_is(t, u, "user_annotation")) continue;
        if (!strstr(tsql_intern_text(&t->strings, t->name[u]), word)) continue;
        if (found && *tid != t->tid[u]) return 0;
        *tid = t->tid[u];
        found = 1;
    }
    return found;
}

static int call_stack_edges(graph *g, const uint32_t *clipped, uint32_t nc)
{
    const tsql_trace *t = g->t;
    const tsql_hta_rows *r = g->r;
    uint32_t fwd = 0, bwd = 0;
    int remap = one_tid(t, r, clipped, nc, "forward", &fwd) && one_tid(t, r, clipped, nc, "autograd", &bwd) &&
                fwd != bwd;
    trow *tr = malloc((nc + 1) * sizeof *tr);
    uint32_t *local = malloc((r->n ? r->n : 1) * sizeof *local); /* row -> position in its thread */
    if (!tr || !local) {
        free(tr), free(local);
        return -1;
    }
    for (uint32_t k = 0; k < nc; k++) {
        uint32_t u = r->uid[clipped[k]];
        uint32_t tid = remap && t->tid[u] == bwd ? fwd : t->tid[u];
        tr[k] = (trow){id_value(t, t->pid[u]), id_value(t, tid), clipped[k]};
    }
    qsort(tr, nc, sizeof *tr, cmp_trow);
    int rc = 0;
    for (uint32_t a = 0, b; a < nc && !rc; a = b) {
        int all_cpu = 1;
        for (b = a; b < nc && !cmp_idval(tr[b].pid, tr[a].pid) && !cmp_idval(tr[b].tid, tr[a].tid); b++)
            if (r->stream[tr[b].row] >= 0) all_cpu = 0;
        /* a thread with a stream >= 0 is a GPU stream (or mixed): no call stack */
        if (all_cpu) rc = thread_edges(g, tr + a, b - a, local);
    }
    free(tr), free(local);
    return rc;
}

/* ---------- kernels ---------- */

typedef struct {
    double key;
    uint32_t row;
} krow;

static int cmp_krow(const void *pa, const void *pb)
{
    const krow *a = pa, *b = pb;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    return a->row < b->row ? -1 : a->row > b->row;
}

typedef struct {
    int64_t stream;
    uint32_t node;
} slast;

/* ---------- CUDA events ----------
 *
 * Kineto's cuda_sync rows of an event (Event Sync: the host waited on it; Stream Wait
 * Event: a stream waited on it) carry the cudaEventRecord's correlation
 * (wait_on_cuda_event_record_corr_id) and the stream it was recorded on
 * (wait_on_stream). HTA matches them on the whole rank: a record's kernel is the one
 * of the last launch on the record's GPU and stream at or before the record's ts (a
 * launch at the same ts counts as before); a cudaStreamWaitEvent's kernel is the one
 * of the first launch after it on its thread to the waiting stream. Launches are the
 * queue-length launch names whose device row has a stream and a launch link. */

typedef struct {
    uint64_t k1;   /* GPU (the device row's pid), or the launch's thread */
    int64_t stream;
    double ts;
    uint32_t uid, row;
} lkey;

static int cmp_lkey(const void *pa, const void *pb)
{
    const lkey *a = pa, *b = pb;
    if (a->k1 != b->k1) return a->k1 < b->k1 ? -1 : 1;
    if (a->stream != b->stream) return a->stream < b->stream ? -1 : 1;
    if (a->ts != b->ts) return a->ts < b->ts ? -1 : 1;
    return a->uid < b->uid ? -1 : a->uid > b->uid;
}

/* the first launch after (k1, stream, ts): every launch at ts or before comes first */
static uint32_t lkey_after(const lkey *l, uint32_t n, uint64_t k1, int64_t stream, double ts)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        const lkey *m = &l[mid];
        int before = m->k1 != k1 ? m->k1 < k1 : m->stream != stream ? m->stream < stream : m->ts <= ts;
        if (before) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

typedef struct {
    int built;
    lkey *by_gpu, *by_thread; /* the launches, by (GPU, stream, ts) and (thread, stream, ts) */
    uint32_t nlaunch;
    crow *record;             /* cudaEventRecord rows by correlation: row = its kernel, NONE = none */
    uint32_t nrecord;
    uint32_t *sync_src;       /* per kernel row: the kernel a Stream Wait Event makes it wait for */
    uint32_t name_record, name_wait, cat_sync; /* string ids (0 = not in the trace) */
    tsql_buf buf;
} cuda_events;

static void cuda_events_free(cuda_events *ev)
{
    free(ev->by_gpu), free(ev->by_thread), free(ev->record), free(ev->sync_src), free(ev->buf.p);
}

static uint32_t name_id(const tsql_trace *t, const char *s)
{
    return tsql_intern_find(&t->strings, s, strlen(s));
}

/* builds ev over the rank's rows (used); 0, or -1 on OOM */
static int cuda_events_build(graph *g, const uint8_t *used, cuda_events *ev)
{
    const tsql_trace *t = g->t;
    const tsql_hta_rows *r = g->r;
    uint32_t n = r->n;
    ev->built = 1;
    ev->name_record = name_id(t, "cudaEventRecord");
    ev->name_wait = name_id(t, "cudaStreamWaitEvent");
    ev->cat_sync = name_id(t, "cuda_sync");
    ev->by_gpu = malloc(((size_t)r->nlaunch + 1) * sizeof *ev->by_gpu);
    ev->by_thread = malloc(((size_t)r->nlaunch + 1) * sizeof *ev->by_thread);
    ev->sync_src = malloc(((size_t)n + 1) * sizeof *ev->sync_src);
    if (!ev->by_gpu || !ev->by_thread || !ev->sync_src) return -1;
    for (uint32_t i = 0; i < n; i++) ev->sync_src[i] = NONE;
    for (uint32_t k = 0; k < r->nlaunch; k++) {
        uint32_t i = r->launch[k], p = r->partner[i];
        if (!used[i] || !(r->flags[i] & TSQL_HTA_QUEUE_LAUNCH) || r->index_corr[i] <= 0 || p == NONE ||
            r->stream[p] == -1 || r->index_corr[p] <= 0)
            continue;
        uint32_t u = r->uid[i];
        ev->by_gpu[ev->nlaunch] = (lkey){t->pid[r->uid[p]], r->stream[p], r->ts[i], u, i};
        ev->by_thread[ev->nlaunch++] = (lkey){tsql_thread_key(t, u), r->stream[p], r->ts[i], u, i};
    }
    qsort(ev->by_gpu, ev->nlaunch, sizeof *ev->by_gpu, cmp_lkey);
    qsort(ev->by_thread, ev->nlaunch, sizeof *ev->by_thread, cmp_lkey);
    /* each recorded event's stream and GPU, from the cuda_sync rows that name it */
    uint32_t nsync = 0, nrec = 0;
    for (uint32_t i = 0; i < n && ev->cat_sync; i++) nsync += used[i] && t->cat[r->uid[i]] == ev->cat_sync;
    for (uint32_t i = 0; i < n && ev->name_record; i++) nrec += used[i] && t->name[r->uid[i]] == ev->name_record;
    lkey *where = malloc(((size_t)nsync + 1) * sizeof *where); /* k1: GPU, uid: the record's correlation */
    ev->record = malloc(((size_t)nrec + 1) * sizeof *ev->record);
    if (!where || !ev->record) {
        free(where);
        return -1;
    }
    uint32_t nw = 0;
    for (uint32_t i = 0; i < n && nsync; i++) {
        uint32_t u = r->uid[i];
        if (!used[i] || t->cat[u] != ev->cat_sync) continue;
        int64_t stream = tsql_hta_arg_int(t, u, "wait_on_stream", &ev->buf);
        int64_t corr = tsql_hta_arg_int(t, u, "wait_on_cuda_event_record_corr_id", &ev->buf);
        if (stream > -1 && corr >= 0 && corr <= UINT32_MAX)
            where[nw++] = (lkey){(uint64_t)corr, stream, 0, (uint32_t)corr, t->pid[u]};
    }
    qsort(where, nw, sizeof *where, cmp_lkey); /* by correlation, then stream */
    for (uint32_t i = 0; i < n && nrec; i++) {
        uint32_t u = r->uid[i];
        if (!used[i] || t->name[u] != ev->name_record || r->correlation[i] < 0) continue;
        lkey key = {(uint64_t)r->correlation[i], INT64_MIN, 0, 0, 0};
        uint32_t lo = 0, hi = nw;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (cmp_lkey(&where[mid], &key) < 0) lo = mid + 1;
            else hi = mid;
        }
        if (lo == nw || where[lo].k1 != key.k1) continue; /* no sync names it: HTA drops it */
        /* the last launch to that GPU and stream at or before the record */
        uint32_t at = lkey_after(ev->by_gpu, ev->nlaunch, where[lo].row, where[lo].stream, r->ts[i]);
        uint32_t kernel = NONE;
        if (at > 0 && ev->by_gpu[at - 1].k1 == where[lo].row && ev->by_gpu[at - 1].stream == where[lo].stream)
            kernel = r->partner[ev->by_gpu[at - 1].row];
        ev->record[ev->nrecord++] = (crow){r->correlation[i], kernel};
    }
    free(where);
    qsort(ev->record, ev->nrecord, sizeof *ev->record, cmp_crow);
    return 0;
}

/* the kernel a cuda_sync row's event was recorded after, NONE if none */
static uint32_t recorded_kernel(graph *g, cuda_events *ev, uint32_t i)
{
    int64_t corr = tsql_hta_arg_int(g->t, g->r->uid[i], "wait_on_cuda_event_record_corr_id", &ev->buf);
    const crow *c = corr >= 0 ? crow_find(ev->record, ev->nrecord, corr) : NULL;
    return c ? c->row : NONE;
}

/* the kernel of the first launch after cudaStreamWaitEvent row w to stream, NONE if none */
static uint32_t next_kernel(graph *g, cuda_events *ev, uint32_t w, int64_t stream)
{
    const tsql_hta_rows *r = g->r;
    uint64_t th = tsql_thread_key(g->t, r->uid[w]);
    uint32_t at = lkey_after(ev->by_thread, ev->nlaunch, th, stream, r->ts[w]);
    if (at == ev->nlaunch || ev->by_thread[at].k1 != th || ev->by_thread[at].stream != stream) return NONE;
    return r->partner[ev->by_thread[at].row];
}

static int kernel_edges(graph *g, const uint32_t *clipped, uint32_t nc, const double *ql, const uint8_t *used)
{
    const tsql_trace *t = g->t;
    const tsql_hta_rows *r = g->r;
    krow *k = malloc((nc + 1) * sizeof *k);
    slast *last = malloc((nc + 1) * sizeof *last);
    cuda_events ev = {0};
    if (!k || !last) {
        free(k), free(last);
        return -1;
    }
    uint32_t nk = 0, ns = 0;
    for (uint32_t j = 0; j < nc; j++) {
        uint32_t i = clipped[j], u = r->uid[i];
        if (r->index_corr[i] < 0) continue;
        if (r->stream[i] == -1 && !name_is(t, u, "Event Sync") && !name_is(t, u, "Context Sync")) continue;
        /* sync events sort by their end: a stream sync may overlap its stream's kernels */
        k[nk++] = (krow){cat_is(t, u, "cuda_sync") ? r->ts[i] + r->dur[i] : r->ts[i], i};
    }
    qsort(k, nk, sizeof *k, cmp_krow);
    for (uint32_t j = 0; j < nk && !g->oom; j++) {
        uint32_t i = k[j].row, u = r->uid[i];
        uint32_t launch = r->partner[i];
        if (cat_is(t, u, "cuda_sync")) {
            int event_sync = name_is(t, u, "Event Sync"), stream_wait = name_is(t, u, "Stream Wait Event");
            if (event_sync || stream_wait) {
                /* the kernel the event was recorded after, if it has nodes here: the host's
                 * wait ends after it; a stream's wait holds that stream's next kernel */
                if (!ev.built && cuda_events_build(g, used, &ev)) g->oom = 1;
                uint32_t src = g->oom ? NONE : recorded_kernel(g, &ev, i);
                if (src == NONE) continue;
                if (event_sync) {
                    if (g->end_of[src] != NONE && launch != NONE && g->end_of[launch] != NONE)
                        add_edge(g, g->end_of[src], g->end_of[launch], TSQL_HTA_CP_SYNC, 0);
                } else if (launch != NONE && t->name[r->uid[launch]] == ev.name_wait && r->index_corr[launch] > 0) {
                    /* the waiting stream: that of the call's device row */
                    uint32_t w = r->partner[launch];
                    uint32_t dst = w != NONE && r->stream[w] != -1 && r->index_corr[w] > 0
                                       ? next_kernel(g, &ev, launch, r->stream[w])
                                       : NONE;
                    if (dst != NONE) ev.sync_src[dst] = src;
                }
                continue;
            }
            /* a context sync waits for every stream's last kernel, a stream sync for its
             * stream's; the edge ends at the runtime call's end */
            uint32_t rt_end = launch != NONE ? g->end_of[launch] : NONE;
            if (rt_end == NONE) continue;
            if (name_is(t, u, "Context Sync")) {
                for (uint32_t s = 0; s < ns; s++) add_edge(g, last[s].node, rt_end, TSQL_HTA_CP_SYNC, 0);
            } else if (name_is(t, u, "Stream Sync")) {
                for (uint32_t s = 0; s < ns; s++)
                    if (last[s].stream == r->stream[i]) add_edge(g, last[s].node, rt_end, TSQL_HTA_CP_SYNC, 0);
            }
            continue;
        }
        uint32_t s_node = g->start_of[i], e_node = g->end_of[i];
        if (s_node == NONE || e_node == NONE) continue;
        attribute(g, add_edge(g, s_node, e_node, TSQL_HTA_CP_OPERATOR, 0), NONE);
        /* a Stream Wait Event's hold: an edge from the awaited kernel's end, when it has
         * nodes here; the launch and kernel-kernel edges then need it to have ended first */
        uint32_t sync_end = NONE;
        if (ev.sync_src && ev.sync_src[i] != NONE) {
            sync_end = g->end_of[ev.sync_src[i]];
            if (sync_end != NONE) add_edge(g, sync_end, s_node, TSQL_HTA_CP_SYNC, 0);
            ev.sync_src[i] = NONE;
        }
        uint32_t s;
        for (s = 0; s < ns && last[s].stream != r->stream[i]; s++) {}
        uint32_t prev = s < ns ? last[s].node : NONE;
        double ql_rt = launch != NONE ? ql[launch] : NAN, ql_k = ql[i];
        double launch_ts = launch != NONE ? r->ts[launch] : NAN;
        if (launch != NONE && ql_rt == 1 && ql_k == 0 && (prev == NONE || g->node_ts[prev] < launch_ts) &&
            (sync_end == NONE || g->node_ts[sync_end] < launch_ts) && g->start_of[launch] != NONE) {
            add_edge(g, g->start_of[launch], s_node, TSQL_HTA_CP_LAUNCH_DELAY, 0);
        } else if (prev != NONE && g->node_ts[s_node] - g->node_ts[prev] < KERNEL_KERNEL_MAX_GAP &&
                   (sync_end == NONE || g->node_ts[sync_end] < g->node_ts[prev])) {
            attribute(g, add_edge(g, prev, s_node, TSQL_HTA_CP_KERNEL_KERNEL, 0), NONE);
        }
        if (s == ns) last[ns++] = (slast){r->stream[i], e_node};
        else last[s].node = e_node;
    }
    free(k), free(last);
    cuda_events_free(&ev);
    return g->oom ? -1 : 0;
}

/* ---------- the longest path ---------- */

static int set_err(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return 1;
}

/* networkx's dag_longest_path over the graph in insertion order; 1 = a cycle */
static int longest_path(graph *g, uint32_t **path_out, uint32_t *npath)
{
    uint32_t nn = g->nn, ne = g->ne;
    uint32_t *sat = calloc(nn + 1, sizeof *sat), *succ = malloc((ne + 1) * sizeof *succ);
    uint32_t *pat = calloc(nn + 1, sizeof *pat), *pred = malloc((ne + 1) * sizeof *pred);
    uint32_t *indeg = calloc(nn + 1, sizeof *indeg), *topo = malloc((g->ng + 1) * sizeof *topo);
    double *dist = malloc((nn + 1) * sizeof *dist);
    uint32_t *from = malloc((nn + 1) * sizeof *from);
    int rc = -1;
    if (!sat || !succ || !pat || !pred || !indeg || !topo || !dist || !from) goto out;
    /* successors and predecessors of each node in edge insertion order */
    for (uint32_t i = 0; i < ne; i++) sat[g->e[i].src + 1]++, pat[g->e[i].dst + 1]++;
    for (uint32_t v = 0; v < nn; v++) sat[v + 1] += sat[v], pat[v + 1] += pat[v];
    for (uint32_t i = 0; i < ne; i++) {
        succ[sat[g->e[i].src]++] = i;
        pred[pat[g->e[i].dst]++] = i;
    }
    for (uint32_t v = nn; v > 0; v--) sat[v] = sat[v - 1], pat[v] = pat[v - 1];
    sat[0] = pat[0] = 0;
    /* topological order, generation by generation (networkx's topological_sort) */
    uint32_t nt = 0;
    for (uint32_t k = 0; k < g->ng; k++) {
        uint32_t v = g->gnodes[k];
        indeg[v] = pat[v + 1] - pat[v];
        if (!indeg[v]) topo[nt++] = v;
    }
    for (uint32_t q = 0; q < nt; q++) {
        uint32_t v = topo[q];
        for (uint32_t x = sat[v]; x < sat[v + 1]; x++) {
            uint32_t c = g->e[succ[x]].dst;
            if (--indeg[c] == 0) topo[nt++] = c;
        }
    }
    if (nt < g->ng) {
        rc = 1;
        goto out;
    }
    /* each node's first best predecessor; a negative best starts afresh */
    uint32_t best = NONE;
    for (uint32_t q = 0; q < nt; q++) {
        uint32_t v = topo[q];
        double d = 0;
        uint32_t f = v;
        int any = 0;
        for (uint32_t x = pat[v]; x < pat[v + 1]; x++) {
            const edge_t *e = &g->e[pred[x]];
            double c = dist[e->src] + e->gweight;
            if (!any || c > d) d = c, f = e->src, any = 1;
        }
        if (any && !(d >= 0)) d = 0, f = v;
        dist[v] = d;
        from[v] = f;
        if (best == NONE || d > dist[best]) best = v;
    }
    uint32_t n = 0;
    for (uint32_t v = best; v != NONE; v = from[v] == v ? NONE : from[v]) topo[n++] = v;
    for (uint32_t a = 0; a + 1 < n - a; a++) {
        uint32_t x = topo[a];
        topo[a] = topo[n - 1 - a];
        topo[n - 1 - a] = x;
    }
    *path_out = topo;
    topo = NULL;
    *npath = n;
    rc = 0;
out:
    free(sat), free(succ), free(pat), free(pred), free(indeg), free(topo), free(dist), free(from);
    return rc;
}

static uint32_t find_edge(const graph *g, uint32_t src, uint32_t dst)
{
    uint32_t k = hash_key(src, dst, g->hcap);
    while (g->hash[k]) {
        const edge_t *x = &g->e[g->hash[k] - 1];
        if (x->src == src && x->dst == dst) return g->hash[k] - 1;
        k = (k + 1) & (g->hcap - 1);
    }
    return NONE;
}

static uint8_t bound_of(const graph *g, const edge_t *e)
{
    switch (e->type) {
    case TSQL_HTA_CP_KERNEL_KERNEL: return TSQL_HTA_CP_KK_OVERHEAD;
    case TSQL_HTA_CP_LAUNCH_DELAY: return TSQL_HTA_CP_LAUNCH_OVERHEAD;
    case TSQL_HTA_CP_DEPENDENCY:
    case TSQL_HTA_CP_SYNC: return TSQL_HTA_CP_NONE;
    default: break;
    }
    if (e->attributed == NONE) return TSQL_HTA_CP_NONE;
    if (g->r->stream[e->attributed] < 0) return TSQL_HTA_CP_CPU;
    const char *name = tsql_intern_text(&g->t->strings, g->t->name[g->r->uid[e->attributed]]);
    char *s = malloc(strlen(name) + 1);
    if (!s) return TSQL_HTA_CP_COMPUTE;
    int comm = tsql_hta_kernel_type(tsql_hta_short_name(name, s, strlen(name) + 1)) == TSQL_HTA_COMMUNICATION;
    free(s);
    return comm ? TSQL_HTA_CP_COMMUNICATION : TSQL_HTA_CP_COMPUTE;
}

/* ---------- the analysis ---------- */

static void graph_free(graph *g)
{
    free(g->node_row), free(g->node_ts), free(g->node_start), free(g->node_blocking), free(g->node_lock);
    free(g->start_of), free(g->end_of), free(g->e), free(g->hash), free(g->gorder), free(g->gnodes);
}

void tsql_hta_cp_free(tsql_hta_cp *cp)
{
    if (!cp) return;
    free(cp->path);
    free(cp);
}

/* rows whose name contains annotation, in HTA's table order (after the last-step
 * filter: the GPU-side rows, then the others); the window of the instance-th */
static int window(const tsql_trace *t, const tsql_hta_rows *r, const uint8_t *used, int kept_only,
                  const char *annotation, int64_t instance, double *s, double *e, char *err, size_t errlen)
{
    *s = INFINITY;
    *e = INFINITY;
    if (!*annotation) {
        for (uint32_t i = 0; i < r->n; i++)
            if (used[i] && r->ts[i] < *s) *s = r->ts[i];
        return 0;
    }
    int64_t seen = 0;
    for (int pass = kept_only ? 0 : 1; pass < 2; pass++)
        for (uint32_t i = 0; i < r->n; i++) {
            if (!used[i] || (kept_only && !!(r->flags[i] & TSQL_HTA_GPU_SIDE) != (pass == 0))) continue;
            if (!strstr(tsql_intern_text(&t->strings, t->name[r->uid[i]]), annotation)) continue;
            if (seen++ == instance) {
                *s = r->ts[i];
                *e = r->ts[i] + r->dur[i];
            }
        }
    if (!seen) return set_err(err, errlen, "no event's name contains annotation '%s' (try 'ProfilerStep', or '' for the whole trace)", annotation);
    if (instance >= seen)
        return set_err(err, errlen, "instance_id %lld: only %lld events' names contain annotation '%s' (instances count from 0)",
                       (long long)instance, (long long)seen, annotation);
    return 0;
}

int tsql_hta_cp_build(const tsql_trace *t, const tsql_hta_rows *r, int kept_only, const char *annotation,
                      int64_t instance, tsql_hta_cp **out, char *err, size_t errlen)
{
    uint32_t n = r->n;
    size_t m = n ? n : 1;
    graph g;
    memset(&g, 0, sizeof g);
    g.t = t;
    g.r = r;
    uint8_t *used = malloc(m), *clip = calloc(m, 1);
    uint32_t *clipped = malloc(m * sizeof *clipped), *path = NULL;
    double *ql = malloc(m * sizeof *ql);
    nkey *keys = NULL;
    tsql_hta_cp *cp = calloc(1, sizeof *cp);
    int rc = -1;
    *out = NULL;
    if (!used || !clip || !clipped || !ql || !cp) goto out;
    for (uint32_t i = 0; i < n; i++) used[i] = !kept_only || (r->flags[i] & TSQL_HTA_KEEP);
    double s, e;
    if ((rc = window(t, r, used, kept_only, annotation ? annotation : "", instance, &s, &e, err, errlen)))
        goto out;
    rc = -1;
    /* the window: CPU rows starting in it with dur > 0, the device rows those launched,
     * and every Stream Wait Event */
    for (uint32_t i = 0; i < n; i++) {
        if (!used[i]) continue;
        if (r->stream[i] == -1) {
            if (r->ts[i] >= s && r->ts[i] <= e && r->dur[i] > 0) clip[i] = 1;
        } else if (name_is(t, r->uid[i], "Stream Wait Event")) {
            clip[i] = 1;
        }
    }
    /* a device row's launch is the CPU row whose index_correlation is the device row */
    for (uint32_t i = 0; i < n; i++) {
        if (!used[i] || r->stream[i] != -1 || !(r->ts[i] >= s && r->ts[i] <= e && r->dur[i] > 0)) continue;
        uint32_t p = r->partner[i];
        if (p != NONE && used[p] && r->stream[p] != -1) clip[p] = 1;
    }
    uint32_t nc = 0, nk = 0;
    for (uint32_t i = 0; i < n; i++)
        if (clip[i]) clipped[nc++] = i;
    if (!(keys = malloc((2 * (size_t)nc + 1) * sizeof *keys))) goto out;
    /* nodes: ops, runtime and driver calls, and device rows with a launch link */
    for (uint32_t k = 0; k < nc; k++) {
        uint32_t i = clipped[k], u = r->uid[i];
        if (!(cat_is(t, u, "cpu_op") || cat_is(t, u, "cuda_runtime") || cat_is(t, u, "cuda_driver") ||
              (r->stream[i] != -1 && r->index_corr[i] >= 0)))
            continue;
        keys[nk++] = (nkey){r->ts[i], u, i, 0};
        keys[nk++] = (nkey){r->ts[i] + r->dur[i], u, i, 1};
    }
    qsort(keys, nk, sizeof *keys, cmp_nkey);
    g.nn = nk;
    size_t mn = nk ? nk : 1;
    g.node_row = malloc(mn * sizeof *g.node_row);
    g.node_ts = malloc(mn * sizeof *g.node_ts);
    g.node_start = malloc(mn);
    g.node_blocking = malloc(mn);
    g.node_lock = malloc(mn);
    g.start_of = malloc(m * sizeof *g.start_of);
    g.end_of = malloc(m * sizeof *g.end_of);
    g.gorder = malloc(mn * sizeof *g.gorder);
    g.gnodes = malloc(mn * sizeof *g.gnodes);
    if (!g.node_row || !g.node_ts || !g.node_start || !g.node_blocking || !g.node_lock || !g.start_of ||
        !g.end_of || !g.gorder || !g.gnodes)
        goto out;
    for (uint32_t i = 0; i < n; i++) g.start_of[i] = g.end_of[i] = NONE;
    for (uint32_t v = 0; v < nk; v++) {
        uint32_t i = keys[v].row;
        const char *name = tsql_intern_text(&t->strings, t->name[r->uid[i]]);
        g.node_row[v] = i;
        g.node_ts[v] = keys[v].ts;
        g.node_start[v] = !keys[v].end;
        g.node_blocking[v] = (uint8_t)is_blocking_name(name);
        g.node_lock[v] = (uint8_t)is_lock_name(name);
        g.gorder[v] = NONE;
        if (keys[v].end) g.end_of[i] = v;
        else g.start_of[i] = v;
    }
    /* 1. the runtime lock: an end closes every pending lock call; lock ends chain */
    {
        uint32_t *pending = malloc(mn * sizeof *pending), np = 0, prev = NONE;
        if (!pending) goto out;
        for (uint32_t v = 0; v < nk; v++) {
            if (!g.node_lock[v]) continue;
            if (g.node_start[v]) {
                pending[np++] = v;
            } else {
                while (np) {
                    uint32_t p = pending[--np];
                    if (g.node_row[p] == g.node_row[v]) attribute(&g, add_edge(&g, p, v, TSQL_HTA_CP_OPERATOR, 0), g.node_row[v]);
                    else add_edge(&g, p, v, TSQL_HTA_CP_DEPENDENCY, 0);
                }
                if (prev != NONE && !g.node_start[prev]) add_edge(&g, prev, v, TSQL_HTA_CP_DEPENDENCY, 0);
            }
            prev = v;
        }
        free(pending);
        if (g.oom) goto out;
    }
    /* 2. call stacks, 3. kernels */
    if (call_stack_edges(&g, clipped, nc) || queue_lengths(r, used, ql) || kernel_edges(&g, clipped, nc, ql, used)) goto out;
    /* HTA's validation: weights of -1 or less are taken as 0 (ns rounding); a sync
     * between kernels of one stream is refused */
    for (uint32_t i = 0; i < g.ne; i++) {
        edge_t *x = &g.e[i];
        if (x->weight <= -1) x->gweight = 0;
        if (x->type == TSQL_HTA_CP_SYNC) {
            int64_t a = r->stream[g.node_row[x->src]], b = r->stream[g.node_row[x->dst]];
            if (a != -1 && a == b) {
                rc = set_err(err, errlen, "the graph has a sync between two kernels of stream %lld (HTA refuses it too)",
                             (long long)a);
                goto out;
            }
        }
    }
    cp->nclipped = nc;
    cp->nnodes = nk;
    cp->ngraph_nodes = g.ng;
    cp->nedges = g.ne;
    uint32_t np = 0;
    if (g.ne) {
        int lp = longest_path(&g, &path, &np);
        if (lp < 0) goto out;
        if (lp > 0) {
            rc = set_err(err, errlen, "the graph has a cycle: the trace's events do not nest (HTA fails on it too)");
            goto out;
        }
    }
    cp->npath = np > 1 ? np - 1 : 0;
    cp->path = calloc(cp->npath + 1, sizeof *cp->path);
    if (!cp->path) goto out;
    for (uint32_t k = 0; k < cp->npath; k++) {
        uint32_t ei = find_edge(&g, path[k], path[k + 1]);
        const edge_t *x = &g.e[ei];
        tsql_hta_cp_edge *o = &cp->path[k];
        o->begin = x->src;
        o->end = x->dst;
        o->begin_row = g.node_row[x->src];
        o->end_row = g.node_row[x->dst];
        o->begin_ts = g.node_ts[x->src];
        o->end_ts = g.node_ts[x->dst];
        o->weight = x->weight;
        o->graph_weight = x->gweight;
        o->attributed = x->has_attr ? x->attributed : NONE;
        o->type = x->type;
        o->bound = bound_of(&g, x);
        cp->length += x->gweight;
    }
    *out = cp;
    cp = NULL;
    rc = 0;
out:
    if (g.oom && rc == 1) rc = -1;
    graph_free(&g);
    free(used), free(clip), free(clipped), free(path), free(ql), free(keys);
    tsql_hta_cp_free(cp);
    return rc;
}
