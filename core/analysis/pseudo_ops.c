/*
 * pseudo_ops.c — preparing a trace for the inference report (pseudo_ops.h).
 */
#include "analysis/pseudo_ops.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/attribution.h"
#include "analysis/py_tree.h"
#include "store/colmem.h"
#include "store/intern.h"
#include "store/store.h"
#include "tree/tree.h"
#include "util/buf.h"
#include "util/u32vec.h"

#define SGLANG_PREFIX "sglang_profiler::"

/* the marker of a prepared trace: a cache entry that holds nothing of its own */
static void *no_build(tsql_trace *t)
{
    (void)t;
    return NULL;
}
static void no_free(void *p) { (void)p; }
static const tsql_cache_kind PREPARED = {"inference_prepared", no_build, no_free};
static int prepared_marker;

int tsql_trace_inference_mode(const tsql_trace *t)
{
    return tsql_trace_cache_get(t, &PREPARED) != NULL;
}

/* caches that do not depend on event names or the annotation rule */
static int cache_is_neutral(const char *kind)
{
    static const char *const ok[] = {"names", "python_frame.index", "py_tree", "capture_merged_folder",
                                     "py_tree.copy_parents"};
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
        if (strcmp(kind, ok[i]) == 0) return 1;
    return 0;
}

/* the length of name without a final "_<digits>" when name is "sglang_profiler::X_<digits>"
 * with X non-empty, else 0 */
static size_t sglang_base(const char *name)
{
    size_t pl = sizeof SGLANG_PREFIX - 1, n = strlen(name), i = n;
    if (strncmp(name, SGLANG_PREFIX, pl) != 0) return 0;
    while (i > pl && name[i - 1] >= '0' && name[i - 1] <= '9') i--;
    if (i == n || i <= pl + 1 || name[i - 1] != '_') return 0;
    return i - 1;
}

static int apply_pseudo_ops(tsql_trace *t);

int64_t tsql_trace_inference_prepare(tsql_trace *t)
{
    if (tsql_trace_inference_mode(t)) return 0;
    for (int i = 0; i < TSQL_CACHE_SLOTS; i++)
        if (t->cache[i].kind && t->cache[i].value && !cache_is_neutral(t->cache[i].kind->name)) return -2;
    /* per name id: 0 not decided, 1 renamed to to[id], 2 kept */
    uint32_t nstr = 0;
    for (uint32_t u = 0; u < t->n; u++)
        if (t->name[u] >= nstr) nstr = t->name[u] + 1;
    uint8_t *state = calloc(nstr ? nstr : 1, 1);
    uint32_t *to = malloc((nstr ? nstr : 1) * sizeof *to);
    int64_t renamed = 0;
    if (!state || !to) goto oom;
    for (uint32_t u = 0; u < t->n; u++) {
        uint32_t id = t->name[u];
        if (!id) continue;
        if (!state[id]) {
            /* decided on the name's first event: TraceLens reads its category */
            const char *nm = tsql_intern_text(&t->strings, id);
            size_t base = sglang_base(nm);
            state[id] = 2;
            if (base && t->kind[u] == TSQL_K_CPU_OP) {
                char *b = malloc(base + 1);
                if (!b) goto oom;
                memcpy(b, nm, base);
                b[base] = 0;
                uint32_t nid = tsql_intern_add(&t->strings, b, base);
                free(b);
                if (!nid) goto oom;
                to[id] = nid;
                state[id] = 1;
            }
        }
        if (state[id] == 1) {
            t->name[u] = to[id];
            renamed++;
        }
    }
    free(state);
    free(to);
    if (apply_pseudo_ops(t)) return -1;
    if (tsql_trace_cache_put(t, &PREPARED, &prepared_marker)) return -1;
    return renamed;
oom:
    free(state);
    free(to);
    return -1;
}

/* ---------- the pseudo-op plan (single-kernel MoE insertions) ---------- */

