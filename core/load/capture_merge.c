/* capture_merge.c — the splice of capture trees (capture_tree.c) into a replay trace;
 * see capture_merge.h and docs/inference.md "Merging the capture traces". */
#include "load/capture_merge.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis/py_tree.h"
#include "load/capture_plan.h"
#include "load/load.h"
#include "store/colmem.h"
#include "store/store.h"
#include "tree/children.h"
#include "tree/tree.h"
#include "util/sort.h"
#include "util/u32vec.h"

#define NONE TSQL_NONE

static const char *name_of(const tsql_trace *t, uint32_t u) { return tsql_intern_text(&t->strings, t->name[u]); }


/* ---------- the merged trace remembers its folder ---------- */

static void free_folder(void *v) { free(v); }
static void *no_build(tsql_trace *t)
{
    (void)t;
    return NULL;
}
static const tsql_cache_kind merged_kind = {"capture_merged_folder", no_build, free_folder};

const char *tsql_capture_merged_folder(const tsql_trace *t) { return tsql_trace_cache_get(t, &merged_kind); }

/* ---------- the splice ---------- */

/* One capture trace of the folder, loaded once. */
typedef struct capture {
    tsql_trace *c;
    tsql_capture_tree ct;
    uint32_t *strmap;         /* c's string ids -> t's, 0 = not yet mapped */
    uint32_t *idx;            /* capture uid -> index in the root being spliced, NONE otherwise */
} capture;

/* One accepted (graph launch, capture root) pair. */
typedef struct accepted {
    uint32_t launch;
    long entry;
    size_t root;
    tsql_capture_pairs pairs;
} accepted;

typedef struct merger {
    tsql_trace *t;
    uint32_t tree_cap;        /* rows parent/depth/edge can hold */
    uint32_t s_cuda_runtime, s_capture_root, s_empty_args;
    u32vec py_parent;         /* per appended row: its parent with Python frames */
} merger;

static uint32_t map_str(merger *m, capture *cp, uint32_t id)
{
    if (!id) return 0;
    if (!cp->strmap[id])
        cp->strmap[id] = tsql_intern_add(&m->t->strings, cp->c->strings.str[id], cp->c->strings.len[id]);
    return cp->strmap[id];
}

/* Pool values an args template takes (placeholders outside strings). */
static uint32_t pool_values(const char *s, size_t n)
{
    uint32_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"') {
            for (i++; i < n && s[i] != '"'; i++)
                if (s[i] == '\\') i++;
        } else if ((unsigned char)s[i] == TSQL_PH_POOL) {
            k++;
        }
    }
    return k;
}

/* Room for need rows in the store and in the tree columns. */
static int reserve_rows(merger *m, uint32_t need)
{
    tsql_trace *t = m->t;
    while (t->cap < need)
        if (tsql_store_grow(t)) return -1;
    if (need > m->tree_cap) {
        uint32_t nc = m->tree_cap * 2 > need ? m->tree_cap * 2 : need;
        uint32_t *p = tsql_col_realloc(t->parent, (size_t)nc * sizeof *p);
        if (!p) return -1;
        t->parent = p;
        uint16_t *d = tsql_col_realloc(t->depth, (size_t)nc * sizeof *d);
        if (!d) return -1;
        t->depth = d;
        uint8_t *e = tsql_col_realloc(t->edge, nc);
        if (!e) return -1;
        t->edge = e;
        m->tree_cap = nc;
    }
    return 0;
}

/* Appends a row with the graph launch's ts and dur; the caller fills the rest. */
static int new_row(merger *m, uint32_t launch, uint32_t *row)
{
    tsql_trace *t = m->t;
    uint32_t r = t->n;
    tsql_icol *cols[] = {&t->correlation, &t->external_id, &t->stream, &t->device, &t->seq,
                         &t->python_id, &t->python_parent, &t->flow_id};
    for (size_t i = 0; i < sizeof cols / sizeof *cols; i++)
        if (tsql_icol_set(cols[i], r, TSQL_NULL)) return -1;
    t->ts_ns[r] = t->ts_ns[launch];
    t->dur_ns[r] = t->dur_ns[launch];
    t->flags[r] = 0;
    if (t->flags[launch] & TSQL_F_XD) {
        if (tsql_store_exact_double(t, r, tsql_trace_ts_us(t, launch), tsql_trace_dur_us(t, launch))) return -1;
        t->flags[r] = TSQL_F_XD;
    }
    t->pool_at[r] = (uint32_t)t->npool;
    t->parent[r] = NONE;
    t->edge[r] = TSQL_EDGE_NONE;
    t->depth[r] = 0;
    t->n = r + 1;
    *row = r;
    return 0;
}

