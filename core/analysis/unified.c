/* unified.c — the op instances of unified_perf_summary; see unified.h. */
#include "analysis/unified.h"

#include "analysis/op_annotation.h"
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/attribution.h"
#include "analysis/op_annotation.h"
#include "analysis/perf_ops.h"
#include "analysis/pseudo_ops.h"
#include "analysis/py_tree.h"
#include "store/store.h"
#include "util/sort.h"
#include "util/u32vec.h"
#include "tree/tree.h"
#include "util/u64map.h"

#define NONE TSQL_NONE

static int is_tl_node(const tsql_trace *t, uint32_t u)
{
    return !(t->flags[u] & TSQL_F_TL_DROPPED);
}

typedef struct ctx {
    tsql_trace *t;
    const tsql_attrib *a;
    uint8_t *gpu;        /* 1: the node's TraceLens subtree has GPU work */
    uint8_t *comm;       /* 1: ... and some of it is communication */
    uint8_t *deep;       /* deep_model(n) */
    uint8_t *model;      /* per string id: 0 unknown, else as has_model() says */
    uint8_t *visited;
    u32vec collected;
    int oom;             /* set by has_model on out of memory */
    tsql_keyed *kbuf;
    size_t kcap;
    tsql_convbias_cache *cb; /* TraceLens's ConvBias parameter cache, replayed (perf_ops.h) */
} ctx;

/* 1 when JSON text v[0..n) is a non-empty array ("[]", null or absent: not) */
static int nonempty_list(const char *v, size_t n)
{
    if (!v || !n || v[0] != '[') return 0;
    for (size_t i = 1; i < n; i++)
        if (v[i] != ' ') return v[i] != ']';
    return 0;
}

/* 1 when some string of the JSON list v[0..n) is a whole integer as Python's int() reads
 * it (blanks around, a sign, digits) */
static int has_int_string(const char *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (v[i] != '"') continue;
        size_t j = i + 1, d = 0;
        while (j < n && v[j] == ' ') j++;
        if (j < n && (v[j] == '+' || v[j] == '-')) j++;
        while (j < n && v[j] >= '0' && v[j] <= '9') j++, d++;
        while (j < n && v[j] == ' ') j++;
        if (d && j < n && v[j] == '"') return 1;
        /* skip to the string's end */
        for (j = i + 1; j < n && v[j] != '"'; j++)
            if (v[j] == '\\') j++;
        i = j;
    }
    return 0;
}

/* The compiled-Triton model applies to an event only when its args give the kernel's
 * metadata (docs/inference.md, "The compiled-Triton model in unified_perf_summary"):
 * non-empty Concrete Inputs, Input Dims and Input type, and a launch size among the
 * Concrete Inputs. Else TraceLens counts the op as one without a model (has_perf_model
 * False, its row kept). -1 on OOM. */
static int triton_can_model(ctx *c, uint32_t u)
{
    tsql_buf b = {0};
    if (!c->t->args[u]) return 0;
    if (tsql_trace_args_json(c->t, u, &b) < 0) return -1;
    size_t lc = 0, ld = 0, lt = 0;
    const char *conc = tsql_template_member(b.p, b.n, "Concrete Inputs", &lc);
    const char *dims = tsql_template_member(b.p, b.n, "Input Dims", &ld);
    const char *types = tsql_template_member(b.p, b.n, "Input type", &lt);
    int ok = nonempty_list(conc, lc) && nonempty_list(dims, ld) && nonempty_list(types, lt) && has_int_string(conc, lc);
    free(b.p);
    return ok;
}

static int is_compiled_triton(const char *name)
{
    return strncmp(name, "triton_poi_", 11) == 0 || strncmp(name, "triton_red_", 11) == 0 ||
           strncmp(name, "triton_per_", 11) == 0;
}

/* per string id: 1 no model, 2 a model, 3 the compiled-Triton model (decided per event) */
static int has_model(ctx *c, uint32_t u)
{
    uint32_t nm = c->t->name[u];
    if (!nm) return 0;
    if (!c->model[nm]) {
        const char *s = tsql_intern_text(&c->t->strings, nm);
        c->model[nm] = !tsql_op_has_model(s) ? 1 : is_compiled_triton(s) ? 3 : 2;
    }
    if (c->model[nm] == 3) {
        int r = triton_can_model(c, u);
        if (r < 0) c->oom = 1;
        return r == 1;
    }
    return c->model[nm] == 2;
}

