/*
 * pseudo_ops.c — preparing a trace for the inference report (pseudo_ops.h).
 */
#include "analysis/pseudo_ops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/attribution.h"
#include "analysis/pseudo_internal.h"
#include "analysis/py_tree.h"
#include "store/colmem.h"
#include "store/intern.h"
#include "store/store.h"
#include "tree/children.h"
#include "tree/tree.h"
#include "util/buf.h"
#include "util/sort.h"
#include "util/u32vec.h"
#include "util/vec.h"

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

#define nm tsql_pseudo_name

static int lower_has(const char *s, const char *needle) { return strcasestr(s, needle) != NULL; }

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

typedef tsql_pseudo_planner planner;

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
    int first = 1;
    if (tsql_bputc(b, '{') || tsql_pseudo_put_shapes(pl, op, P, &first)) return -1;
    size_t sl;
    const char *seq = tsql_pseudo_arg(t, op, "Sequence number", &pl->a, &sl);
    if ((seq ? tsql_bprintf(b, "%s\"Sequence number\":%.*s", first ? "" : ",", (int)sl, seq)
             : tsql_bprintf(b, "%s\"Sequence number\":%u", first ? "" : ",", op)) ||
        tsql_bprintf(b, ",\"External id\":%lld,\"Pseudo op\":true%s%s}", (long long)corr, extra ? "," : "",
                     extra ? extra : ""))
        return -1;
    return tsql_pseudo_push(pl, (tsql_pseudo_op){.name = name, .how = TSQL_PSEUDO_SINGLE, .source = op, .kernel = g,
                                                 .launch = L, .parent = P, .target = TSQL_NONE},
                            b);
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
    const char *v = tsql_pseudo_arg(t, u, "Concrete Inputs", scratch, &len);
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
static long moe_topk(planner *pl, uint32_t op)
{
    const uint32_t *child_at = pl->pc_at, *child = pl->pc;
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

/* The cpu_ops named id in the order TraceLens's rules visit them: its name index lists
 * the tree's events by start (a stable sort, so uid order within one start), not in file
 * order. 0, or -1 on out of memory. */
static int ops_by_start(const tsql_trace *t, uint32_t id, u32vec *out)
{
    out->n = 0;
    tsql_keyed *ev = NULL;
    size_t n = 0, cap = 0;
    for (uint32_t u = 0; u < t->n; u++) {
        if (t->name[u] != id || t->kind[u] != TSQL_K_CPU_OP || t->ts_ns[u] == TSQL_NULL) continue;
        if (n == cap) {
            tsql_keyed *ne = tsql_grow(ev, &cap, sizeof *ne, 64);
            if (!ne) {
                free(ev);
                return -1;
            }
            ev = ne;
        }
        ev[n++] = (tsql_keyed){tsql_trace_ts_us(t, u), u, u};
    }
    tsql_keyed_sort(ev, n);
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) rc = u32vec_push(out, ev[i].v);
    free(ev);
    return rc;
}

/* TraceLens's vLLM GPT-OSS Triton MoE rule: per vllm::moe_forward, one op per matmul_ogs
 * kernel (the first by start "up", the later ones "down"), then one for its single
 * matmul_scatter GPU event */