/* Copies capture event u as row r (ts and dur are already the launch's). */
static int copy_event(merger *m, capture *cp, uint32_t u, uint32_t r)
{
    tsql_trace *t = m->t;
    const tsql_trace *c = cp->c;
    t->ph[r] = c->ph[u];
    t->kind[r] = c->kind[u];
    t->flags[r] |= (uint8_t)(c->flags[u] & (TSQL_F_OLD_SPELLING | TSQL_F_BP_E | TSQL_F_HAS_ARGS | TSQL_F_PAIRED));
    if ((c->cat[u] && !(t->cat[r] = map_str(m, cp, c->cat[u]))) || (c->name[u] && !(t->name[r] = map_str(m, cp, c->name[u]))) ||
        (c->pid[u] && !(t->pid[r] = map_str(m, cp, c->pid[u]))) || (c->tid[u] && !(t->tid[r] = map_str(m, cp, c->tid[u]))) ||
        (c->args[u] && !(t->args[r] = map_str(m, cp, c->args[u]))))
        return -1;
    if (!c->cat[u]) t->cat[r] = 0;
    if (!c->name[u]) t->name[r] = 0;
    if (!c->pid[u]) t->pid[r] = 0;
    if (!c->tid[u]) t->tid[r] = 0;
    if (!c->args[u]) t->args[r] = 0;
    if (c->args[u]) {
        uint32_t np = pool_values(c->strings.str[c->args[u]], c->strings.len[c->args[u]]);
        for (uint32_t k = 0; k < np; k++)
            if (tsql_store_pool_push(t, c->pool[c->pool_at[u] + k])) return -1;
    }
    const tsql_icol *sc[] = {&c->correlation, &c->external_id, &c->stream, &c->device, &c->seq,
                             &c->python_id, &c->python_parent, &c->flow_id};
    tsql_icol *dc[] = {&t->correlation, &t->external_id, &t->stream, &t->device, &t->seq,
                       &t->python_id, &t->python_parent, &t->flow_id};
    for (size_t i = 0; i < sizeof dc / sizeof *dc; i++)
        if (tsql_icol_set(dc[i], r, tsql_icol_get(sc[i], u))) return -1;
    return 0;
}

/* A GPU event's launch context once its launch call r is set (as tree.c's linking). */
static void kernel_context(tsql_trace *t, uint32_t k, uint32_t r)
{
    tsql_kernels *K = &t->kernels;
    K->runtime[k] = r;
    K->tl_runtime[k] = r;
    K->op[k] = K->root_op[k] = NONE;
    for (uint32_t p = t->parent[r]; p != NONE; p = t->parent[p]) {
        if (t->kind[p] != TSQL_K_CPU_OP) continue;
        if (K->op[k] == NONE) K->op[k] = p;
        K->root_op[k] = p;
    }
    K->tl_launcher[k] = K->is_comm[k] ? NONE : tsql_tl_launcher(t, r);
    uint32_t g = K->uid[k];
    t->parent[g] = r;
    t->edge[g] = TSQL_EDGE_LAUNCH;
    t->depth[g] = t->depth[r] < UINT16_MAX ? (uint16_t)(t->depth[r] + 1) : UINT16_MAX;
}

/* Adds GPU event row g (a copied capture GPU event) to the kernels table. */
static int kernels_push(tsql_trace *t, uint32_t g, uint8_t link)
{
    tsql_kernels *K = &t->kernels;
    size_t n = (size_t)K->n + 1;
#define KGROW(a)                                                                        \
    do {                                                                                \
        void *p_ = tsql_col_realloc(K->a, n * sizeof *K->a);                                   \
        if (!p_) return -1;                                                             \
        K->a = p_;                                                                      \
    } while (0)
    KGROW(uid);
    KGROW(runtime);
    KGROW(op);
    KGROW(root_op);
    KGROW(tl_runtime);
    KGROW(tl_launcher);
    KGROW(link);
    KGROW(is_comm);
#undef KGROW
    K->uid[K->n] = g;
    K->link[K->n] = link;
    K->is_comm[K->n] = (uint8_t)tsql_is_comm_name(tsql_intern_str(&t->strings, t->name[g]));
    K->n++;
    return 0;
}