/* children that are TraceLens CPU nodes, in ts order; returns count, fills c->kbuf */
static long cpu_children(ctx *c, uint32_t u)
{
    const tsql_trace *t = c->t;
    uint32_t n = t->child_at[u + 1] - t->child_at[u];
    if (n > c->kcap) {
        tsql_keyed *nk = realloc(c->kbuf, n * sizeof *nk);
        if (!nk) return -1;
        c->kbuf = nk;
        c->kcap = n;
    }
    long m = 0;
    for (uint32_t j = t->child_at[u]; j < t->child_at[u + 1]; j++) {
        uint32_t ch = t->child[j];
        if (t->edge[ch] != TSQL_EDGE_CPU || !is_tl_node(t, ch)) continue;
        c->kbuf[m++] = (tsql_keyed){tsql_trace_ts_us(t, ch), ch, ch};
    }
    tsql_keyed_sort(c->kbuf, (size_t)m);
    return m;
}

/* leaf(n): a GPU event reachable through cuda_runtime children only (depth <= 10) */
static int reaches_gpu(const tsql_trace *t, uint32_t u, int depth)
{
    for (uint32_t j = t->child_at[u]; j < t->child_at[u + 1]; j++) {
        uint32_t ch = t->child[j];
        if (t->edge[ch] == TSQL_EDGE_LAUNCH && depth > 0) {
            /* a GPU child counts only if TraceLens linked it to this runtime call */
            uint32_t k = tsql_kernel_row(t, ch);
            if (k != NONE && t->kernels.tl_runtime[k] == u) return 1;
            continue;
        }
        if (t->edge[ch] == TSQL_EDGE_CPU && is_tl_node(t, ch) && t->kind[ch] == TSQL_K_RUNTIME &&
            !(t->flags[ch] & TSQL_F_OLD_SPELLING) && depth < 10 && reaches_gpu(t, ch, depth + 1))
            return 1;
    }
    return 0;
}

/* sole_bwd(n) (docs/schema.md, unified_ops): the autograd wrapper W within 5 levels above n links a forward
 * op with a model and a backward category, and exactly one GPU-running cpu_op below W
 * is named exactly like W's suffix ("autograd::engine::evaluate_function: X" -> X). That
 * op is normally the autograd Node op X itself; which op it is is not checked, so any
 * op the traversal reaches below W qualifies (TraceLens's rule, quirk included). */
static uint32_t sole_bwd_forward(ctx *c, uint32_t n)
{
    tsql_trace *t = c->t;
    uint32_t w = NONE, u = n;
    for (int lvl = 0; lvl < 5; lvl++) {
        if (!is_tl_node(t, u) || t->edge[u] != TSQL_EDGE_CPU || t->parent[u] == NONE) break;
        u = t->parent[u];
        uint32_t f = tsql_fwd_of(t, u);
        if (f != NONE && f != 0) {
            w = u;
            break;
        }
    }
    if (w == NONE) return NONE;
    uint32_t f = tsql_fwd_of(t, w);
    if (!has_model(c, f) || !tsql_op_bwd_category(tsql_intern_text(&t->strings, t->name[f])))
        return NONE;
    const char *wn = tsql_intern_text(&t->strings, t->name[w]);
    const char *suffix = strstr(wn, ": ");
    /* cpu_op-only descendants of w with GPU work, named exactly like the suffix */
    u32vec st = {0};
    uint32_t count = 0;
    int oom = u32vec_push(&st, w);
    while (!oom && st.n) {
        uint32_t x = st.v[--st.n];
        for (uint32_t j = t->child_at[x]; j < t->child_at[x + 1]; j++) {
            uint32_t ch = t->child[j];
            if (t->edge[ch] != TSQL_EDGE_CPU || !is_tl_node(t, ch) || t->kind[ch] != TSQL_K_CPU_OP) continue;
            if (c->gpu[ch] && (!suffix || strcmp(tsql_intern_text(&t->strings, t->name[ch]), suffix + 2) == 0))
                count++;
            if (u32vec_push(&st, ch)) oom = 1;
        }
    }
    free(st.v);
    return !oom && count == 1 ? f : NONE;
}

