/* tree_diff_side.c — one side of TraceDiff: TraceLens's tree of a trace without Python
 * frames (children, GPU path, roots, normalised names, Collapse). See tree_diff_side.h. */
#include "analysis/tree_diff_side.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/tree_diff_names.h"
#include "store/store.h"
#include "util/sort.h"

static int is_name(const tsql_trace *t, uint32_t u, const char *s)
{
    uint32_t id = t->name[u];
    size_t n = strlen(s);
    return id && tsql_intern_len(&t->strings, id) == n && memcmp(tsql_intern_str(&t->strings, id), s, n) == 0;
}

int td_graph_launch(const tsql_trace *t, uint32_t u)
{
    return is_name(t, u, "cudaGraphLaunch") || is_name(t, u, "hipGraphLaunch");
}

/* a dispatch node: runtime or driver call other than a graph launch */
int td_dispatch(const side *sd, uint32_t u)
{
    return tsql_kind_is_launch(sd->t->kind[u]) && !td_graph_launch(sd->t, u);
}

/* TraceLens's _is_kernel: kernel or memcpy */
int td_kernelish(const side *sd, uint32_t u)
{
    int k = sd->t->kind[u];
    return k == TSQL_K_KERNEL || k == TSQL_K_MEMCPY;
}

typedef struct tsk { double ts; uint32_t pos, uid; } tsk;

static int cmp_tsk(const void *x, const void *y)
{
    const tsk *a = x, *b = y;
    if (a->ts < b->ts) return -1;
    if (a->ts > b->ts) return 1;
    return (a->pos > b->pos) - (a->pos < b->pos);
}

/* Stable sort of uids by ts (TraceLens's sorted(key=ts)). 0 or -1 on OOM. */
int td_sort_by_ts(const side *sd, uint32_t *v, size_t n)
{
    if (n < 2) return 0;
    tsk *k = malloc(n * sizeof *k);
    if (!k) return -1;
    for (size_t i = 0; i < n; i++) k[i] = (tsk){tsql_trace_ts_us(sd->t, v[i]), (uint32_t)i, v[i]};
    tsql_qsort(k, n, sizeof *k, cmp_tsk);
    for (size_t i = 0; i < n; i++) v[i] = k[i].uid;
    free(k);
    return 0;
}

void td_side_free(side *sd)
{
    free(sd->ch_at);
    free(sd->ch);
    free(sd->par);
    free(sd->gp);
    free(sd->pod);
    free(sd->nm[0]);
    free(sd->nm[1]);
    free(sd->roots);
}

int td_side_build(side *sd, tsql_trace *t)
{
    uint32_t n = t->n;
    const tsql_kernels *K = &t->kernels;
    sd->t = t;
    sd->ch_at = calloc((size_t)n + 2, sizeof *sd->ch_at);
    sd->par = malloc(((size_t)n + 1) * sizeof *sd->par);
    sd->gp = calloc((size_t)n + 1, 1);
    sd->pod = calloc((size_t)n + 1, 1);
    uint32_t ns = t->strings.n + 1;
    sd->nm[0] = malloc((size_t)ns * sizeof(uint32_t));
    sd->nm[1] = malloc((size_t)ns * sizeof(uint32_t));
    if (!sd->ch_at || !sd->par || !sd->gp || !sd->pod || !sd->nm[0] || !sd->nm[1]) return -1;
    for (uint32_t i = 0; i < ns; i++) sd->nm[0][i] = sd->nm[1][i] = NOT_YET;
    for (uint32_t u = 0; u < n; u++) {
        uint32_t p = NONE;
        if (!(t->flags[u] & TSQL_F_TL_DROPPED) && t->edge[u] == TSQL_EDGE_CPU &&
            !tsql_kind_is_gpu(t->kind[u]))
            p = t->parent[u];
        sd->par[u] = p;
    }
    for (uint32_t k = 0; k < K->n; k++)
        if (K->tl_runtime[k] != NONE) sd->par[K->uid[k]] = K->tl_runtime[k];
    for (uint32_t u = 0; u < n; u++)
        if (sd->par[u] != NONE) sd->ch_at[sd->par[u] + 1]++;
    for (uint32_t u = 0; u < n; u++) sd->ch_at[u + 1] += sd->ch_at[u];
    sd->ch = malloc(((size_t)sd->ch_at[n] + 1) * sizeof *sd->ch);
    uint32_t *fill = malloc(((size_t)n + 1) * sizeof *fill);
    if (!sd->ch || !fill) {
        free(fill);
        return -1;
    }
    memcpy(fill, sd->ch_at, (size_t)n * sizeof *fill);
    /* CPU children first (uid order, sorted by ts below), then GPU children (uid order) */
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t u = 0; u < n; u++)
            if (sd->par[u] != NONE && (pass == 1) == (tsql_kind_is_gpu(t->kind[u]) != 0))
                sd->ch[fill[sd->par[u]]++] = u;
    free(fill);
    for (uint32_t u = 0; u < n; u++) {
        uint32_t a = sd->ch_at[u], b = sd->ch_at[u + 1], c = a;
        while (c < b && !tsql_kind_is_gpu(t->kind[sd->ch[c]])) c++;
        if (c - a > 1 && td_sort_by_ts(sd, sd->ch + a, c - a)) return -1;
    }
    /* GPU path: GPU events, and every node with linked GPU work below it */
    for (uint32_t u = 0; u < n; u++)
        if (tsql_kind_is_gpu(t->kind[u])) sd->gp[u] = 1;
    for (uint32_t k = 0; k < K->n; k++) {
        uint32_t r = K->tl_runtime[k];
        while (r != NONE && !sd->gp[r]) {
            sd->gp[r] = 1;
            r = sd->par[r];
        }
    }
    /* roots (docs/diff.md, How the trees are merged (Roots)): cpu_root_nodes by ts, climbed to the
     * top, then down lone wrappers */
    uint32_t nr = 0;
    for (uint32_t u = 0; u < n; u++) nr += (t->flags[u] & TSQL_F_TL_ROOT) != 0;
    uint32_t *cr = malloc(((size_t)nr + 1) * sizeof *cr);
    sd->roots = malloc(((size_t)nr + 1) * sizeof *sd->roots);
    if (!cr || !sd->roots) {
        free(cr);
        return -1;
    }
    nr = 0;
    for (uint32_t u = 0; u < n; u++)
        if (t->flags[u] & TSQL_F_TL_ROOT) cr[nr++] = u;
    if (td_sort_by_ts(sd, cr, nr)) {
        free(cr);
        return -1;
    }
    sd->nroots = 0;
    for (uint32_t i = 0; i < nr; i++) {
        uint32_t top = cr[i];
        while (sd->par[top] != NONE) top = sd->par[top];
        uint32_t cur = top;
        while (nkids(sd, cur) == 1) {
            uint32_t c = kids(sd, cur)[0];
            if (sd->t->kind[c] == TSQL_K_CPU_OP || td_dispatch(sd, c)) break;
            cur = c;
        }
        if (!sd->pod[cur]) sd->roots[sd->nroots++] = cur; /* pod doubles as "seen" here */
        sd->pod[cur] = 1;
    }
    for (uint32_t i = 0; i < sd->nroots; i++) sd->pod[sd->roots[i]] = 0;
    free(cr);
    return 0;
}

