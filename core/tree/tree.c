/* tree.c — CPU nesting, Python frames, GPU launch links; see tree.h. */
#include "tree/tree.h"

#include <ctype.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "store/colmem.h"
#include "store/store.h"
#include "tree/children.h"
#include "util/idtable.h"
#include "util/sort.h"
#include "util/u64map.h"

#define NONE TSQL_NONE
/* A B/E or b/e key whose stack is empty: a value of the key in the map (NONE would
 * free the slot and cut the probe runs through it); never a uid (n < UINT32_MAX - 2). */
#define EMPTY_STACK (UINT32_MAX - 1)

uint32_t tsql_kernel_row(const tsql_trace *t, uint32_t uid)
{
    const uint32_t *a = t->kernels.uid;
    uint32_t lo = 0, hi = t->kernels.n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (a[mid] < uid) lo = mid + 1;
        else hi = mid;
    }
    return lo < t->kernels.n && a[lo] == uid ? lo : TSQL_NONE;
}

int tsql_is_comm_name(const char *name)
{
    static const char *const pats[] = {"nccl", "rccl", "cross_device_reduce"};
    if (!name) return 0;
    for (const char *p = name; *p; p++) {
        for (size_t i = 0; i < 3; i++) {
            const char *a = p, *b = pats[i];
            while (*a && *b && tolower((unsigned char)*a) == *b) {
                a++;
                b++;
            }
            if (!*b) return 1;
        }
    }
    return 0;
}

static int name_is(const tsql_trace *t, uint32_t uid, const char *s)
{
    uint32_t id = t->name[uid];
    size_t n = strlen(s);
    return id && tsql_intern_len(&t->strings, id) == n &&
           memcmp(tsql_intern_str(&t->strings, id), s, n) == 0;
}

/* ---------- B/E and b/e pairing ---------- */

/* Pairs B with E per (pid, tid) (stack order) and b with e per (cat, id, name).
 * The opening event gets the span's duration. */
static int pair_spans(tsql_trace *t)
{
    uint32_t nb = 0, na = 0;
    for (uint32_t i = 0; i < t->n; i++) {
        if (t->ph[i] == 'B' || t->ph[i] == 'E') nb++; /* a lone E is worth a warning too */
        if (t->ph[i] == 'b' || t->ph[i] == 'e') na++;
    }
    if (!nb && !na) return 0;
    /* B/E: per-thread stacks linked through an array (next-below pointer) */
    tsql_u64map top = {0};
    uint32_t *below = tsql_col_malloc((size_t)t->n * sizeof *below);
    if (!below || tsql_u64map_init(&top, nb + 1)) {
        tsql_col_free(below);
        tsql_u64map_free(&top); /* init may have allocated half of it */
        return -1;
    }
    for (uint32_t i = 0; i < t->n; i++) {
        if (t->ph[i] != 'B' && t->ph[i] != 'E') continue;
        uint32_t *top_of = tsql_u64map_ref(&top, (int64_t)tsql_thread_key(t, i), EMPTY_STACK);
        if (!top_of) {
            tsql_col_free(below);
            tsql_u64map_free(&top);
            return -1;
        }
        uint32_t cur = *top_of == EMPTY_STACK ? NONE : *top_of;
        if (t->ph[i] == 'B') {
            below[i] = cur;
            *top_of = i;
        } else if (cur == NONE) {
            tsql_trace_warn(t, -1, i, "e_unmatched: E event without a matching B");
        } else {
            if (t->ts_ns[i] != TSQL_NULL && t->ts_ns[cur] != TSQL_NULL) {
                t->dur_ns[cur] = t->ts_ns[i] - t->ts_ns[cur];
                t->flags[cur] |= TSQL_F_PAIRED;
                if (t->flags[cur] & TSQL_F_XD) t->flags[cur] &= (uint8_t)~TSQL_F_XD;
            }
            *top_of = below[cur] == NONE ? EMPTY_STACK : below[cur];
        }
    }
    for (uint32_t i = 0; i < t->n; i++)
        if (t->ph[i] == 'B' && !(t->flags[i] & TSQL_F_PAIRED))
            tsql_trace_warn(t, -1, i, "b_unmatched: B event without a matching E");
    tsql_u64map_free(&top);
    /* b/e async: key (cat, name, id) */
    if (na) {
        tsql_u64map open = {0};
        if (tsql_u64map_init(&open, na + 1)) {
            tsql_col_free(below);
            tsql_u64map_free(&open);
            return -1;
        }
        for (uint32_t i = 0; i < t->n; i++) {
            if (t->ph[i] != 'b' && t->ph[i] != 'e') continue;
            int64_t id = tsql_icol_get(&t->flow_id, i);
            uint64_t k = tsql_u64_hash((uint64_t)id) ^ ((uint64_t)t->cat[i] << 40) ^
                         ((uint64_t)t->name[i] << 8);
            uint32_t *open_of = tsql_u64map_ref(&open, (int64_t)k, EMPTY_STACK);
            if (!open_of) {
                tsql_col_free(below);
                tsql_u64map_free(&open);
                return -1;
            }
            uint32_t cur = *open_of == EMPTY_STACK ? NONE : *open_of;
            if (t->ph[i] == 'b') {
                below[i] = cur;
                *open_of = i;
            } else if (cur != NONE) {
                if (t->ts_ns[i] != TSQL_NULL && t->ts_ns[cur] != TSQL_NULL) {
                    t->dur_ns[cur] = t->ts_ns[i] - t->ts_ns[cur];
                    t->flags[cur] |= TSQL_F_PAIRED;
                }
                *open_of = below[cur] == NONE ? EMPTY_STACK : below[cur];
            } else {
                tsql_trace_warn(t, -1, i, "async_unmatched: async end event without a matching begin");
            }
        }
        tsql_u64map_free(&open);
    }
    tsql_col_free(below);
    return 0;
}