static int visit(ctx *c, uint32_t root)
{
    tsql_trace *t = c->t;
    u32vec st = {0};
    int rc = u32vec_push(&st, root);
    while (!rc && st.n) {
        uint32_t n = st.v[--st.n];
        if (c->visited[n]) continue;
        c->visited[n] = 1;
        if (t->kind[n] != TSQL_K_CPU_OP || (t->flags[n] & TSQL_F_OLD_SPELLING)) continue;
        if (!c->gpu[n]) continue;
        int descend = 0;
        if (has_model(c, n)) {
            rc = u32vec_push(&c->collected, n);
            continue;
        }
        uint32_t sf = sole_bwd_forward(c, n);
        /* TraceLens builds the linked forward op's model to decide: it caches ConvBias_ ones */
        if (tsql_convbias_cache_active(c->cb)) tsql_convbias_cache_note(c->cb, sf);
        if (sf != NONE) {
            if (c->deep[n]) descend = 1;
            else rc = u32vec_push(&c->collected, n);
        } else if (c->deep[n]) {
            descend = 1;
        } else if (reaches_gpu(t, n, 0)) {
            if (!c->comm[n]) rc = u32vec_push(&c->collected, n);
        } else {
            descend = 1;
        }
        if (descend && !rc) {
            long m = cpu_children(c, n);
            if (m < 0) rc = -1;
            /* push in reverse so the first child is visited first (pre-order) */
            for (long i = m; !rc && i-- > 0;) rc = u32vec_push(&st, c->kbuf[i].v);
        }
    }
    free(st.v);
    return rc;
}

/* A traversal root: the parentless Python frame above it (NONE: none, visited after
 * those that have one), its start, its uid. */
typedef struct root_key {
    uint32_t top;
    double ts;
    uint32_t uid;
} root_key;

static int root_key_cmp(const void *x, const void *y)
{
    const root_key *a = x, *b = y;
    if (a->top != b->top) return a->top < b->top ? -1 : 1;
    if (a->ts != b->ts) return a->ts < b->ts ? -1 : 1;
    return (a->uid > b->uid) - (a->uid < b->uid);
}

/* With Python frames, TraceLens's unified traversal starts from every parentless
 * python_function (uid order), then from its other roots in ts order: the parentless
 * Python frame above u, or NONE (also without a tree with Python frames). */
static uint32_t python_root(const tsql_trace *t, const tsql_py_tree *pt, uint32_t u)
{
    if (!pt) return NONE;
    uint32_t top = u;
    for (uint32_t steps = 0; top < pt->n && pt->parent[top] != NONE && steps <= t->n; steps++) top = pt->parent[top];
    return top != u && t->kind[top] == TSQL_K_PYTHON ? top : NONE;
}

/* Marks u and its ancestors in TraceLens's tree as reaching GPU work (and
 * communication when comm), up to the first that already was. */
static void mark_up(ctx *c, uint32_t u, int comm)
{
    const tsql_trace *t = c->t;
    while (u != NONE) {
        int done = c->gpu[u] && (!comm || c->comm[u]);
        c->gpu[u] = 1;
        if (comm) c->comm[u] = 1;
        if (done || !is_tl_node(t, u) || t->edge[u] != TSQL_EDGE_CPU) break;
        u = t->parent[u];
    }
}