/* _get_name_node: normalised name id, 0 for a missing or empty name. NOT_YET on OOM. */
uint32_t td_name_id(ctx *c, const side *sd, uint32_t u, int strip)
{
    uint32_t sid = sd->t->name[u];
    if (!sid || tsql_intern_len(&sd->t->strings, sid) == 0) return 0;
    uint32_t v = sd->nm[strip][sid];
    if (v != NOT_YET) return v;
    if (tsql_diff_norm_name(tsql_intern_str(&sd->t->strings, sid), tsql_intern_len(&sd->t->strings, sid),
                            strip, &c->tmp))
        return NOT_YET;
    v = tsql_intern_add(c->names, c->tmp.p, c->tmp.n);
    if (!v) return NOT_YET;
    sd->nm[strip][sid] = v;
    return v;
}

/* the name compared by the edit distance: the node's name, or its uid as text */
uint32_t td_wf_name(ctx *c, const side *sd, uint32_t u, int strip)
{
    uint32_t v = td_name_id(c, sd, u, strip);
    if (v) return v;
    char num[16];
    int k = snprintf(num, sizeof num, "%u", u);
    v = tsql_intern_add(c->names, num, (size_t)k);
    return v ? v : NOT_YET;
}

/* raw name or the uid as text (TraceLens's _get_op_name), into b (replacing) */
const char *td_op_name(const side *sd, uint32_t u, char num[16])
{
    uint32_t sid = sd->t->name[u];
    if (sid && tsql_intern_len(&sd->t->strings, sid)) return tsql_intern_text(&sd->t->strings, sid);
    snprintf(num, 16, "%u", u);
    return num;
}

/* GPU-path children of u in raw order, appended to v */
int td_gpu_kids(const side *sd, uint32_t u, u32vec *v)
{
    const uint32_t *k = kids(sd, u);
    for (uint32_t i = 0, n = nkids(sd, u); i < n; i++)
        if (sd->gp[k[i]] && u32vec_push(v, k[i])) return -1;
    return 0;
}

/* Collapse(n) of docs/diff.md, How the trees are merged (Children): the node reached; its GPU-path
 * children (raw order) in *deeper when it stopped on a count other than one. */
int td_collapse(const side *sd, uint32_t u, uint32_t *out, u32vec *deeper)
{
    uint32_t cur = u;
    if (deeper) deeper->n = 0;
    for (;;) {
        if (td_dispatch(sd, cur)) break;
        const uint32_t *k = kids(sd, cur);
        uint32_t n = nkids(sd, cur), ng = 0, one = NONE;
        if (sd->t->kind[cur] == TSQL_K_CPU_OP) {
            int has = 0;
            for (uint32_t i = 0; i < n && !has; i++) has = td_dispatch(sd, k[i]);
            if (has) break;
        }
        for (uint32_t i = 0; i < n; i++)
            if (sd->gp[k[i]]) {
                ng++;
                one = k[i];
            }
        if (ng != 1) {
            if (deeper && td_gpu_kids(sd, cur, deeper)) return -1;
            break;
        }
        cur = one;
    }
    *out = cur;
    return 0;
}