static int plan_triton(planner *pl, uint32_t id, u32vec *g)
{
    tsql_trace *t = pl->t;
    if (ops_by_start(t, id, &pl->ops)) return -1;
    for (size_t i_op = 0; i_op < pl->ops.n; i_op++) {
        uint32_t op = pl->ops.v[i_op];
        if (gpu_of(t, op, g)) return -1;
        if (!g->n) continue;
        long topk = -2;
        uint32_t idx = 0;
        for (size_t i = 0; i < g->n; i++) {
            uint32_t k = g->v[i];
            if (!is_kernel(t, k) || !lower_has(nm(t, k), "matmul_ogs")) continue;
            if (topk == -2) topk = moe_topk(pl, op);
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
static int plan_aiter(planner *pl, uint32_t id, u32vec *g)
{
    const uint32_t *child_at = pl->pc_at, *child = pl->pc;
    tsql_trace *t = pl->t;
    if (ops_by_start(t, id, &pl->ops)) return -1;
    for (size_t i_op = 0; i_op < pl->ops.n; i_op++) {
        uint32_t op = pl->ops.v[i_op];
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
    const char *v = tsql_pseudo_arg(t, u, "Input Dims", scratch, &len);
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
    if (ops_by_start(t, id, &pl->ops)) return -1;
    for (size_t i_op = 0; i_op < pl->ops.n; i_op++) {
        uint32_t op = pl->ops.v[i_op];
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
    if (tsql_pseudo_name_present(t, "_rocm_C::paged_attention") || tsql_pseudo_name_present(t, "aiter::paged_attention_v1")) {
        out->skipped = 1;
        return 0;
    }
    /* which rules the names call for, before any tree is read */
    int moe = tsql_pseudo_name_present(t, "vllm::moe_forward"), aiter = tsql_pseudo_name_present(t, "vllm::rocm_aiter_fused_moe");
    int gptq = tsql_pseudo_name_present(t, "vllm::outplace_fused_experts");
    int wrapping = tsql_pseudo_wrapping_rules(t);
    if (wrapping < 0) return -1;
    if (!moe && !gptq && !wrapping) return 0;
    planner pl = {.t = t, .out = out};
    pl.pt = tsql_py_tree_get(t);
    uint32_t *child_at = NULL, *child = NULL;
    u32vec g = {0};
    int rc = -1;
    /* children with Python frames, in uid order */
    if (!pl.pt || tsql_children_build(t->n, pl.pt->parent, NULL, NULL, NULL, 0, &child_at, &child)) goto done;
    pl.pc_at = child_at;
    pl.pc = child;
    rc = 0;
    /* each rule on its own: one that aborts leaves the others */
    if (moe && aiter) {
        int r = plan_aiter(&pl, tsql_intern_find(&t->strings, "vllm::rocm_aiter_fused_moe", 26), &g);
        if (r < 0) rc = -1;
    } else if (moe && kernel_named(t, "matmul_ogs", 1)) {
        int r = plan_triton(&pl, tsql_intern_find(&t->strings, "vllm::moe_forward", 17), &g);
        if (r < 0) rc = -1;
    }
    if (!rc && gptq && kernel_named(t, "fused_moe_kernel_gptq_awq", 0)) {
        int r = plan_gptq(&pl, tsql_intern_find(&t->strings, "vllm::outplace_fused_experts", 28), &g);
        if (r < 0) rc = -1;
    }
    if (!rc && wrapping && tsql_pseudo_plan_wrapping(&pl, wrapping)) rc = -1;
done:
    tsql_col_free(child_at);
    tsql_col_free(child);
    free(g.v);
    free(pl.a.p);
    free(pl.b.p);
    free(pl.ops.v);
    if (rc) tsql_pseudo_plan_free(out);
    return rc;
}

/* ---------- applying the plan ---------- */

/* the cached results that stay true after rows are appended: the merge's record and the
 * copies' parents (extended by the caller), the rows moved in the tree with Python frames */
static int cache_survives(const char *kind)
{
    return strcmp(kind, "capture_merged_folder") == 0 || strcmp(kind, "py_tree.copy_parents") == 0 ||
           strcmp(kind, "py_tree.moved_parents") == 0;
}

/* Drops every cached result but those, and the correlation index. */
static void drop_stale_caches(tsql_trace *t)
{
    free(t->by_corr);
    t->by_corr = NULL;
    t->nby_corr = 0;
    for (int i = 0; i < TSQL_CACHE_SLOTS; i++) {
        const tsql_cache_kind *k = t->cache[i].kind;
        if (!k || cache_survives(k->name)) continue;
        k->free(t->cache[i].value);
        t->cache[i].kind = NULL;
        t->cache[i].value = NULL;
    }
}

/* Appends one pseudo op as row t->n (room reserved): a cpu_op with the planned args (no
 * placeholder: the text as it is). A single-kernel op has no ts or dur and sits on the
 * thread of its parent, beside its launch call in the tree; the others take the ts, dur,
 * pid and tid of their Python frame (their place in the tree is set by the caller). */
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
    t->pool_at[r] = (uint32_t)t->npool;
    if (o->how == TSQL_PSEUDO_SINGLE) {
        t->pid[r] = t->pid[o->parent];
        t->tid[r] = t->tid[o->parent];
        t->ts_ns[r] = TSQL_NULL;
        t->dur_ns[r] = TSQL_NULL;
        /* upward: beside its launch call, under the launch's parent */
        t->parent[r] = t->parent[o->launch];
        t->edge[r] = t->edge[o->launch];
        t->depth[r] = t->depth[o->launch];
    } else {
        uint32_t x = o->target;
        t->pid[r] = t->pid[x];
        t->tid[r] = t->tid[x];
        t->ts_ns[r] = t->ts_ns[x];
        t->dur_ns[r] = t->dur_ns[x];
        if ((t->flags[x] & TSQL_F_XD) &&
            tsql_store_exact_double(t, r, tsql_trace_ts_us(t, x), tsql_trace_dur_us(t, x)))
            return -1;
        t->flags[r] |= t->flags[x] & TSQL_F_XD;
        t->parent[r] = TSQL_NONE;
        t->edge[r] = TSQL_EDGE_NONE;
        t->depth[r] = 0;
    }
    t->n = r + 1;
    return 0;
}

/* The state of the insertions, op by op. */
typedef struct applier {
    tsql_trace *t;
    uint32_t n0;                /* rows before the pseudo ops */
    uint32_t *pyp;              /* parent of every row in the tree with Python frames, as it becomes */
    const uint32_t *pc_at, *pc; /* children with Python frames before any insertion (rows < n0) */
    u32vec moved, moved_to;     /* rows < n0 whose parent with Python frames changed, and to what */
    u32vec kids, stack;         /* scratch */
} applier;

/* The children of u in the tree with Python frames as it is now that rows up to `upto`
 * (excluded) are in: its first children that are still its own, then the pseudo ops listed
 * below it. (A pseudo op's own children are never asked for: the walks stop at ops.) */
static int py_kids(applier *A, uint32_t u, uint32_t upto, u32vec *out)
{
    out->n = 0;
    if (u < A->n0)
        for (uint32_t j = A->pc_at[u]; j < A->pc_at[u + 1]; j++)
            if (A->pyp[A->pc[j]] == u && u32vec_push(out, A->pc[j])) return -1;
    for (uint32_t r = A->n0; r < upto; r++)
        if (A->pyp[r] == u && u32vec_push(out, r)) return -1;
    return 0;
}

/* Puts below pseudo op p, in the call tree (t->parent), every event that the tree with
 * Python frames now has below p through Python frames only (`from`: p's children there),
 * and p itself below the nearest op above it. wrap: p takes the place of roots (TraceLens
 * lists it among its root ops and drops the ones it wrapped). */
static int reparent_below(applier *A, uint32_t p, const uint32_t *from, size_t nfrom, int wrap)
{
    tsql_trace *t = A->t;
    A->stack.n = 0;
    for (size_t i = nfrom; i-- > 0;)
        if (u32vec_push(&A->stack, from[i])) return -1;
    u32vec kids = {0};
    while (A->stack.n) {
        uint32_t u = A->stack.v[--A->stack.n];
        if (tsql_kind_is_gpu(t->kind[u])) continue;
        if (t->kind[u] == TSQL_K_PYTHON) {
            if (py_kids(A, u, p, &kids)) goto oom;
            for (size_t i = kids.n; i-- > 0;)
                if (u32vec_push(&A->stack, kids.v[i])) goto oom;
            continue;
        }
        t->parent[u] = p;
        t->edge[u] = TSQL_EDGE_CPU;
        if (wrap) t->flags[u] &= (uint8_t)~TSQL_F_TL_ROOT;
    }
    free(kids.v);
    uint32_t a = A->pyp[p];
    while (a != TSQL_NONE && t->kind[a] == TSQL_K_PYTHON) a = A->pyp[a];
    t->parent[p] = a;
    t->edge[p] = a == TSQL_NONE ? TSQL_EDGE_NONE : TSQL_EDGE_CPU;
    if (wrap) t->flags[p] |= TSQL_F_TL_ROOT;
    return 0;
oom:
    free(kids.v);
    return -1;
}

/* move row u (< n0 or not) below p in the tree with Python frames */
static int py_move(applier *A, uint32_t u, uint32_t p)
{
    A->pyp[u] = p;
    if (u >= A->n0) return 0;
    return u32vec_push(&A->moved, u) || u32vec_push(&A->moved_to, p) ? -1 : 0;
}

/* Inserts wrapping or above op p (rows up to p are in). */
static int insert_op(applier *A, uint32_t p, const tsql_pseudo_op *o)
{
    uint32_t x = o->target;
    A->pyp[p] = o->parent;
    if (o->how == TSQL_PSEUDO_WRAP) {
        /* x's children become p's; p becomes x's only child */
        if (py_kids(A, x, p, &A->kids)) return -1;
        u32vec kids = A->kids;
        A->kids = (u32vec){0};
        int rc = 0;
        for (size_t i = 0; i < kids.n && !rc; i++) rc = py_move(A, kids.v[i], p);
        if (!rc) rc = reparent_below(A, p, kids.v, kids.n, 1);
        free(kids.v);
        return rc;
    }
    /* above: x goes below p, p below x's parent */
    if (py_move(A, x, p)) return -1;
    return reparent_below(A, p, &x, 1, 0);
}

/* Depths after the insertions: below each wrapping or above op that no other one holds. */
static int fix_depths(tsql_trace *t, uint32_t n0)
{
    uint32_t *at, *ch;
    if (tsql_children_build(t->n, t->parent, NULL, NULL, NULL, 0, &at, &ch)) return -1;
    u32vec st = {0};
    int rc = 0;
    for (uint32_t p = n0; p < t->n && !rc; p++) {
        if (t->ts_ns[p] == TSQL_NULL) continue; /* a single-kernel op: beside its launch */
        int held = 0;
        for (uint32_t a = t->parent[p]; a != TSQL_NONE && !held; a = t->parent[a])
            held = a >= n0 && t->ts_ns[a] != TSQL_NULL;
        if (held) continue;
        uint32_t q = t->parent[p];
        t->depth[p] = q == TSQL_NONE ? 0 : t->depth[q] < UINT16_MAX ? (uint16_t)(t->depth[q] + 1) : UINT16_MAX;
        st.n = 0;
        rc = u32vec_push(&st, p);
        while (!rc && st.n) {
            uint32_t u = st.v[--st.n];
            for (uint32_t j = at[u]; j < at[u + 1] && !rc; j++) {
                uint32_t c = ch[j];
                t->depth[c] = t->depth[u] < UINT16_MAX ? (uint16_t)(t->depth[u] + 1) : UINT16_MAX;
                rc = u32vec_push(&st, c);
            }
        }
    }
    free(st.v);
    tsql_col_free(at);
    tsql_col_free(ch);
    return rc;
}

/* Every GPU event's launch context again (tree.c's rule), now that ops stand on the
 * parent chains: its innermost and outermost cpu_op and TraceLens's launcher. */
static void relaunch(tsql_trace *t)
{
    tsql_kernels *K = &t->kernels;
    for (uint32_t k = 0; k < K->n; k++) {
        uint32_t r = K->runtime[k];
        K->op[k] = K->root_op[k] = TSQL_NONE;
        for (uint32_t p = r == TSQL_NONE ? TSQL_NONE : t->parent[r]; p != TSQL_NONE; p = t->parent[p]) {
            if (t->kind[p] != TSQL_K_CPU_OP) continue;
            if (K->op[k] == TSQL_NONE) K->op[k] = p;
            K->root_op[k] = p;
        }
        uint32_t tlr = K->tl_runtime[k];
        K->tl_launcher[k] = tlr != TSQL_NONE && !K->is_comm[k] ? tsql_tl_launcher(t, tlr) : TSQL_NONE;
    }
}

/* Applies the plan: the pseudo ops become rows n .. n + k - 1 of t (their uids are
 * TraceLens's), each put where TraceLens puts it, in plan order. 0, or -1 on out of
 * memory. */
static int apply_pseudo_ops(tsql_trace *t)
{
    tsql_pseudo_plan plan = {0};
    if (tsql_pseudo_ops_plan(t, &plan)) return -1;
    if (!plan.n) {
        tsql_pseudo_plan_free(&plan);
        return 0;
    }
    uint32_t n0 = t->n, k = (uint32_t)plan.n, need = n0 + k, nsingle = 0;
    int wraps = 0;
    for (uint32_t i = 0; i < k; i++) {
        if (plan.v[i].how == TSQL_PSEUDO_SINGLE) nsingle++;
        else wraps = 1;
    }
    applier A = {.t = t, .n0 = n0};
    uint32_t *xp = malloc((size_t)(nsingle ? nsingle : 1) * sizeof *xp);
    uint32_t *xc = malloc((size_t)(nsingle ? nsingle : 1) * sizeof *xc);
    uint8_t *skip = calloc(need, 1);
    uint32_t *pc_at = NULL, *pc = NULL, *at = NULL, *ch = NULL;
    uint32_t s_cat = tsql_intern_add(&t->strings, "cpu_op", 6);
    const tsql_py_tree *pt = tsql_py_tree_get(t);
    int rc = -1;
    A.pyp = malloc((size_t)need * sizeof *A.pyp);
    if (!xp || !xc || !skip || !s_cat || !pt || !A.pyp) goto done;
    memcpy(A.pyp, pt->parent, (size_t)n0 * sizeof *A.pyp);
    if (wraps) {
        if (tsql_children_build(n0, A.pyp, NULL, NULL, NULL, 0, &pc_at, &pc)) goto done;
        A.pc_at = pc_at;
        A.pc = pc;
    }
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
    drop_stale_caches(t); /* pt with them */
    pt = NULL;
    uint32_t nx = 0;
    for (uint32_t i = 0; i < k; i++) {
        const tsql_pseudo_op *o = &plan.v[i];
        uint32_t r = n0 + i;
        if (o->uid != r || append_row(t, o, s_cat)) goto done;
        if (o->how == TSQL_PSEUDO_SINGLE) {
            /* downward only: the launch call listed below the op, not below its parent */
            A.pyp[r] = o->parent;
            skip[o->launch] = 1;
            xp[nx] = r;
            xc[nx++] = o->launch;
        } else if (insert_op(&A, r, o)) {
            goto done;
        }
    }
    if (t->n != need || tsql_children_build(need, t->parent, skip, xp, xc, nx, &at, &ch)) goto done;
    tsql_col_free(t->child_at);
    tsql_col_free(t->child);
    t->child_at = at;
    t->child = ch;
    if (wraps) {
        if (fix_depths(t, n0)) goto done;
        relaunch(t);
        if (A.moved.n && tsql_py_tree_record_moves(t, A.moved.v, A.moved_to.v, (uint32_t)A.moved.n)) goto done;
    }
    uint32_t *pyp = malloc((size_t)k * sizeof *pyp);
    if (!pyp) goto done;
    memcpy(pyp, A.pyp + n0, (size_t)k * sizeof *pyp);
    rc = tsql_py_tree_record_copies(t, n0, pyp); /* takes pyp */
done:
    free(xp);
    free(xc);
    free(skip);
    free(A.pyp);
    free(A.moved.v);
    free(A.moved_to.v);
    free(A.kids.v);
    free(A.stack.v);
    tsql_col_free(pc_at);
    tsql_col_free(pc);
    tsql_pseudo_plan_free(&plan);
    return rc;
}