/* Copies capture root a->root under graph launch a->launch and re-links its kernels. */
static int splice(merger *m, capture *cp, const accepted *a)
{
    tsql_trace *t = m->t;
    const tsql_capture_root *cr = &cp->ct.roots[a->root];
    if (cr->nevents > UINT32_MAX - 2 - t->n) return -1;
    if (reserve_rows(m, t->n + (uint32_t)cr->nevents)) return -1;
    uint32_t start = t->n, launch = a->launch;
    for (size_t i = 1; i < cr->nevents; i++) cp->idx[cr->events[i]] = (uint32_t)i;
    int rc = 0;
    for (size_t i = 0; i < cr->nevents && !rc; i++) {
        uint32_t r;
        if (new_row(m, launch, &r)) {
            rc = -1;
            break;
        }
        if (i == 0) { /* CaptureRoot: a runtime call without pid, tid or args members */
            t->ph[r] = 'X';
            t->kind[r] = TSQL_K_RUNTIME;
            t->flags[r] |= TSQL_F_HAS_ARGS;
            t->cat[r] = m->s_cuda_runtime;
            t->name[r] = m->s_capture_root;
            t->pid[r] = t->tid[r] = 0;
            t->args[r] = m->s_empty_args;
            continue;
        }
        rc = copy_event(m, cp, cr->events[i], r);
    }
    /* parents: Python frames keep their (copied) parent frame; other calls take the
     * nearest copied non-Python node above them; what has none hangs under the
     * CaptureRoot, which hangs under the launch */
    const uint32_t *cpar = cp->ct.parent;
    for (size_t i = 0; i < cr->nevents && !rc; i++) {
        uint32_t r = start + (uint32_t)i, p;
        if (i == 0) {
            p = launch;
            t->edge[r] = TSQL_EDGE_CPU;
        } else {
            uint32_t u = cr->events[i];
            int k = cp->c->kind[u];
            p = NONE;
            if (tsql_kind_is_gpu(k)) {
                t->edge[r] = TSQL_EDGE_LAUNCH;
                if (cpar[u] != NONE && cp->idx[cpar[u]] != NONE) p = start + cp->idx[cpar[u]];
            } else if (k == TSQL_K_PYTHON) {
                t->edge[r] = TSQL_EDGE_PYTHON;
                if (cpar[u] != NONE && cp->idx[cpar[u]] != NONE) p = start + cp->idx[cpar[u]];
            } else {
                t->edge[r] = TSQL_EDGE_CPU;
                for (uint32_t q = cpar[u]; q != NONE && cp->idx[q] != NONE; q = cpar[q])
                    if (cp->c->kind[q] != TSQL_K_PYTHON) {
                        p = start + cp->idx[q];
                        break;
                    }
            }
            if (p == NONE) p = start, t->edge[r] = TSQL_EDGE_CPU;
        }
        t->parent[r] = p;
        t->depth[r] = t->depth[p] < UINT16_MAX ? (uint16_t)(t->depth[p] + 1) : UINT16_MAX;
        /* the parent in the capture tree with Python frames (the CaptureRoot for a
         * window root, the launch for the CaptureRoot) */
        uint32_t pp = p;
        if (i > 0) {
            uint32_t q = cpar[cr->events[i]];
            pp = q != NONE && cp->idx[q] != NONE ? start + cp->idx[q] : start;
        }
        if (u32vec_push(&m->py_parent, pp)) rc = -1;
    }
    /* TraceLens's roots of the CPU forest among the copies: ops with no open op around */
    for (size_t i = 1; i < cr->nevents && !rc; i++) {
        uint32_t r = start + (uint32_t)i;
        if (t->kind[r] != TSQL_K_CPU_OP) continue;
        uint32_t q = cpar[cr->events[i]];
        while (q != NONE && cp->c->kind[q] != TSQL_K_CPU_OP) q = cpar[q];
        if (q == NONE) t->flags[r] |= TSQL_F_TL_ROOT;
    }
    /* copied capture-time GPU events join the kernels table */
    for (size_t i = 1; i < cr->nevents && !rc; i++) {
        uint32_t r = start + (uint32_t)i, u = cr->events[i];
        if (!tsql_kind_is_gpu(cp->c->kind[u]) || t->parent[r] == start) continue;
        uint32_t ck = tsql_kernel_row(cp->c, u);
        if (kernels_push(t, r, ck != NONE ? cp->c->kernels.link[ck] : TSQL_LINK_AC2G)) rc = -1;
        else kernel_context(t, t->kernels.n - 1, t->parent[r]);
    }
    /* the replayed kernels under their capture launch calls */
    for (size_t i = 0; i < a->pairs.n && !rc; i++) {
        uint32_t g = a->pairs.kernel[i], d = a->pairs.dispatch[i];
        uint32_t k = tsql_kernel_row(t, g);
        if (k == NONE || cp->idx[d] == NONE) continue;
        uint32_t dr = start + cp->idx[d];
        kernel_context(t, k, dr);
        int64_t corr = tsql_icol_get(&t->correlation, dr);
        if (corr != TSQL_NULL && tsql_icol_set(&t->correlation, g, corr)) rc = -1;
    }
    for (size_t i = 1; i < cr->nevents; i++) cp->idx[cr->events[i]] = NONE;
    return rc;
}