/* gpu[], comm[] and deep[] for every node */
static int mark_nodes(ctx *c)
{
    tsql_trace *t = c->t;
    const tsql_kernels *K = &t->kernels;
    for (uint32_t k = 0; k < K->n; k++) {
        uint32_t r = K->tl_runtime[k];
        if (r == NONE) continue;
        mark_up(c, r, K->is_comm[k]);
    }
    /* children listed downward only (the inference report's pseudo ops, pseudo_ops.h):
     * their GPU work counts for the node that lists them, and upward from there */
    for (uint32_t u = 0; u < t->n; u++)
        for (uint32_t j = t->child_at[u]; j < t->child_at[u + 1]; j++) {
            uint32_t ch = t->child[j];
            if (t->parent[ch] == u || !c->gpu[ch]) continue;
            mark_up(c, u, c->comm[ch]);
        }
    /* deep_model bottom-up: deepest nodes first */
    uint32_t maxd = 0;
    for (uint32_t u = 0; u < t->n; u++)
        if (t->kind[u] == TSQL_K_CPU_OP && t->depth[u] > maxd) maxd = t->depth[u];
    uint32_t *at = calloc((size_t)maxd + 2, sizeof *at);
    uint32_t m = 0;
    if (!at) return -1;
    for (uint32_t u = 0; u < t->n; u++)
        if (t->kind[u] == TSQL_K_CPU_OP && is_tl_node(t, u)) {
            at[t->depth[u] + 1]++;
            m++;
        }
    for (uint32_t d = 0; d <= maxd; d++) at[d + 1] += at[d];
    uint32_t *ord = malloc((size_t)(m ? m : 1) * sizeof *ord);
    if (!ord) {
        free(at);
        return -1;
    }
    for (uint32_t u = 0; u < t->n; u++)
        if (t->kind[u] == TSQL_K_CPU_OP && is_tl_node(t, u)) ord[at[t->depth[u]]++] = u;
    for (uint32_t i = m; i-- > 0;) {
        uint32_t u = ord[i];
        for (uint32_t j = t->child_at[u]; j < t->child_at[u + 1] && !c->deep[u]; j++) {
            uint32_t ch = t->child[j];
            if (t->edge[ch] != TSQL_EDGE_CPU || !is_tl_node(t, ch) || t->kind[ch] != TSQL_K_CPU_OP) continue;
            if ((has_model(c, ch) && c->gpu[ch]) || c->deep[ch]) c->deep[u] = 1;
        }
    }
    free(at);
    free(ord);
    return 0;
}

/* ---------- rows ---------- */

typedef struct rows {
    tsql_unified *u;
    size_t cap;
    u32vec gpu;
} rows;

static tsql_unified_op *new_row(rows *r)
{
    if (r->u->n == r->cap) {
        size_t nc = r->cap ? r->cap * 2 : 256;
        tsql_unified_op *nr = realloc(r->u->rows, nc * sizeof *nr);
        if (!nr) return NULL;
        r->u->rows = nr;
        r->cap = nc;
    }
    tsql_unified_op *o = &r->u->rows[r->u->n];
    memset(o, 0, sizeof *o);
    o->bytes = NAN;
    return o;
}

/* category of a node: its launcher category (first direct kernel), else rules 1-2 */
static const char *node_category(ctx *c, uint32_t u)
{
    uint32_t i = tsql_attrib_find(c->a, u);
    if (i != NONE) return c->a->category[i];
    return tsql_op_category(tsql_intern_text(&c->t->strings, c->t->name[u]), NULL);
}

static int sort_gpu_by_ts(const tsql_trace *t, uint32_t *g, size_t n, const char ***names, size_t *cap)
{
    tsql_keyed *k = malloc((n ? n : 1) * sizeof *k);
    if (!k) return -1;
    for (size_t i = 0; i < n; i++) k[i] = (tsql_keyed){tsql_trace_ts_us(t, g[i]), (uint32_t)i, (uint32_t)i};
    tsql_keyed_sort(k, n);
    if (n > *cap) {
        const char **nn = realloc(*names, n * sizeof *nn);
        if (!nn) {
            free(k);
            return -1;
        }
        *names = nn;
        *cap = n;
    }
    for (size_t i = 0; i < n; i++) (*names)[i] = tsql_intern_text(&t->strings, t->name[g[k[i].v]]);
    free(k);
    return 0;
}

/* 1 when every event of g[0..n) has an exact whole-µs ts and dur: their busy time is
 * then a Python int in TraceLens (sums of ints), a float otherwise */
static uint8_t whole_times(const tsql_trace *t, const uint32_t *g, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int64_t ts = t->ts_ns[g[i]], d = t->dur_ns[g[i]];
        if (ts == TSQL_NULL || d == TSQL_NULL || ts % 1000 || d % 1000 || (t->flags[g[i]] & TSQL_F_TS_INEXACT))
            return 0;
    }
    return 1;
}

/* nearest cpu_op at or above runtime call rt in TraceLens's tree, or NONE */
static uint32_t nearest_cpu_op(const tsql_trace *t, uint32_t rt)
{
    for (uint32_t x = rt; x != NONE;) {
        if (t->kind[x] == TSQL_K_CPU_OP) return x;
        if (!is_tl_node(t, x) || t->edge[x] != TSQL_EDGE_CPU) return NONE;
        x = t->parent[x];
    }
    return NONE;
}