/* ---------- CPU nesting (TraceLens 2.2) ---------- */

typedef struct frame {
    uint32_t uid;
    double t_end;
} frame;

typedef struct thread_stack {
    frame *f;
    uint32_t n, cap;
    uint32_t open_ops; /* open cpu_ops on this thread */
} thread_stack;

static int is_cpu_node(const tsql_trace *t, uint32_t i)
{
    int k = t->kind[i];
    return (k == TSQL_K_CPU_OP || k == TSQL_K_RUNTIME || k == TSQL_K_DRIVER) &&
           (t->ph[i] == 'X' || (t->ph[i] == 'B' && (t->flags[i] & TSQL_F_PAIRED))) &&
           t->ts_ns[i] != TSQL_NULL && t->dur_ns[i] != TSQL_NULL;
}

static void pop_frame(const tsql_trace *t, thread_stack *s)
{
    uint32_t u = s->f[--s->n].uid;
    if (t->kind[u] == TSQL_K_CPU_OP) s->open_ops--;
}

static int nest_cpu(tsql_trace *t)
{
    uint32_t m = 0;
    for (uint32_t i = 0; i < t->n; i++) m += (uint32_t)is_cpu_node(t, i);
    uint64_t *key = tsql_col_malloc((size_t)(m ? m : 1) * sizeof *key);
    uint32_t *ord = tsql_col_malloc((size_t)(m ? m : 1) * sizeof *ord);
    tsql_u64map threads = {0};
    thread_stack *stacks = NULL;
    uint32_t nstacks = 0, capstacks = 0;
    int rc = -1;
    if (!key || !ord || tsql_u64map_init(&threads, 1024)) goto out;
    m = 0;
    for (uint32_t i = 0; i < t->n; i++) {
        if (!is_cpu_node(t, i)) continue;
        key[m] = tsql_sort_key(tsql_trace_ts_us(t, i));
        ord[m++] = i;
    }
    if (tsql_radix_sort(key, ord, m)) goto out; /* by ts, stable */
    for (uint32_t k = 0; k < m; k++) {
        uint32_t e = ord[k];
        int64_t tk = (int64_t)tsql_thread_key(t, e);
        uint32_t si = tsql_u64map_get(&threads, tk);
        if (si == NONE) {
            if (nstacks == capstacks) {
                uint32_t nc = capstacks ? capstacks * 2 : 16;
                thread_stack *ns = realloc(stacks, nc * sizeof *ns);
                if (!ns) goto out;
                stacks = ns;
                capstacks = nc;
            }
            memset(&stacks[nstacks], 0, sizeof *stacks);
            si = nstacks++;
            if (tsql_u64map_put(&threads, tk, si, 1)) goto out;
        }
        thread_stack *s = &stacks[si];
        double ts = tsql_trace_ts_us(t, e);
        double t_end = ts + tsql_trace_dur_us(t, e);
        /* NOLINTNEXTLINE(clang-analyzer-core.NullDereference): si indexes stacks[0..nstacks) */
        while (s->n && ts >= s->f[s->n - 1].t_end) pop_frame(t, s);
        if (s->n && t_end > s->f[s->n - 1].t_end) {
            double overlap = s->f[s->n - 1].t_end - ts;
            if (overlap < 1.0 && s->n >= 2) {
                pop_frame(t, s);
            } else {
                /* TraceLens leaves it out; natively it stays a leaf under the top */
                t->flags[e] |= TSQL_F_TL_DROPPED;
                uint32_t p = s->f[s->n - 1].uid;
                t->parent[e] = p;
                t->edge[e] = TSQL_EDGE_CPU;
                t->depth[e] = t->depth[p] < UINT16_MAX ? (uint16_t)(t->depth[p] + 1) : UINT16_MAX;
                continue;
            }
        }
        if (s->n) {
            uint32_t p = s->f[s->n - 1].uid;
            t->parent[e] = p;
            t->edge[e] = TSQL_EDGE_CPU;
            t->depth[e] = t->depth[p] < UINT16_MAX ? (uint16_t)(t->depth[p] + 1) : UINT16_MAX;
        }
        if (s->n == s->cap) {
            uint32_t nc = s->cap ? s->cap * 2 : 32;
            frame *nf = realloc(s->f, nc * sizeof *nf);
            if (!nf) goto out;
            s->f = nf;
            s->cap = nc;
        }
        s->f[s->n++] = (frame){e, t_end};
        if (t->kind[e] == TSQL_K_CPU_OP) {
            if (s->open_ops == 0) t->flags[e] |= TSQL_F_TL_ROOT;
            s->open_ops++;
        }
    }
    rc = 0;
out:
    for (uint32_t i = 0; i < nstacks; i++) free(stacks[i].f);
    free(stacks);
    tsql_u64map_free(&threads);
    tsql_col_free(key);
    tsql_col_free(ord);
    return rc;
}