/* printf into a growing buffer */
static int put_fmt(tsql_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int put_fmt(tsql_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || tsql_buf_reserve(b, (size_t)n + 1)) return -1;
    va_start(ap, fmt);
    vsnprintf(b->p + b->n, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->n += (size_t)n;
    return 0;
}

static const char *nm(const tsql_trace *t, uint32_t u) { return t->name[u] ? tsql_intern_text(&t->strings, t->name[u]) : ""; }

static int lower_has(const char *s, const char *needle) { return strcasestr(s, needle) != NULL; }

/* 1 when some event of TraceLens's name index carries this name: tree nodes (ops,
 * runtime and driver calls, Python frames) and linked GPU events */
static int name_present(const tsql_trace *t, const char *name)
{
    uint32_t id = tsql_intern_find(&t->strings, name, strlen(name));
    if (!id) return 0;
    for (uint32_t u = 0; u < t->n; u++) {
        if (t->name[u] != id) continue;
        int k = t->kind[u];
        if (k == TSQL_K_CPU_OP || k == TSQL_K_RUNTIME || k == TSQL_K_DRIVER || k == TSQL_K_PYTHON) return 1;
        if (tsql_kind_is_gpu(k)) {
            uint32_t r = tsql_kernel_row(t, u);
            if (r != TSQL_NONE && t->kernels.tl_runtime[r] != TSQL_NONE) return 1;
        }
    }
    return 0;
}

static int is_kernel(const tsql_trace *t, uint32_t u)
{
    return t->kind[u] == TSQL_K_KERNEL && !(t->flags[u] & TSQL_F_OLD_SPELLING);
}

/* some event of category kernel whose name holds needle (case-insensitive or not) */
static int kernel_named(const tsql_trace *t, const char *needle, int nocase)
{
    for (uint32_t u = 0; u < t->n; u++)
        if (is_kernel(t, u) && (nocase ? lower_has(nm(t, u), needle) : strstr(nm(t, u), needle) != NULL)) return 1;
    return 0;
}

/* the value text of args key of u (expanded args in *scratch), or NULL */
static const char *arg_of(const tsql_trace *t, uint32_t u, const char *key, tsql_buf *scratch, size_t *len)
{
    scratch->n = 0;
    long n = tsql_trace_args_json(t, u, scratch);
    if (n <= 0) return NULL;
    return tsql_template_member(scratch->p, scratch->n, key, len);
}

typedef struct planner {
    tsql_trace *t;
    const tsql_py_tree *pt;
    tsql_pseudo_plan *out;
    tsql_buf a, b;
} planner;

/* Plans one single-kernel insertion of `name` for GPU event g under op `op`:
 * 0 planned, 1 the extension aborts (TraceLens's error: no launch or no correlation),
 * -1 out of memory. extra: JSON members appended after "Pseudo op" (or NULL). */
static int plan_single(planner *pl, const char *name, uint32_t op, uint32_t g, const char *extra)
{
    tsql_trace *t = pl->t;
    uint32_t k = tsql_kernel_row(t, g);
    uint32_t L = k != TSQL_NONE ? t->kernels.tl_runtime[k] : TSQL_NONE;
    uint32_t P = L != TSQL_NONE ? pl->pt->parent[L] : TSQL_NONE;
    int64_t corr = tsql_icol_get(&t->correlation, g);
    if (L == TSQL_NONE || P == TSQL_NONE || corr == TSQL_NULL) return 1;
    tsql_buf *b = &pl->b;
    b->n = 0;
    static const char *const lists[] = {"Input Dims", "Input type", "Input Strides", "Concrete Inputs"};
    if (tsql_bputc(b, '{')) return -1;
    int first = 1;
    for (size_t i = 0; i < 4; i++) {
        size_t len;
        const char *v = arg_of(t, op, lists[i], &pl->a, &len);
        if (!v) v = arg_of(t, P, lists[i], &pl->a, &len);
        if (!v) continue;
        if (put_fmt(b, "%s\"%s\":%.*s", first ? "" : ",", lists[i], (int)len, v)) return -1;
        first = 0;
    }
    size_t sl;
    const char *seq = arg_of(t, op, "Sequence number", &pl->a, &sl);
    if ((seq ? put_fmt(b, "%s\"Sequence number\":%.*s", first ? "" : ",", (int)sl, seq)
             : put_fmt(b, "%s\"Sequence number\":%u", first ? "" : ",", op)) ||
        put_fmt(b, ",\"External id\":%lld,\"Pseudo op\":true%s%s}", (long long)corr, extra ? "," : "",
                     extra ? extra : ""))
        return -1;
    tsql_pseudo_plan *o = pl->out;
    if (o->n == o->cap) {
        size_t nc = o->cap ? o->cap * 2 : 16;
        tsql_pseudo_op *nv = realloc(o->v, nc * sizeof *nv);
        if (!nv) return -1;
        o->v = nv, o->cap = nc;
    }
    char *args = malloc(b->n + 1);
    if (!args) return -1;
    memcpy(args, b->p, b->n);
    args[b->n] = 0;
    o->v[o->n] = (tsql_pseudo_op){t->n + (uint32_t)o->n, name, op, g, L, P, args};
    o->n++;
    return 0;
}

/* the GPU events of op, sorted stably by start */
static int gpu_of(const tsql_trace *t, uint32_t op, u32vec *g)
{
    g->n = 0;
    if (tsql_tl_subtree_gpu(t, op, g) < 0) return -1;
    /* insertion sort: an op has few kernels */
    for (size_t i = 1; i < g->n; i++) {
        uint32_t x = g->v[i];
        size_t j = i;
        while (j && tsql_trace_ts_us(t, g->v[j - 1]) > tsql_trace_ts_us(t, x)) g->v[j] = g->v[j - 1], j--;
        g->v[j] = x;
    }
    return 0;
}

/* an integer in JSON string text v[0..n) ("\"4\""), else -1 */
static long conc_int(const char *v, size_t n)
{
    if (n < 3 || v[0] != '"' || v[n - 1] != '"') return -1;
    long x = 0;
    for (size_t i = 1; i + 1 < n; i++) {
        if (v[i] < '0' || v[i] > '9' || x > 100000000) return -1;
        x = x * 10 + (v[i] - '0');
    }
    return x;
}

/* the second Concrete Inputs entry of u as an integer, else -1 */
static long second_concrete(const tsql_trace *t, uint32_t u, tsql_buf *scratch)
{
    size_t len;
    const char *v = arg_of(t, u, "Concrete Inputs", scratch, &len);
    if (!v || len < 2 || v[0] != '[') return -1;
    /* the entries are strings: skip the first one */
    size_t i = 1;
    if (v[i] != '"') return -1;
    for (i++; i < len && v[i] != '"'; i++)
        if (v[i] == '\\') i++;
    if (++i >= len || v[i] != ',') return -1;
    size_t s = ++i;
    if (i >= len || v[i] != '"') return -1;
    for (i++; i < len && v[i] != '"'; i++)
        if (v[i] == '\\') i++;
    return conc_int(v + s, i + 1 - s);
}

/* top-k of a vLLM MoE op: a node named with "TopK" within 10 levels below one of its
 * children (children in start order, depth first) whose second concrete input is an
 * integer; else 4 */
static long moe_topk(planner *pl, uint32_t op, const uint32_t *child_at, const uint32_t *child)
{
    uint32_t stack[64], lvl[64];
    int sp = 0;
    for (uint32_t j = child_at[op + 1]; j-- > child_at[op] && sp < 64;) stack[sp] = child[j], lvl[sp++] = 0;
    while (sp) {
        uint32_t u = stack[--sp], d = lvl[sp];
        if (strstr(nm(pl->t, u), "TopK")) {
            long k = second_concrete(pl->t, u, &pl->a);
            if (k >= 0) return k;
        }
        if (d >= 10) continue;
        for (uint32_t j = child_at[u + 1]; j-- > child_at[u] && sp < 64;) stack[sp] = child[j], lvl[sp++] = d + 1;
    }
    return 4;
}

/* TraceLens's vLLM GPT-OSS Triton MoE rule: per vllm::moe_forward, one op per matmul_ogs
 * kernel (the first by start "up", the later ones "down"), then one for its single
 * matmul_scatter GPU event */
static int plan_triton(planner *pl, uint32_t id, const uint32_t *child_at, const uint32_t *child, u32vec *g)
{
    tsql_trace *t = pl->t;
    for (uint32_t op = 0; op < t->n; op++) {
        if (t->name[op] != id || t->kind[op] != TSQL_K_CPU_OP) continue;
        if (gpu_of(t, op, g)) return -1;
        if (!g->n) continue;
        long topk = -2;
        uint32_t idx = 0;
        for (size_t i = 0; i < g->n; i++) {
            uint32_t k = g->v[i];
            if (!is_kernel(t, k) || !lower_has(nm(t, k), "matmul_ogs")) continue;
            if (topk == -2) topk = moe_topk(pl, op, child_at, child);
            int gated = lower_has(nm(t, k), "_swiglu") || lower_has(nm(t, k), "_glu");
            char extra[160];
            snprintf(extra, sizeof extra,
                     "\"MoE GEMM type\":\"%s\",\"MoE GEMM index\":%u,\"MoE GEMM gated\":%s,\"MoE topk\":%ld",
                     idx ? "down" : "up", idx, gated ? "true" : "false", topk);
            int rc = plan_single(pl, idx ? "pseudo_op::moe_triton_unfused_down" : "pseudo_op::moe_triton_unfused_up",
                                 op, k, extra);
            if (rc) return rc;
            idx++;
        }
        if (!idx) continue;
        uint32_t scatter = TSQL_NONE, nscatter = 0;
        for (size_t i = 0; i < g->n; i++)
            if (lower_has(nm(t, g->v[i]), "matmul_scatter")) scatter = g->v[i], nscatter++;
        if (nscatter == 1) {
            int rc = plan_single(pl, "pseudo_op::moe_triton_unfused_finalize_matmul_scatter", op, scatter,
                                 "\"MoE GEMM type\":\"finalize_matmul_scatter\"");
            if (rc) return rc;
        }
    }
    return 0;
}

/* TraceLens's aiter fused-MoE rule: per vllm::rocm_aiter_fused_moe with no op below it,
 * its single aiter fmoe kernel (not a sorting or quantising one) */
static int plan_aiter(planner *pl, uint32_t id, const uint32_t *child_at, const uint32_t *child, u32vec *g)
{
    tsql_trace *t = pl->t;
    for (uint32_t op = 0; op < t->n; op++) {
        if (t->name[op] != id || t->kind[op] != TSQL_K_CPU_OP) continue;
        /* an op below it (the search skips subtrees without GPU work) */
        int below = 0;
        u32vec st = {0};
        for (uint32_t j = child_at[op]; j < child_at[op + 1]; j++)
            if (u32vec_push(&st, child[j])) return -1;
        while (st.n && !below) {
            uint32_t u = st.v[--st.n];
            if (t->kind[u] == TSQL_K_CPU_OP) below = 1;
            uint32_t k = 0;
            for (uint32_t j = child_at[u]; j < child_at[u + 1]; j++) k++;
            if (!k) continue;
            g->n = 0;
            if (tsql_tl_subtree_gpu(t, u, g) < 0) {
                free(st.v);
                return -1;
            }
            if (!g->n) continue; /* TraceLens's non_gpu_path */
            for (uint32_t j = child_at[u]; j < child_at[u + 1]; j++)
                if (u32vec_push(&st, child[j])) {
                    free(st.v);
                    return -1;
                }
        }
        free(st.v);
        if (below) continue;
        if (gpu_of(t, op, g)) return -1;
        uint32_t cand = TSQL_NONE, nc = 0;
        for (size_t i = 0; i < g->n; i++) {
            const char *kn = nm(t, g->v[i]);
            if (is_kernel(t, g->v[i]) && strstr(kn, "aiter::") && strstr(kn, "fmoe") && !strstr(kn, "MoeSorting") &&
                !lower_has(kn, "quant"))
                cand = g->v[i], nc++;
        }
        if (nc != 1) continue;
        int rc = plan_single(pl, "pseudo_op::moe_aiter_fused_1stage", op, cand, NULL);
        if (rc) return rc;
    }
    return 0;
}

/* the second entry of Input Dims[4] as an integer, else -1 */
static long dims4_second(const tsql_trace *t, uint32_t u, tsql_buf *scratch)
{
    size_t len;
    const char *v = arg_of(t, u, "Input Dims", scratch, &len);
    if (!v || len < 2 || v[0] != '[') return -1;
    /* walk to the fifth top-level entry */
    size_t i = 1;
    int entry = 0, depth = 0;
    while (i < len && entry < 4) {
        if (v[i] == '[') depth++;
        else if (v[i] == ']') depth--;
        else if (v[i] == ',' && depth == 0) entry++;
        i++;
    }
    if (entry < 4 || i >= len || v[i] != '[') return -1;
    long x[2];
    int nx = 0;
    for (i++; i < len && v[i] != ']' && nx < 2;) {
        if (v[i] < '0' || v[i] > '9') return -1;
        long y = 0;
        while (i < len && v[i] >= '0' && v[i] <= '9' && y < 100000000) y = y * 10 + (v[i++] - '0');
        x[nx++] = y;
        if (i < len && v[i] == ',') i++;
    }
    return nx == 2 ? x[1] : -1;
}

/* TraceLens's GPTQ/AWQ rule: per vllm::outplace_fused_experts, its
 * fused_moe_kernel_gptq_awq kernels by start: the first "up" (gated), the others "down" */
static int plan_gptq(planner *pl, uint32_t id, u32vec *g)
{
    tsql_trace *t = pl->t;
    for (uint32_t op = 0; op < t->n; op++) {
        if (t->name[op] != id || t->kind[op] != TSQL_K_CPU_OP) continue;
        if (gpu_of(t, op, g)) return -1;
        long topk = dims4_second(t, op, &pl->a);
        if (topk < 0) topk = 8;
        uint32_t idx = 0;
        for (size_t i = 0; i < g->n; i++) {
            uint32_t k = g->v[i];
            if (!is_kernel(t, k) || !strstr(nm(t, k), "fused_moe_kernel_gptq_awq")) continue;
            char extra[160];
            snprintf(extra, sizeof extra,
                     "\"MoE GEMM type\":\"%s\",\"MoE GEMM index\":%u,\"MoE GEMM gated\":%s,\"MoE topk\":%ld",
                     idx ? "down" : "up", idx, idx ? "false" : "true", topk);
            int rc = plan_single(pl, idx ? "pseudo_op::moe_gptq_awq_down" : "pseudo_op::moe_gptq_awq_up", op, k, extra);
            if (rc) return rc;
            idx++;
        }
    }
    return 0;
}

void tsql_pseudo_plan_free(tsql_pseudo_plan *p)
{
    for (size_t i = 0; p && i < p->n; i++) free(p->v[i].args);
    if (p) free(p->v);
    if (p) memset(p, 0, sizeof *p);
}

int tsql_pseudo_ops_plan(tsql_trace *t, tsql_pseudo_plan *out)
{
    memset(out, 0, sizeof *out);
    /* TraceLens gives up on every pseudo op when the trace holds one of these */
    if (name_present(t, "_rocm_C::paged_attention") || name_present(t, "aiter::paged_attention_v1")) {
        out->skipped = 1;
        return 0;
    }
    planner pl = {.t = t, .out = out};
    pl.pt = tsql_py_tree_get(t);
    uint32_t *child_at = calloc((size_t)t->n + 2, sizeof *child_at);
    uint32_t *child = malloc(((size_t)t->n + 1) * sizeof *child);
    u32vec g = {0};
    int rc = -1;
    if (!pl.pt || !child_at || !child) goto done;
    /* children with Python frames, in uid order */
    for (uint32_t u = 0; u < t->n; u++)
        if (pl.pt->parent[u] != TSQL_NONE) child_at[pl.pt->parent[u] + 2]++;
    for (uint32_t u = 2; u < t->n + 2; u++) child_at[u] += child_at[u - 1];
    for (uint32_t u = 0; u < t->n; u++)
        if (pl.pt->parent[u] != TSQL_NONE) child[child_at[pl.pt->parent[u] + 1]++] = u;
    int moe = name_present(t, "vllm::moe_forward"), aiter = name_present(t, "vllm::rocm_aiter_fused_moe");
    rc = 0;
    /* each rule on its own: one that aborts leaves the others */
    if (moe && aiter) {
        int r = plan_aiter(&pl, tsql_intern_find(&t->strings, "vllm::rocm_aiter_fused_moe", 26), child_at, child, &g);
        if (r < 0) rc = -1;
    } else if (moe && kernel_named(t, "matmul_ogs", 1)) {
        int r = plan_triton(&pl, tsql_intern_find(&t->strings, "vllm::moe_forward", 17), child_at, child, &g);
        if (r < 0) rc = -1;
    }
    if (!rc && name_present(t, "vllm::outplace_fused_experts") && kernel_named(t, "fused_moe_kernel_gptq_awq", 0)) {
        int r = plan_gptq(&pl, tsql_intern_find(&t->strings, "vllm::outplace_fused_experts", 28), &g);
        if (r < 0) rc = -1;
    }
done:
    free(child_at);
    free(child);
    free(g.v);
    free(pl.a.p);
    free(pl.b.p);
    if (rc) tsql_pseudo_plan_free(out);
    return rc;
}

/* ---------- applying the plan ---------- */

/* Drops every cached result but the ones that stay true after rows are appended (the
 * merge's record and the copies' parents, extended by the caller), and the
 * correlation index. */
static void drop_stale_caches(tsql_trace *t)
{
    free(t->by_corr);
    t->by_corr = NULL;
    t->nby_corr = 0;
    for (int i = 0; i < TSQL_CACHE_SLOTS; i++) {
        const tsql_cache_kind *k = t->cache[i].kind;
        if (!k || strcmp(k->name, "capture_merged_folder") == 0 || strcmp(k->name, "py_tree.copy_parents") == 0)
            continue;
        k->free(t->cache[i].value);
        t->cache[i].kind = NULL;
        t->cache[i].value = NULL;
    }
}

/* Appends one pseudo op as row t->n (room reserved): a cpu_op without ts or dur on the
 * thread of its parent, with the planned args (no placeholder: the text as it is). */
static int append_row(tsql_trace *t, const tsql_pseudo_op *o, uint32_t s_cat)
{
    uint32_t r = t->n;
    tsql_icol *cols[] = {&t->correlation, &t->external_id, &t->stream, &t->device, &t->seq,
                         &t->python_id, &t->python_parent, &t->flow_id};
    for (size_t i = 0; i < sizeof cols / sizeof *cols; i++)
        if (tsql_icol_set(cols[i], r, TSQL_NULL)) return -1;
    size_t len;
    const char *v = tsql_template_member(o->args, strlen(o->args), "External id", &len);
    if (v && tsql_icol_set(&t->external_id, r, strtoll(v, NULL, 10))) return -1;
    v = tsql_template_member(o->args, strlen(o->args), "Sequence number", &len);
    if (v && tsql_icol_set(&t->seq, r, strtoll(v, NULL, 10))) return -1;
    t->ph[r] = 'X';
    t->kind[r] = TSQL_K_CPU_OP;
    t->flags[r] = TSQL_F_HAS_ARGS;
    t->cat[r] = s_cat;
    t->name[r] = tsql_intern_add(&t->strings, o->name, strlen(o->name));
    t->args[r] = tsql_intern_add(&t->strings, o->args, strlen(o->args));
    if (!t->name[r] || !t->args[r]) return -1;
    t->pid[r] = t->pid[o->parent];
    t->tid[r] = t->tid[o->parent];
    t->ts_ns[r] = TSQL_NULL;
    t->dur_ns[r] = TSQL_NULL;
    t->pool_at[r] = (uint32_t)t->npool;
    /* upward: beside its launch call, under the launch's parent */
    t->parent[r] = t->parent[o->launch];
    t->edge[r] = t->edge[o->launch];
    t->depth[r] = t->depth[o->launch];
    t->n = r + 1;
    return 0;
}

/* The children lists after the insertions (docs/inference.md, Pseudo ops): a launch's
 * parent lists the pseudo op at the end in place of the launch, the pseudo op lists the
 * launch; the launch keeps its parent (t->parent), so the lists go down only. The k
 * pseudo ops are rows n0 .. n0 + k - 1 (t->n = n0 + k); launch[i] is row n0 + i's launch. */
static int rebuild_children_with(tsql_trace *t, uint32_t n0, const uint32_t *launch, uint32_t k)
{
    uint32_t n = n0 + k;
    uint8_t *moved = calloc((size_t)n0 ? n0 : 1, 1);
    uint32_t *at = tsql_col_calloc((size_t)n + 1, sizeof *at); /* becomes t->child_at */
    uint32_t *pos = malloc(((size_t)n + 1) * sizeof *pos);
    uint32_t *ch = NULL;
    if (!moved || !at || !pos) goto oom;
    for (uint32_t i = 0; i < k; i++) moved[launch[i]] = 1;
    /* in uid order: the kept children, then the pseudo ops (rows after n0) */
    for (uint32_t u = 0; u < n; u++)
        if (t->parent[u] != TSQL_NONE && !(u < n0 && moved[u])) at[t->parent[u] + 1]++;
    for (uint32_t p = n0; p < n; p++) at[p + 1]++;
    for (uint32_t u = 0; u < n; u++) at[u + 1] += at[u];
    ch = tsql_col_malloc((size_t)(at[n] ? at[n] : 1) * sizeof *ch); /* becomes t->child */
    if (!ch) goto oom;
    memcpy(pos, at, ((size_t)n + 1) * sizeof *pos);
    for (uint32_t u = 0; u < n; u++)
        if (t->parent[u] != TSQL_NONE && !(u < n0 && moved[u])) ch[pos[t->parent[u]]++] = u;
    for (uint32_t i = 0; i < k; i++) ch[pos[n0 + i]++] = launch[i];
    /* the tree's arrays are (n + 2) long: child_at[n + 1] unused, kept equal */
    uint32_t *at2 = tsql_col_realloc(at, ((size_t)n + 2) * sizeof *at2);
    if (!at2) goto oom;
    at = at2;
    at[n + 1] = at[n];
    tsql_col_free(t->child_at);
    tsql_col_free(t->child);
    t->child_at = at;
    t->child = ch;
    free(moved);
    free(pos);
    return 0;
oom:
    free(moved);
    tsql_col_free(at);
    free(pos);
    tsql_col_free(ch);
    return -1;
}

/* Applies the plan: the pseudo ops become rows n .. n + k - 1 of t (their uids are
 * TraceLens's), each listed where TraceLens lists it. 0, or -1 on out of memory. */
static int apply_pseudo_ops(tsql_trace *t)
{
    tsql_pseudo_plan plan = {0};
    if (tsql_pseudo_ops_plan(t, &plan)) return -1;
    if (!plan.n) {
        tsql_pseudo_plan_free(&plan);
        return 0;
    }
    uint32_t n0 = t->n, k = (uint32_t)plan.n, need = n0 + k;
    uint32_t *launch = malloc((size_t)k * sizeof *launch);
    uint32_t *pyp = malloc((size_t)k * sizeof *pyp);
    uint32_t s_cat = tsql_intern_add(&t->strings, "cpu_op", 6);
    int rc = -1;
    if (!launch || !pyp || !s_cat) goto done;
    while (t->cap < need)
        if (tsql_store_grow(t)) goto done;
    uint32_t *p = tsql_col_realloc(t->parent, (size_t)need * sizeof *p);
    if (!p) goto done;
    t->parent = p;
    uint16_t *d = tsql_col_realloc(t->depth, (size_t)need * sizeof *d);
    if (!d) goto done;
    t->depth = d;
    uint8_t *e = tsql_col_realloc(t->edge, need);
    if (!e) goto done;
    t->edge = e;
    drop_stale_caches(t);
    for (uint32_t i = 0; i < k; i++) {
        if (plan.v[i].uid != n0 + i || append_row(t, &plan.v[i], s_cat)) goto done;
        launch[i] = plan.v[i].launch;
        pyp[i] = plan.v[i].parent;
    }
    if (t->n != need || rebuild_children_with(t, n0, launch, k)) goto done;
    rc = tsql_py_tree_record_copies(t, n0, pyp); /* takes pyp */
    pyp = NULL;
done:
    free(launch);
    free(pyp);
    tsql_pseudo_plan_free(&plan);
    return rc;
}