/* A synthetic row "node->gpu (Synthetic Op)" carrying node's fields, for GPU event g.
 * Its category sees node's first direct kernel when node is a launcher. 0, -1 on OOM. */
static int add_synthetic(rows *r, const tsql_trace *t, const tsql_attrib *a, uint32_t node, uint32_t g,
                         uint32_t uid)
{
    tsql_unified_op *o = new_row(r);
    if (!o || u32vec_push(&r->gpu, g)) return -1;
    o->uid = uid;
    o->node = node;
    o->gpu_at = (uint32_t)(r->gpu.n - 1);
    o->ngpu = 1;
    double two[2];
    o->kernel_us = tsql_busy_us(t, &g, 1, two);
    o->whole_kernel_us = whole_times(t, &g, 1);
    const char *pn = tsql_intern_text(&t->strings, t->name[node]);
    const char *gn = tsql_intern_text(&t->strings, t->name[g]);
    size_t len = strlen(pn) + strlen(gn) + 20;
    if (!(o->name = malloc(len))) return -1;
    snprintf(o->name, len, "%s->%s (Synthetic Op)", pn, gn);
    uint32_t li = tsql_attrib_find(a, node);
    const char *fk = li != NONE && a->direct_at[li] < a->direct_at[li + 1]
                         ? tsql_intern_text(&t->strings, t->name[a->direct[a->direct_at[li]]])
                         : NULL;
    o->category = tsql_op_category(o->name, fk);
    r->u->n++;
    return 0;
}

static void free_dicts(char **dicts, const tsql_perf_ops *P)
{
    for (uint32_t i = 0; dicts && P && i < P->nresults; i++) free(dicts[i]);
    free(dicts);
}