/* ---------- Python frames by Python parent id ---------- */

/* A Python id looked for among frames (uids) in a table keyed by their python_id. */
typedef struct py_key {
    const tsql_icol *python_id;
    int64_t id;
} py_key;

static inline int same_python_id(const void *key, uint32_t uid, uint32_t j)
{
    (void)j;
    const py_key *q = key;
    return tsql_icol_get(q->python_id, uid) == q->id;
}

/* Slot of Python id k in the uid-only table ids (its own, or the empty one). */
static uint32_t py_slot(const tsql_trace *t, const tsql_idtab *ids, int64_t k)
{
    py_key q = {&t->python_id, k};
    return tsql_idtab_find(ids, tsql_u64_hash((uint64_t)k), same_python_id, &q);
}

/* First position in L[lo..hi) whose Python id (offset in the column) is >= key. */
static uint32_t py_lower(const int32_t *v, const uint32_t *L, uint32_t lo, uint32_t hi, int64_t key)
{
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (v[L[mid]] < key) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Python parents when the frames' ids increase in file order, as Kineto numbers
 * them while recording: L (the frames with an id, in file order) is then sorted by
 * id, and a parent, recorded shortly before its child, is found by a search that
 * widens backwards from the child's own position: near memory, no hash table.
 * Returns 1 when the ids are not like that (the caller hashes), 0, or -1 on OOM. */
static int python_parents_sorted(tsql_trace *t, uint32_t m)
{
    const tsql_icol *c = &t->python_id;
    const int32_t *v = c->v;
    uint32_t *L = tsql_col_malloc((size_t)m * sizeof *L);
    if (!L) return -1;
    uint32_t k = 0;
    for (uint32_t i = 0; i < t->n; i++) {
        if (t->kind[i] != TSQL_K_PYTHON || v[i] == ICOL_NULL) continue;
        if (v[i] == ICOL_OVF || (k && v[i] <= v[L[k - 1]])) {
            tsql_col_free(L);
            return 1;
        }
        L[k++] = i;
    }
    uint32_t pos = 0; /* L[0..pos) are frames before i */
    for (uint32_t i = 0; i < t->n; i++) {
        if (pos < k && L[pos] < i) pos++;
        if (t->kind[i] != TSQL_K_PYTHON) continue;
        int64_t pp = tsql_icol_get(&t->python_parent, i);
        if (pp == TSQL_NULL) continue;
        int64_t key;
        uint32_t p = NONE;
        if (!__builtin_sub_overflow(pp, c->base, &key) && key > ICOL_OVF && key <= INT32_MAX) {
            uint32_t lo, hi;
            if (pos > 0 && v[L[pos - 1]] >= key) {
                /* before i: widen the window backwards until it starts below key */
                uint32_t step = 1;
                hi = pos - 1;
                for (;;) {
                    if (hi < step) {
                        lo = 0;
                        break;
                    }
                    lo = hi - step;
                    if (v[L[lo]] < key) break;
                    hi = lo;
                    step *= 2;
                }
                hi++;
            } else {
                lo = pos;
                hi = k;
            }
            uint32_t j = py_lower(v, L, lo, hi, key);
            if (j < k && v[L[j]] == key) p = L[j];
        }
        if (p == i) tsql_trace_warn(t, -1, i, "python_self_parent: frame is its own Python parent");
        if (p == NONE || p == i) continue;
        t->parent[i] = p;
        t->edge[i] = TSQL_EDGE_PYTHON;
    }
    tsql_col_free(L);
    return 0;
}

/* Python parents through a hash table of Python id -> uid (any id order). */
static int python_parents_hashed(tsql_trace *t, uint32_t m)
{
    /* Python id -> uid. Python frames are most events of a with_stack trace, so the
     * table holds only uids (the key is read back from the python_id column): 4 bytes
     * a slot instead of 12, which keeps this map below the load's peak memory. */
    uint32_t ns = 16;
    while (ns < m + m / 2 + 16) ns *= 2;
    uint32_t *mem = tsql_col_malloc((size_t)ns * sizeof *mem); /* 2 MiB pages (colmem.h) */
    if (!mem) return -1;
    tsql_idtab ids;
    tsql_idtab_init_at(&ids, mem, ns);
    for (uint32_t i = 0; i < t->n; i++) {
        if (t->kind[i] != TSQL_K_PYTHON) continue;
        int64_t id = tsql_icol_get(&t->python_id, i);
        if (id == TSQL_NULL) continue;
        uint32_t j = py_slot(t, &ids, id);
        if (ids.slot[j] != NONE)
            tsql_trace_warn(t, -1, i, "python_dup_id: duplicate Python id %lld; the first frame keeps it",
                            (long long)id);
        else
            tsql_idtab_set(&ids, j, i);
    }
    for (uint32_t i = 0; i < t->n; i++) {
        if (t->kind[i] != TSQL_K_PYTHON) continue;
        int64_t pp = tsql_icol_get(&t->python_parent, i);
        if (pp == TSQL_NULL) continue;
        uint32_t p = ids.slot[py_slot(t, &ids, pp)];
        if (p == i) tsql_trace_warn(t, -1, i, "python_self_parent: frame is its own Python parent");
        if (p == NONE || p == i) continue;
        t->parent[i] = p;
        t->edge[i] = TSQL_EDGE_PYTHON;
    }
    tsql_col_free(mem);
    return 0;
}

static int nest_python(tsql_trace *t)
{
    uint32_t m = 0;
    for (uint32_t i = 0; i < t->n; i++)
        if (t->kind[i] == TSQL_K_PYTHON && t->python_id.v[i] != ICOL_NULL) m++;
    if (!m) return 0;
    int rc = python_parents_sorted(t, m);
    if (rc == 1) rc = python_parents_hashed(t, m);
    if (rc) return rc;
    /* depths: in one pass when every parent comes before its child (no cycle can) */
    int forward = 1; /* (only Python frames are read: nest_cpu may run alongside) */
    for (uint32_t i = 0; i < t->n && forward; i++)
        if (t->kind[i] == TSQL_K_PYTHON && t->edge[i] == TSQL_EDGE_PYTHON && t->parent[i] > i)
            forward = 0;
    if (forward) {
        for (uint32_t i = 0; i < t->n; i++) {
            if (t->kind[i] != TSQL_K_PYTHON || t->edge[i] != TSQL_EDGE_PYTHON) continue;
            uint16_t d = t->depth[t->parent[i]];
            t->depth[i] = d < UINT16_MAX ? (uint16_t)(d + 1) : UINT16_MAX;
        }
        return 0;
    }
    /* depths; parent ids may form cycles in a corrupt trace: cut them */
    uint8_t *state = tsql_col_calloc(t->n ? t->n : 1, 1); /* 0 new, 1 on the current path, 2 done */
    uint32_t *path = tsql_col_malloc((size_t)(t->n ? t->n : 1) * sizeof *path);
    if (!state || !path) {
        tsql_col_free(state);
        tsql_col_free(path);
        return -1;
    }
    for (uint32_t i = 0; i < t->n; i++) {
        if (t->kind[i] != TSQL_K_PYTHON || state[i]) continue;
        uint32_t np = 0, u = i;
        while (u != NONE && t->edge[u] == TSQL_EDGE_PYTHON && !state[u]) {
            state[u] = 1;
            path[np++] = u;
            u = t->parent[u];
        }
        if (np == 0) { /* a root frame: depth 0 */
            state[i] = 2;
            continue;
        }
        /* u is now the parent of the last frame on the path */
        uint32_t d;
        if (state[u] == 1) {
            /* cycle: the last frame on the path points back into it */
            uint32_t last = path[np - 1];
            tsql_trace_warn(t, -1, last, "python_cycle: Python parent ids form a cycle; edge cut");
            t->parent[last] = NONE;
            t->edge[last] = TSQL_EDGE_NONE;
            d = 0;
        } else {
            d = (uint32_t)t->depth[u] + 1;
        }
        for (uint32_t k = np; k-- > 0;) {
            uint32_t v = path[k];
            t->depth[v] = (uint16_t)(d > UINT16_MAX ? UINT16_MAX : d);
            state[v] = 2;
            d++;
        }
    }
    tsql_col_free(state);
    tsql_col_free(path);
    return 0;
}

/* ---------- GPU events and their launches (TraceLens 1.10, 1.11, 2.5, 3.3) ---------- */

static int64_t link_value(const tsql_trace *t, uint32_t i)
{
    return tsql_icol_get(t->link_key_is_external ? &t->external_id : &t->correlation, i);
}

static void choose_link_key(tsql_trace *t)
{
    for (uint32_t i = 0; i < t->n; i++) {
        if (!tsql_kind_is_launch(t->kind[i])) continue;
        const char *nm = tsql_intern_str(&t->strings, t->name[i]);
        if (!nm) continue;
        int launch = 0;
        for (const char *p = nm; *p && !launch; p++)
            launch = tolower((unsigned char)p[0]) == 'l' && strncasecmp(p, "launch", 6) == 0;
        if (!launch) continue;
        size_t n;
        int has_corr = t->correlation.v[i] != ICOL_NULL ||
                       tsql_trace_arg_raw(t, i, "correlation", &n) != NULL;
        t->link_key_is_external = !has_corr;
        return;
    }
    t->link_key_is_external = 0;
}

static int is_graph_launch(const tsql_trace *t, uint32_t i)
{
    return name_is(t, i, "cudaGraphLaunch") || name_is(t, i, "hipGraphLaunch");
}

/* An event looked for by (link value, pid, tid) in bylink: a u64map's arrays, the link
 * value beside each slot and the event as its value, probed with this key test. */
typedef struct link_key {
    const tsql_trace *t;
    const int64_t *lvs;         /* bylink.keys */
    int64_t lv;
    uint32_t pid, tid;
} link_key;

static inline int same_link(const void *key, uint32_t u, uint32_t j)
{
    const link_key *q = key;
    return q->lvs[j] == q->lv && q->t->pid[u] == q->pid && q->t->tid[u] == q->tid;
}

static uint32_t link_hash(int64_t lv, uint32_t pid, uint32_t tid)
{
    uint64_t h = (uint64_t)lv * 0x9E3779B97F4A7C15ull ^ ((uint64_t)pid << 21) ^ ((uint64_t)tid << 42) ^ tid;
    return tsql_u64_hash(h);
}

/* Slot of (lv, pid, tid) in bylink (its own, or the empty one). */
static uint32_t link_slot(const tsql_trace *t, const tsql_u64map *bylink, int64_t lv, uint32_t pid, uint32_t tid)
{
    link_key q = {t, bylink->keys, lv, pid, tid};
    return tsql_idtab_probe(bylink->vals, bylink->nslots, link_hash(lv, pid, tid), same_link, &q);
}

/* What link_prepare finds for link_finish. */
typedef struct link_state {
    tsql_u64map fs, ff, corr, gfirst;
    tsql_u64map bylink;         /* (link value, pid, tid) -> the last such event (link_slot) */
    /* by GPU event ordinal (GPU events are ~1% of a trace's rows) */
    uint32_t *gu;               /* its uid, ascending (becomes kernels.uid) */
    uint32_t *gnext, *tl;       /* next GPU event with the same link value; TraceLens's runtime */
    uint8_t *lk;                /* enum tsql_link of tl */
    uint32_t ngpu;
    uint32_t lone[2], first[2]; /* unpaired flow starts / finishes, warned in link_finish */
} link_state;

static void link_free(link_state *st)
{
    tsql_u64map_free(&st->fs);
    tsql_u64map_free(&st->ff);
    tsql_u64map_free(&st->bylink);
    tsql_u64map_free(&st->corr);
    tsql_u64map_free(&st->gfirst);
    tsql_col_free(st->gu);
    tsql_col_free(st->gnext);
    tsql_col_free(st->tl);
    tsql_col_free(st->lk);
}

/* Ordinal of GPU event g among st->gu. */
static uint32_t gpu_ordinal(const link_state *st, uint32_t g)
{
    uint32_t lo = 0, hi = st->ngpu;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (st->gu[mid] < g) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* The part of link_gpu that needs no tree: flows, launches and GPU events by link
 * value, TraceLens's runtime pass. It writes only st and t->link_key_is_external (and
 * records no warning), so it may run while nest_cpu/nest_python build the tree. */
static int link_prepare(tsql_trace *t, link_state *st)
{
    int rc = -1;
    choose_link_key(t);
    uint32_t nflow = 0, nlinked = 0, ngpu = 0, nlaunch = 0;
    for (uint32_t i = 0; i < t->n; i++) {
        if (t->kind[i] == TSQL_K_AC2G) nflow++;
        else if (link_value(t, i) != TSQL_NULL) nlinked++;
        if (tsql_kind_is_gpu(t->kind[i])) ngpu++;
        if (tsql_kind_is_launch(t->kind[i])) nlaunch++;
    }
    st->ngpu = ngpu;
    tsql_u64map fs = {0}, ff = {0}, bylink = {0}, corr = {0}, gfirst = {0};
    size_t ng1 = ngpu ? ngpu : 1;
    uint32_t *gnext = tsql_col_malloc(ng1 * sizeof *gnext);
    uint32_t *tl = tsql_col_malloc(ng1 * sizeof *tl);
    uint8_t *lk = tsql_col_calloc(ng1, 1);
    uint32_t *gu = st->gu = tsql_col_malloc(ng1 * sizeof *gu);
    if (!gnext || !tl || !lk || !gu) goto out;
    for (uint32_t k = 0; k < ngpu; k++) tl[k] = NONE;
    if (tsql_u64map_init(&fs, nflow) || tsql_u64map_init(&ff, nflow) ||
        tsql_u64map_init(&bylink, nlinked) || tsql_u64map_init(&corr, nlaunch) ||
        tsql_u64map_init(&gfirst, ngpu))
        goto out;
    /* flows (last wins), (pid, tid, link) -> event (last wins), GPU events per link */
    uint32_t ng = 0;
    for (uint32_t i = 0; i < t->n; i++) {
        uint32_t gord = NONE;
        if (tsql_kind_is_gpu(t->kind[i])) gu[gord = ng++] = i;
        if (t->kind[i] == TSQL_K_AC2G) {
            int64_t id = tsql_icol_get(&t->flow_id, i);
            if (id == TSQL_NULL) continue;
            if (t->ph[i] == 's' && tsql_u64map_put(&fs, id, i, 1)) goto out;
            if (t->ph[i] == 'f' && tsql_u64map_put(&ff, id, i, 1)) goto out;
            continue;
        }
        int64_t lv = link_value(t, i);
        if (lv == TSQL_NULL) continue;
        if (!t->pid[i] || !t->tid[i] || !t->args[i]) continue;
        /* the last event of each (link, pid, tid); at most nlinked keys: no growth */
        uint32_t j = link_slot(t, &bylink, lv, t->pid[i], t->tid[i]);
        if (bylink.vals[j] == NONE) {
            bylink.keys[j] = lv;
            bylink.n++;
        }
        bylink.vals[j] = i;
        if (gord != NONE) {
            gnext[gord] = NONE;
            uint32_t first = tsql_u64map_get(&gfirst, lv);
            if (first == NONE) {
                if (tsql_u64map_put(&gfirst, lv, gord, 1)) goto out;
            } else {
                uint32_t u = first;
                while (gnext[u] != NONE) u = gnext[u];
                gnext[u] = gord;
            }
        }
        if (tsql_kind_is_launch(t->kind[i])) {
            int64_t c = tsql_icol_get(&t->correlation, i);
            if (c != TSQL_NULL && tsql_u64map_put(&corr, c, i, 0)) goto out;
        }
    }
    /* a flow end without its other end links nothing; common at the edges of a
     * profiling window, so one warning per direction, with the count */
    for (int dir = 0; dir < 2; dir++) {
        const tsql_u64map *have = dir ? &ff : &fs, *other = dir ? &fs : &ff;
        uint32_t lone = 0, first = NONE;
        for (uint32_t j = 0; j < have->nslots; j++)
            if (have->vals[j] != NONE && tsql_u64map_get(other, have->keys[j]) == NONE) {
                lone++;
                if (have->vals[j] < first) first = have->vals[j];
            }
        st->lone[dir] = lone;
        st->first[dir] = first;
    }
    /* TraceLens's pass over runtime events in file order */
    for (uint32_t r = 0; r < t->n; r++) {
        if (!tsql_kind_is_launch(t->kind[r])) continue;
        int64_t lv = link_value(t, r);
        if (lv == TSQL_NULL) continue;
        if (is_graph_launch(t, r)) {
            for (uint32_t g = tsql_u64map_get(&gfirst, lv); g != NONE; g = gnext[g]) {
                tl[g] = r;
                lk[g] = TSQL_LINK_GRAPH;
            }
            continue;
        }
        uint32_t s = tsql_u64map_get(&fs, lv), f = tsql_u64map_get(&ff, lv);
        if (s == NONE || f == NONE) continue;
        uint32_t g = bylink.vals[link_slot(t, &bylink, lv, t->pid[f], t->tid[f])];
        if (g == NONE) continue;
        if (!tsql_kind_is_gpu(t->kind[g])) continue; /* flow ends on a CPU row: not a launch */
        uint32_t o = gpu_ordinal(st, g);
        tl[o] = r;
        lk[o] = TSQL_LINK_AC2G;
    }
    rc = 0;
out:
    st->fs = fs;
    st->ff = ff;
    st->bylink = bylink;
    st->corr = corr;
    st->gfirst = gfirst;
    st->gnext = gnext;
    st->tl = tl;
    st->lk = lk;
    return rc;
}

/* The rest of link_gpu, on the finished CPU and Python tree: the warnings of
 * link_prepare, the kernels table with each launch's cpu_ops and TraceLens's
 * launcher, and the GPU events' launch edges. Frees st. */
static int link_finish(tsql_trace *t, link_state *st)
{
    int rc = -1;
    for (int dir = 0; dir < 2; dir++)
        if (st->lone[dir])
            tsql_trace_warn(t, -1, st->first[dir],
                            "flow_unpaired: %u ac2g flow %s without a %s (first: uid %u)",
                            st->lone[dir], dir ? "finishes" : "starts", dir ? "start" : "finish",
                            st->first[dir]);
    uint32_t ngpu = st->ngpu;
    const uint32_t *tl = st->tl;
    const uint8_t *lk = st->lk;
    tsql_u64map *corr_map = &st->corr;
    /* kernels table */
    tsql_kernels *K = &t->kernels;
    K->n = ngpu;
    size_t nk = ngpu ? ngpu : 1;
    K->uid = st->gu; /* the GPU events in uid order */
    st->gu = NULL;
    K->runtime = tsql_col_malloc(nk * sizeof *K->runtime);
    K->op = tsql_col_malloc(nk * sizeof *K->op);
    K->root_op = tsql_col_malloc(nk * sizeof *K->root_op);
    K->tl_runtime = tsql_col_malloc(nk * sizeof *K->tl_runtime);
    K->tl_launcher = tsql_col_malloc(nk * sizeof *K->tl_launcher);
    K->link = tsql_col_malloc(nk);
    K->is_comm = tsql_col_malloc(nk);
    uint8_t *comm_cache = calloc((size_t)t->strings.n + 1, 1); /* 1 no, 2 yes */
    if (!K->uid || !K->runtime || !K->op || !K->root_op || !K->tl_runtime || !K->tl_launcher ||
        !K->link || !K->is_comm || !comm_cache) {
        free(comm_cache);
        goto out;
    }
    for (uint32_t k = 0; k < ngpu; k++) {
        uint32_t g = K->uid[k];
        uint32_t r = tl[k]; /* NOLINT(clang-analyzer-core.uninitialized.Assign): tl[0..ngpu) set in link_prepare */
        int link = lk[k];
        if (r == NONE) {
            int64_t c = tsql_icol_get(&t->correlation, g);
            if (c != TSQL_NULL && (r = tsql_u64map_get(corr_map, c)) != NONE)
                link = TSQL_LINK_CORRELATION;
        }
        /* TraceLens ignores old category spellings entirely */
        uint32_t tlr = tl[k];
        if (tlr != NONE && ((t->flags[g] | t->flags[tlr]) & TSQL_F_OLD_SPELLING)) tlr = NONE;
        uint32_t nm = t->name[g];
        if (!comm_cache[nm])
            comm_cache[nm] = tsql_is_comm_name(tsql_intern_str(&t->strings, nm)) ? 2 : 1;
        K->runtime[k] = r;
        K->link[k] = (uint8_t)link;
        K->tl_runtime[k] = tlr;
        K->is_comm[k] = comm_cache[nm] == 2;
        K->op[k] = K->root_op[k] = NONE;
        for (uint32_t p = r == NONE ? NONE : t->parent[r]; p != NONE; p = t->parent[p]) {
            if (t->kind[p] != TSQL_K_CPU_OP) continue;
            if (K->op[k] == NONE) K->op[k] = p;
            K->root_op[k] = p;
        }
        /* TraceLens's launcher: nearest cpu_op above the runtime call, skipping
         * python frames and cpu_ops named "execute"; else the runtime call itself */
        K->tl_launcher[k] = tlr != NONE && !K->is_comm[k] ? tsql_tl_launcher(t, tlr) : NONE;
        if (r != NONE) {
            t->parent[g] = r;
            t->edge[g] = TSQL_EDGE_LAUNCH;
            t->depth[g] = t->depth[r] < UINT16_MAX ? (uint16_t)(t->depth[r] + 1) : UINT16_MAX;
        }
    }
    free(comm_cache);
    rc = 0;
out:
    link_free(st);
    return rc;
}

/* ---------- children index ---------- */

typedef struct cpu_job {
    tsql_trace *t;
    link_state *st;
    int rc;
} cpu_job;

static void *nest_cpu_main(void *arg)
{
    cpu_job *j = arg;
    j->rc = nest_cpu(j->t) || link_prepare(j->t, j->st) ? -1 : 0;
    return NULL;
}

/* CPU nesting then link_prepare, and Python frames, side by side when threads > 1:
 * they write disjoint events (cpu_op/runtime/driver rows vs python_function rows) or
 * their own state, read nothing the others write, and only the Python side records
 * warnings, so their order is kept. */
static int nest_both(tsql_trace *t, link_state *st, int threads)
{
    if (threads > 1) {
        cpu_job j = {t, st, 0};
        pthread_t th;
        sigset_t all, old;
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &old);
        int started = pthread_create(&th, NULL, nest_cpu_main, &j) == 0;
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        if (started) {
            int rc = nest_python(t);
            pthread_join(th, NULL);
            return rc || j.rc ? -1 : 0;
        }
    }
    return nest_cpu(t) || nest_python(t) || link_prepare(t, st) ? -1 : 0;
}