/* The children lists after the splice, in place of the old ones (tree/children.h). */
static int rebuild_children(tsql_trace *t)
{
    uint32_t *at, *ch;
    if (tsql_children_build(t->n, t->parent, NULL, NULL, NULL, 0, &at, &ch)) return -1;
    tsql_col_free(t->child_at);
    tsql_col_free(t->child);
    t->child_at = at;
    t->child = ch;
    return 0;
}

int tsql_capture_merge(tsql_trace *t, const char *folder, const tsql_load_opts *opts, tsql_capture_merge_info *info,
                       tsql_error *err)
{
    memset(info, 0, sizeof *info);
    tsql_capture_plan man;
    if (tsql_capture_manifest(folder, &man, err)) {
        tsql_capture_plan_free(&man);
        return -1;
    }
    size_t ne = man.nentries;
    tsql_capture_entry *ent = calloc(ne ? ne : 1, sizeof *ent);
    capture *caps = calloc(ne ? ne : 1, sizeof *caps);
    accepted *acc = NULL;
    size_t nacc = 0, capacc = 0;
    tsql_exec_root *roots = NULL;
    size_t nroots = 0;
    tsql_graph_kernels gks = {0};
    int rc = 0, fails = 0;
    const char *fails_why = NULL;
    if (!ent || !caps || tsql_exec_roots(t, &roots, &nroots) || tsql_graph_kernels_build(t, &gks)) rc = -1;
    for (size_t i = 0; i < ne && !rc; i++) ent[i] = (tsql_capture_entry){man.batch_size[i], man.mode[i], tsql_capture_regular_file(man.file[i])};
    /* plan every pair first: TraceLens gives up as a whole (keeping nothing) when any
     * pair fails that way, so nothing is spliced before all are known */
    for (size_t s = 0; s < nroots && !rc; s++) {
        tsql_exec_root *x = &roots[s];
        if (!x->ngraphs) continue;
        info->launches += x->ngraphs;
        const char *why = NULL;
        long e = -1;
        if (!x->has_batch) why = "the step's annotation gives no batch size";
        else e = tsql_capture_select(ent, ne, x->batch_size, x->ngraphs, &why);
        if (e < 0) {
            tsql_trace_warn(t, -1, x->uid, "capture_merge: engine step not merged: %s", why);
            continue;
        }
        capture *cp = &caps[e];
        if (!cp->c) {
            tsql_load_opts lo = {.mem_limit = t->mem_limit};
            if (opts) lo = *opts;
            tsql_error le = {0};
            cp->c = tsql_trace_load(man.file[e], &lo, &le);
            if (!cp->c) {
                if (le.offset >= 0)
                    tsql_error_set(err, le.code, -1, "capture trace %s: %sbyte %lld: %s", man.file[e],
                                   le.compressed ? "uncompressed " : "", (long long)le.offset, le.msg);
                else
                    tsql_error_set(err, le.code, -1, "capture trace %s: %s", man.file[e], le.msg);
                rc = -2;
                break;
            }
            cp->strmap = calloc((size_t)cp->c->strings.n + 1, sizeof *cp->strmap);
            cp->idx = malloc(((size_t)cp->c->n + 1) * sizeof *cp->idx);
            if (!cp->strmap || !cp->idx || tsql_capture_tree_build(cp->c, &cp->ct)) {
                rc = -1;
                break;
            }
            for (uint32_t u = 0; u < cp->c->n; u++) cp->idx[u] = NONE;
        }
        size_t nr = cp->ct.nroots;
        if (nr != 1 && nr != x->ngraphs) {
            tsql_trace_warn(t, -1, x->uid,
                            "capture_merge: engine step not merged: its capture has %zu capture windows for %zu graph launches",
                            nr, x->ngraphs);
            continue;
        }
        for (size_t g = 0; g < x->ngraphs && !rc; g++) {
            const tsql_capture_root *cr = &cp->ct.roots[nr == 1 ? 0 : g];
            size_t ng = 0;
            const uint32_t *gv = tsql_graph_kernels_of(&gks, x->graphs[g], &ng);
            tsql_capture_pairs pr;
            if (tsql_capture_align(t, gv, ng, cp->c, cr->dispatch, cr->ndispatch, &pr)) {
                rc = -1;
                break;
            }
            if (pr.fails_merge && !fails) fails = 1, fails_why = pr.why;
            if (!pr.code) {
                if (!pr.fails_merge)
                    tsql_trace_warn(t, -1, x->graphs[g], "capture_merge: graph launch not merged: %s", pr.why);
                tsql_capture_pairs_free(&pr);
                continue;
            }
            if (pr.code == 1 || pr.code == 3) {
                /* launches without a kernel name were paired by position alone */
                for (size_t i = 0; i < cr->ndispatch; i++) {
                    size_t len;
                    uint32_t u = cr->dispatch[i];
                    const char *nm = name_of(cp->c, u);
                    if (tsql_trace_arg_raw(cp->c, u, "kernel", &len) || strstr(nm, "Memcpy") || strstr(nm, "Memset"))
                        continue;
                    tsql_trace_warn(t, -1, x->graphs[g],
                                    "capture_merge: graph launch merged unchecked: a capture launch (%.40s) did not "
                                    "record its kernel name", nm);
                    break;
                }
            }
            if (nacc == capacc) {
                size_t nc = capacc ? capacc * 2 : 16;
                accepted *na = realloc(acc, nc * sizeof *na);
                if (!na) {
                    tsql_capture_pairs_free(&pr);
                    rc = -1;
                    break;
                }
                acc = na, capacc = nc;
            }
            acc[nacc++] = (accepted){x->graphs[g], e, nr == 1 ? 0 : g, pr};
        }
    }
    if (!rc && fails) {
        info->why = fails_why;
        tsql_trace_warn(t, -1, -1, "capture_merge: nothing merged: %s", fails_why);
    } else if (!rc && !nacc) {
        info->why = info->launches ? "no graph launch could be merged (see the other capture_merge warnings)"
                                   : "the trace has no graph launch inside an engine-step annotation";
        tsql_trace_warn(t, -1, -1, "capture_merge: nothing merged: %s", info->why);
    } else if (!rc) {
        merger m = {.t = t, .tree_cap = t->n};
        uint32_t n0 = t->n;
        m.s_cuda_runtime = tsql_intern_add(&t->strings, "cuda_runtime", 12);
        m.s_capture_root = tsql_intern_add(&t->strings, "CaptureRoot", 11);
        m.s_empty_args = tsql_intern_add(&t->strings, "{}", 2);
        if (!m.s_cuda_runtime || !m.s_capture_root || !m.s_empty_args) rc = -1;
        for (size_t i = 0; i < nacc && !rc; i++) {
            if (splice(&m, &caps[acc[i].entry], &acc[i])) rc = -1;
            info->kernels += acc[i].pairs.n;
        }
        info->spliced = nacc;
        info->rows = t->n - n0;
        info->merged = 1;
        /* every index and cached result of the replay is stale now */
        free(t->by_corr);
        t->by_corr = NULL;
        t->nby_corr = 0;
        for (size_t i = 0; i < TSQL_CACHE_SLOTS; i++)
            if (t->cache[i].kind) {
                t->cache[i].kind->free(t->cache[i].value);
                t->cache[i].kind = NULL;
                t->cache[i].value = NULL;
            }
        char *f = rc ? NULL : strdup(folder);
        if (!rc && (!f || rebuild_children(t) || tsql_trace_cache_put(t, &merged_kind, f))) {
            free(f);
            rc = -1;
        }
        /* the copies' parents with Python frames, for the inference report's call stacks */
        if (!rc && m.py_parent.n == t->n - n0) {
            if (tsql_py_tree_record_copies(t, n0, m.py_parent.v)) rc = -1; /* takes the array */
        } else {
            free(m.py_parent.v);
            if (!rc) rc = -1;
        }
        if (!rc && tsql_store_check_limit(t, err, -1)) rc = -2;
    }
    for (size_t i = 0; i < nacc; i++) tsql_capture_pairs_free(&acc[i].pairs);
    free(acc);
    for (size_t i = 0; caps && i < ne; i++) {
        tsql_trace_free(caps[i].c);
        tsql_capture_tree_free(&caps[i].ct);
        free(caps[i].strmap);
        free(caps[i].idx);
    }
    free(caps);
    free(ent);
    tsql_exec_roots_free(roots, nroots);
    tsql_graph_kernels_free(&gks);
    tsql_capture_plan_free(&man);
    if (rc == -1) tsql_error_set(err, TSQL_ENOMEM, -1, "out of memory while merging the capture traces");
    return rc ? -1 : 0;
}