static tsql_unified *build(tsql_trace *t)
{
    ctx c = {.t = t};
    rows r = {0};
    tsql_unified *out = NULL;
    tsql_perf perf;
    tsql_perf_init(&perf);
    tsql_buf args = {0}, dict = {0}, fwd_args = {0};
    const char **knames = NULL;
    size_t kcap = 0;
    double *scratch = NULL;
    uint8_t *covered = NULL;
    u32vec bwd_gpu = {0};
    tsql_u64map perf_rows = {0};
    char **dicts = NULL;
    const tsql_perf_ops *P = tsql_perf_ops_get(t);
    r.u = calloc(1, sizeof *r.u);
    c.a = tsql_attrib_get(t);
    if (!r.u || !c.a || !P || !(c.cb = tsql_convbias_cache_new(t, P))) goto fail;
    /* perf_ops rows by (uid, direction), and their parameter dicts once per result */
    if (tsql_u64map_init(&perf_rows, P->n + 1)) goto fail;
    for (uint32_t i = 0; i < P->n; i++)
        if (!P->rows[i].appended) tsql_u64map_put(&perf_rows, (int64_t)P->rows[i].uid * 2 + P->rows[i].bwd, i, 0);
    dicts = calloc((size_t)P->nresults + 1, sizeof *dicts);
    if (!dicts) goto fail;
    c.gpu = calloc(t->n + 1, 1);
    c.comm = calloc(t->n + 1, 1);
    c.deep = calloc(t->n + 1, 1);
    c.visited = calloc(t->n + 1, 1);
    c.model = calloc((size_t)t->strings.n + 1, 1);
    covered = calloc(t->n + 1, 1);
    if (!c.gpu || !c.comm || !c.deep || !c.visited || !c.model || !covered || mark_nodes(&c) || c.oom) goto fail;

    /* roots: TraceLens's root cpu_ops in ts order (stable); in the inference report's
     * tree with Python frames, those below a parentless Python frame first, by that
     * frame's uid (docs/inference.md, "unified_perf_summary") */
    {
        const tsql_py_tree *pt = NULL;
        if (tsql_trace_inference_mode(t) && !(pt = tsql_py_tree_get(t))) goto fail;
        size_t nr = 0;
        for (uint32_t u = 0; u < t->n; u++) nr += (t->flags[u] & TSQL_F_TL_ROOT) != 0;
        root_key *roots = malloc((nr ? nr : 1) * sizeof *roots);
        if (!roots) goto fail;
        nr = 0;
        for (uint32_t u = 0; u < t->n; u++)
            if (t->flags[u] & TSQL_F_TL_ROOT) roots[nr++] = (root_key){python_root(t, pt, u), tsql_trace_ts_us(t, u), u};
        tsql_qsort(roots, nr, sizeof *roots, root_key_cmp);
        int rc = 0;
        for (size_t i = 0; i < nr && !rc; i++) rc = visit(&c, roots[i].uid);
        free(roots);
        if (rc || c.oom) goto fail;
    }

    /* one row per collected node */
    for (size_t i = 0; i < c.collected.n; i++) {
        uint32_t n = c.collected.v[i];
        size_t at = r.gpu.n;
        if (tsql_tl_subtree_gpu(t, n, &r.gpu) < 0) goto fail;
        size_t ng = r.gpu.n - at;
        for (size_t j = at; j < r.gpu.n; j++) covered[r.gpu.v[j]] = 1;
        void *ns_ = realloc(scratch, (ng ? ng : 1) * 2 * sizeof *scratch);
        if (!ns_) goto fail; /* scratch is still freed at fail */
        scratch = ns_;
        double busy = tsql_busy_us(t, r.gpu.v + at, ng, scratch);
        int model = has_model(&c, n);
        uint32_t f = model ? NONE : sole_bwd_forward(&c, n);
        const char *category = node_category(&c, n);
        /* TraceLens first asks whether every row is a sole backward op (building the linked
         * forward op's model: the ConvBias cache), then builds the row's own model */
        uint32_t copied = NONE;
        if (tsql_convbias_cache_active(c.cb)) {
            tsql_convbias_cache_note(c.cb, model ? sole_bwd_forward(&c, n) : f);
            if (model) {
                copied = tsql_convbias_cache_fwd(c.cb, n);
                tsql_convbias_cache_note(c.cb, n);
            }
        }
        int metrics = 0;
        double kus = busy;
        /* fast path: the perf_ops row of the same instance and direction was already
         * evaluated on the same GPU events */
        uint32_t prow = model || f != NONE
                            ? tsql_u64map_get(&perf_rows, (int64_t)(model ? n : f) * 2 + (f != NONE))
                            : NONE;
        if (prow != NONE) {
            const tsql_perf_op *po = &P->rows[prow];
            const tsql_perf_result *res = &P->results[po->result];
            if (!dicts[po->result]) {
                dict.n = 0;
                if (tsql_perf_params_dict(&res->perf, &dict) || tsql_buf_reserve(&dict, 1)) goto fail;
                dict.p[dict.n] = 0;
                if (!(dicts[po->result] = strdup(dict.p))) goto fail;
            }
            if (f != NONE) category = tsql_op_bwd_category(tsql_intern_text(&t->strings, t->name[f]));
            tsql_unified_op *o = new_row(&r);
            if (!o || !(o->perf_params = strdup(dicts[po->result]))) goto fail;
            o->uid = n;
            o->node = n;
            o->gpu_at = (uint32_t)at;
            o->ngpu = (uint32_t)ng;
            o->category = category;
            o->has_model = 1;
            o->has_metrics = 1;
            o->kernel_us = po->kernel_us;
            o->whole_kernel_us = whole_times(t, P->gpu + po->gpu_at, po->ngpu);
            o->flops = res->perf.flops;
            o->bytes = res->perf.has_bytes ? res->perf.bytes : NAN;
            memcpy(o->compute_spec, res->perf.compute_spec, sizeof o->compute_spec);
            r.u->n++;
            continue;
        }
        if (model || f != NONE) {
            uint32_t src = model ? n : f;
            uint32_t *g = r.gpu.v + at;
            size_t gn = ng;
            if (f != NONE) {
                /* the forward op's backward kernel time: subtree_bwd_events(F) */
                u32vec sub = {0}, bw = {0};
                int bad = u32vec_push(&sub, f);
                for (size_t s = 0; !bad && s < sub.n; s++) {
                    uint32_t x = sub.v[s];
                    uint32_t b = tsql_bwd_of(t, x);
                    if (b != NONE && u32vec_push(&bw, b)) bad = 1;
                    for (uint32_t j = t->child_at[x]; !bad && j < t->child_at[x + 1]; j++) {
                        uint32_t ch = t->child[j];
                        if (t->edge[ch] == TSQL_EDGE_CPU && is_tl_node(t, ch) && u32vec_push(&sub, ch)) bad = 1;
                    }
                }
                bwd_gpu.n = 0;
                for (size_t s = 0; !bad && s < bw.n; s++)
                    if (tsql_tl_subtree_gpu(t, bw.v[s], &bwd_gpu) < 0) bad = 1;
                size_t nb = bwd_gpu.n;
                free(sub.v);
                free(bw.v);
                if (bad) goto fail;
                void *grown = realloc(scratch, (nb ? nb : 1) * 2 * sizeof *scratch);
                if (!grown) goto fail;
                scratch = grown;
                kus = tsql_busy_us(t, bwd_gpu.v, nb, scratch);
                g = bwd_gpu.v;
                gn = nb;
                category = tsql_op_bwd_category(tsql_intern_text(&t->strings, t->name[f]));
            }
            if (sort_gpu_by_ts(t, g, gn, &knames, &kcap)) goto fail;
            args.n = 0;
            const char *aj = NULL;
            if (t->args[src]) {
                if (tsql_trace_args_json(t, src, &args) < 0 || tsql_buf_reserve(&args, 1)) goto fail;
                args.p[args.n] = 0;
                aj = args.p;
            }
            const char *sn = tsql_intern_text(&t->strings, t->name[src]);
            int oom;
            const char *ann = tsql_op_annotation(t, src, 0, &oom); /* attention step statistics */
            if (oom) goto fail;
            const char *fj = NULL; /* the args of the forward op a ConvBias backward copies */
            if (copied != NONE && !(fj = tsql_convbias_fwd_args(t, copied, &fwd_args))) goto fail;
            tsql_perf_eval_fwd(&perf, sn, aj, fj, ann, knames, gn, f != NONE);
            if (perf.status == TSQL_PM_NOMEM) goto fail;
            if (perf.status == TSQL_PM_NOT_IMPLEMENTED && model) continue; /* dropped, still covered */
            metrics = perf.status == TSQL_PM_OK;
        }
        tsql_unified_op *o = new_row(&r);
        if (!o) goto fail;
        o->uid = n;
        o->node = n;
        o->gpu_at = (uint32_t)at;
        o->ngpu = (uint32_t)ng;
        o->category = category;
        o->has_model = (uint8_t)(model || f != NONE);
        o->kernel_us = metrics ? kus : busy;
        o->whole_kernel_us = metrics && f != NONE ? whole_times(t, bwd_gpu.v, bwd_gpu.n)
                                                  : whole_times(t, r.gpu.v + at, ng);
        if (metrics) {
            o->has_metrics = 1;
            o->flops = perf.flops;
            o->bytes = perf.has_bytes ? perf.bytes : NAN;
            memcpy(o->compute_spec, perf.compute_spec, sizeof o->compute_spec);
            dict.n = 0;
            if (tsql_perf_params_dict(&perf, &dict) || tsql_buf_reserve(&dict, 1)) goto fail;
            dict.p[dict.n] = 0;
            if (!(o->perf_params = strdup(dict.p))) goto fail;
        }
        r.u->n++;
    }

    /* synthetic rows for GPU work nobody covers: first those without a cpu_op above
     * (grouped by their runtime call), then those with one, each in file order */
    {
        const tsql_kernels *K = &t->kernels;
        uint32_t next_uid = t->n;
        u32vec parents = {0};
        int bad = 0;
        /* no cpu_op above: runtime calls in order of their first uncovered GPU event */
        for (uint32_t k = 0; k < K->n && !bad; k++) {
            uint32_t g = K->uid[k], rt = K->tl_runtime[k];
            if (rt == NONE || covered[g] || K->is_comm[k] || nearest_cpu_op(t, rt) != NONE) continue;
            size_t q = 0;
            while (q < parents.n && parents.v[q] != rt) q++;
            if (q == parents.n && u32vec_push(&parents, rt)) bad = 1;
        }
        for (size_t q = 0; q < parents.n && !bad; q++)
            for (uint32_t k = 0; k < K->n && !bad; k++)
                if (K->tl_runtime[k] == parents.v[q] && !covered[K->uid[k]] && !K->is_comm[k])
                    bad = add_synthetic(&r, t, c.a, parents.v[q], K->uid[k], next_uid++);
        free(parents.v);
        /* then those with one: a copy of the nearest cpu_op, in file order */
        for (uint32_t k = 0; k < K->n && !bad; k++) {
            uint32_t g = K->uid[k], rt = K->tl_runtime[k];
            if (rt == NONE || covered[g] || K->is_comm[k]) continue;
            uint32_t p = nearest_cpu_op(t, rt);
            if (p != NONE) bad = add_synthetic(&r, t, c.a, p, g, next_uid++);
        }
        if (bad) goto fail;
    }
    /* A synthetic row is a copy of its parent's fields, its place in the tree included, so
     * the sole-backward rule (which looks only above the row) holds for it as for the
     * parent: then it carries the forward op's backward metrics, category and kernel time
     * (those of the perf_ops backward row of F; without one, the category only). */
    for (uint32_t i = 0; i < r.u->n; i++) {
        tsql_unified_op *o = &r.u->rows[i];
        if (!o->name) continue;
        uint32_t f = sole_bwd_forward(&c, o->node);
        if (f == NONE) continue;
        o->category = tsql_op_bwd_category(tsql_intern_text(&t->strings, t->name[f]));
        o->has_model = 1;
        uint32_t prow = tsql_u64map_get(&perf_rows, (int64_t)f * 2 + 1);
        if (prow == NONE) continue;
        const tsql_perf_op *po = &P->rows[prow];
        const tsql_perf_result *res = &P->results[po->result];
        dict.n = 0;
        if (tsql_perf_params_dict(&res->perf, &dict) || tsql_buf_reserve(&dict, 1)) goto fail;
        dict.p[dict.n] = 0;
        if (!(o->perf_params = strdup(dict.p))) goto fail;
        o->has_metrics = 1;
        o->kernel_us = po->kernel_us;
        o->whole_kernel_us = whole_times(t, P->gpu + po->gpu_at, po->ngpu);
        o->flops = res->perf.flops;
        o->bytes = res->perf.has_bytes ? res->perf.bytes : NAN;
        memcpy(o->compute_spec, res->perf.compute_spec, sizeof o->compute_spec);
    }
    if (c.oom) goto fail;
    r.u->int_durations = r.u->int_kernel_times = 1;
    for (uint32_t i = 0; i < r.u->n; i++) {
        const tsql_unified_op *o = &r.u->rows[i];
        int64_t d = t->dur_ns[o->node];
        if (d == TSQL_NULL || d % 1000) r.u->int_durations = 0;
        if (!o->whole_kernel_us) r.u->int_kernel_times = 0;
    }
    r.u->gpu = r.gpu.v;
    r.gpu.v = NULL;
    out = r.u;
    r.u = NULL;
fail:
    tsql_perf_free(&perf);
    tsql_convbias_cache_free(c.cb);
    free(args.p);
    free(fwd_args.p);
    free(dict.p);
    free(knames);
    free(scratch);
    free(covered);
    free(bwd_gpu.v);
    free(c.gpu);
    free(c.comm);
    free(c.deep);
    free(c.visited);
    free(c.model);
    free(c.collected.v);
    free(c.kbuf);
    free_dicts(dicts, P);
    tsql_u64map_free(&perf_rows);
    free(r.gpu.v);
    tsql_unified_free(r.u);
    return out;
}

void tsql_unified_free(tsql_unified *u)
{
    if (!u) return;
    for (uint32_t i = 0; i < u->n; i++) {
        free(u->rows[i].name);
        free(u->rows[i].perf_params);
    }
    free(u->rows);
    free(u->gpu);
    free(u);
}

static void *build_value(tsql_trace *t) { return build(t); }
static void free_value(void *v) { tsql_unified_free(v); }
static const tsql_cache_kind KIND = {"unified", build_value, free_value};

const tsql_unified *tsql_unified_get(tsql_trace *t)
{
    return tsql_trace_cached(t, &KIND);
}

const tsql_unified *tsql_unified_peek(const tsql_trace *t)
{
    return tsql_trace_cache_get(t, &KIND);
}