/* TraceLens's launcher of a kernel whose runtime call is r: the nearest cpu_op above r,
 * skipping Python frames and cpu_ops named "execute"; else r itself (also when r was
 * dropped from TraceLens's tree). */
uint32_t tsql_tl_launcher(const tsql_trace *t, uint32_t r)
{
    if (t->flags[r] & TSQL_F_TL_DROPPED) return r;
    for (uint32_t p = t->parent[r]; p != NONE; p = t->parent[p]) {
        if (t->kind[p] == TSQL_K_CPU_OP) {
            if (name_is(t, p, "execute")) continue;
            return p;
        }
        if (t->kind[p] != TSQL_K_PYTHON) break;
    }
    return r;
}

int tsql_tree_build(tsql_trace *t, tsql_error *err)
{
    return tsql_tree_build_threads(t, err, 1);
}

int tsql_tree_build_threads(tsql_trace *t, tsql_error *err, int threads)
{
    size_t n = t->n ? t->n : 1;
    t->parent = tsql_col_malloc(n * sizeof *t->parent);
    t->depth = tsql_col_calloc(n, sizeof *t->depth);
    t->edge = tsql_col_calloc(n, 1);
    if (!t->parent || !t->depth || !t->edge) goto nomem;
    for (uint32_t i = 0; i < t->n; i++) t->parent[i] = NONE;
    link_state st;
    memset(&st, 0, sizeof st);
    if (pair_spans(t)) goto nomem;
    int rc = nest_both(t, &st, threads);
    if (rc == 0) rc = link_finish(t, &st);
    else link_free(&st);
    if (rc || tsql_children_build(t->n, t->parent, NULL, NULL, NULL, 0, &t->child_at, &t->child)) goto nomem;
    return 0;
nomem:
    tsql_error_set(err, TSQL_ENOMEM, -1, "out of memory while building the call tree");
    return -1;
}
