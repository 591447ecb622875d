/*
 * compare_events.c — operation, phase, layer and pass of every GPU event of a trace
 * (compare_events.h). Each question is one sorted sweep or a binary search per event;
 * no step is quadratic.
 */
#include "analysis/compare_events.h"
#include "analysis/threads.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "store/intern.h"
#include "util/sort.h"
#include "util/u64map.h"

const char *const tsql_cmp_phase_names[4] = {NULL, "prefill", "decode", "mixed"};

static const char MODULE_PREFIX[] = "nn.Module:";
#define MODULE_PREFIX_LEN (sizeof MODULE_PREFIX - 1)
#define PARENT_LOOKUP_DEPTH 8 /* how far above a module its parent module is looked for */

/* ts in µs, or NaN when absent */
static double ts_or_nan(const tsql_trace *t, uint32_t u)
{
    return t->ts_ns[u] == TSQL_NULL ? NAN : tsql_trace_ts_us(t, u);
}

/* ts + dur in µs (double addition, as SQL adds the two columns), or NaN */
static double end_or_nan(const tsql_trace *t, uint32_t u)
{
    if (t->ts_ns[u] == TSQL_NULL || t->dur_ns[u] == TSQL_NULL) return NAN;
    return tsql_trace_ts_us(t, u) + tsql_trace_dur_us(t, u);
}

/* the sort key of a ts: NULL (NaN) before every time */
static double order_key(double ts)
{
    return isnan(ts) ? -INFINITY : ts;
}

static int has_glob(const tsql_trace *t, uint32_t id, const char *pat)
{
    return id && tsql_glob_ci(pat, tsql_intern_str(&t->strings, id), tsql_intern_len(&t->strings, id));
}

/* 1 if SQL's CAST(s AS INTEGER) is > 0: spaces, a sign, then the leading digits */
static int cast_int_positive(const char *s)
{
    while (*s == ' ' || (*s >= '\t' && *s <= '\r')) s++;
    int neg = *s == '-';
    if (*s == '-' || *s == '+') s++;
    int nonzero = 0;
    for (; *s >= '0' && *s <= '9'; s++)
        if (*s != '0') nonzero = 1;
    return nonzero && !neg;
}

/* ---- CPU-side markers: profiler steps and phase annotations ---- */

typedef struct {
    double *key;   /* order_key(ts), ascending (ties by uid) */
    double *end;   /* ts + dur, NaN if unknown */
    uint8_t *phase;
    uint32_t n;
} markers;

/* frees and empties m: a failed markers_collect has freed it, and the caller frees it again */
static void markers_free(markers *m)
{
    free(m->key);
    free(m->end);
    free(m->phase);
    memset(m, 0, sizeof *m);
}

static uint8_t marker_phase(const tsql_trace *t, uint32_t id)
{
    if (has_glob(t, id, "step[extend*") || has_glob(t, id, "step[prefill*")) return TSQL_PHASE_PREFILL;
    if (has_glob(t, id, "step[decode*")) return TSQL_PHASE_DECODE;
    if (has_glob(t, id, "step[mixed*")) return TSQL_PHASE_MIXED;
    if (has_glob(t, id, "execute*context*generation*")) {
        const char *s = tsql_intern_str(&t->strings, id);
        const char *c = strstr(s, "_context_"), *g = strstr(s, "_generation_");
        if (!c || !g) return TSQL_PHASE_NONE; /* not a phase marker (marker_kind) */
        int cx = cast_int_positive(c + 9);
        int gx = cast_int_positive(g + 12);
        return cx && gx ? TSQL_PHASE_MIXED : cx ? TSQL_PHASE_PREFILL : gx ? TSQL_PHASE_DECODE : TSQL_PHASE_NONE;
    }
    return TSQL_PHASE_NONE;
}

/* 1 for a ProfilerStep# annotation, 2 for a phase annotation, 0 otherwise */
static int marker_kind(const tsql_trace *t, uint32_t id)
{
    if (has_glob(t, id, "ProfilerStep#*")) return 1;
    if (has_glob(t, id, "step[*")) return 2;
    if (has_glob(t, id, "execute*")) {
        const char *s = tsql_intern_str(&t->strings, id);
        if (strstr(s, "_context_") && strstr(s, "_generation_")) return 2;
    }
    return 0;
}

/* The user annotations of one marker kind, sorted by (ts, uid). */
static int markers_collect(const tsql_trace *t, int kind, markers *m)
{
    memset(m, 0, sizeof *m);
    uint32_t n = 0;
    tsql_keyed *a = NULL;
    size_t cap = 0;
    for (uint32_t u = 0; u < t->n; u++) {
        if (t->kind[u] != TSQL_K_USER_ANNOTATION || marker_kind(t, t->name[u]) != kind) continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            tsql_keyed *b = realloc(a, cap * sizeof *a);
            if (!b) {
                free(a);
                return -1;
            }
            a = b;
        }
        a[n] = (tsql_keyed){order_key(ts_or_nan(t, u)), u, u};
        n++;
    }
    tsql_keyed_sort(a, n);
    m->key = malloc((n + 1) * sizeof *m->key);
    m->end = malloc((n + 1) * sizeof *m->end);
    m->phase = malloc(n + 1);
    if (!m->key || !m->end || !m->phase) {
        free(a);
        markers_free(m);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++) {
        m->key[i] = a[i].k;
        m->end[i] = end_or_nan(t, a[i].v);
        m->phase[i] = kind == 2 ? marker_phase(t, t->name[a[i].v]) : TSQL_PHASE_NONE;
    }
    m->n = n;
    free(a);
    return 0;
}

/* Position (1-based) of the latest marker started at or before probe, if probe is
 * before its end; 0 otherwise. */
static uint32_t markers_find(const markers *m, double probe)
{
    if (isnan(probe)) return 0;
    uint32_t lo = 0, hi = m->n; /* first key > probe */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (m->key[mid] <= probe) lo = mid + 1;
        else hi = mid;
    }
    return lo > 0 && probe < m->end[lo - 1] ? lo : 0;
}

/* ---- layers from nn.Module blocks ---- */

static int is_module_name(const tsql_trace *t, uint32_t id)
{
    return id && tsql_intern_len(&t->strings, id) >= MODULE_PREFIX_LEN &&
           memcmp(tsql_intern_str(&t->strings, id), MODULE_PREFIX, MODULE_PREFIX_LEN) == 0;
}

/* The class of a module event name: after the prefix and its spaces, without a
 * trailing _<digits> */
static void module_class(const tsql_trace *t, uint32_t id, const char **s, uint32_t *len)
{
    const char *p = tsql_intern_str(&t->strings, id) + MODULE_PREFIX_LEN;
    uint32_t n = tsql_intern_len(&t->strings, id) - (uint32_t)MODULE_PREFIX_LEN;
    while (n && *p == ' ') p++, n--;
    uint32_t r = n;
    while (r && p[r - 1] >= '0' && p[r - 1] <= '9') r--;
    if (r < n && r && p[r - 1] == '_') n = r - 1;
    *s = p;
    *len = n;
}

typedef struct {
    uint32_t uid, parent; /* parent module event, TSQL_NONE if none */
    uint32_t cls;         /* class id in the local intern table */
} module_inst;

/* a layer block instance, sorted by (thread, ts, uid) for the lookups */
typedef struct {
    uint64_t thread;      /* tsql_threads_key */
    double key, end;
    uint32_t uid;
    int32_t layer;
    uint32_t pass;
} layer_inst;

static int layer_inst_cmp(const void *x, const void *y)
{
    const layer_inst *a = x, *b = y;
    if (a->thread != b->thread) return a->thread < b->thread ? -1 : 1;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    return a->uid < b->uid ? -1 : a->uid > b->uid;
}

/* a block instance in (parent ts, parent uid, ts, uid) order: pass and layer numbers */
typedef struct {
    double parent_key;
    uint32_t parent;
    double key;
    uint32_t uid, i;
} parent_order;

static int parent_order_cmp(const void *x, const void *y)
{
    const parent_order *a = x, *b = y;
    if (a->parent_key != b->parent_key) return a->parent_key < b->parent_key ? -1 : 1;
    if (a->parent != b->parent) return a->parent < b->parent ? -1 : 1;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    return a->uid < b->uid ? -1 : a->uid > b->uid;
}

/* The layer block instances of t with their layer and pass, threads not set yet (none
 * when t has no repeated module); -1 on OOM. */
static int find_layer_insts(const tsql_trace *t, layer_inst **out, uint32_t *nout)
{
    *out = NULL;
    *nout = 0;
    int rc = -1;
    tsql_intern cls; /* the distinct classes: ids 1.. */
    tsql_intern_init(&cls);
    module_inst *mods = NULL;
    uint32_t nmods = 0, cap = 0;
    uint32_t *cls_of_name = NULL; /* class id per name id, 0 = not yet */
    tsql_u64map groups = {0}, mod_at = {0};
    uint32_t *gcount = NULL, *gcls = NULL, *gparent = NULL;
    double *gsum = NULL;
    uint8_t *ghas = NULL;
    tsql_keyed *order = NULL;
    layer_inst *li = NULL;
    parent_order *numbered = NULL;

    cls_of_name = calloc((size_t)t->strings.n + 1, sizeof *cls_of_name);
    if (!cls_of_name) goto done;
    for (uint32_t u = 0; u < t->n; u++) {
        if (t->kind[u] != TSQL_K_PYTHON || !is_module_name(t, t->name[u])) continue;
        uint32_t id = t->name[u];
        if (!cls_of_name[id]) {
            const char *s;
            uint32_t len;
            module_class(t, id, &s, &len);
            if (!(cls_of_name[id] = tsql_intern_add(&cls, s, len))) goto done;
        }
        uint32_t parent = TSQL_NONE, p = t->parent[u];
        for (int d = 0; d < PARENT_LOOKUP_DEPTH && p != TSQL_NONE; d++, p = t->parent[p]) {
            if (is_module_name(t, t->name[p])) {
                parent = p;
                break;
            }
        }
        if (nmods == cap) {
            cap = cap ? cap * 2 : 256;
            module_inst *m = realloc(mods, cap * sizeof *m);
            if (!m) goto done;
            mods = m;
        }
        mods[nmods++] = (module_inst){u, parent, cls_of_name[id]};
    }
    if (nmods == 0) {
        rc = 0;
        goto done;
    }

    /* (parent, class) groups: instances and their CPU time */
    if (tsql_u64map_init(&groups, nmods) || tsql_u64map_init(&mod_at, nmods)) goto done;
    gcount = calloc(nmods, sizeof *gcount);
    gcls = malloc(nmods * sizeof *gcls);
    gparent = malloc(nmods * sizeof *gparent);
    gsum = calloc(nmods, sizeof *gsum);
    ghas = calloc(nmods, 1);
    if (!gcount || !gcls || !gparent || !gsum || !ghas) goto done;
    uint32_t ngroups = 0;
    for (uint32_t i = 0; i < nmods; i++) {
        tsql_u64map_put(&mod_at, mods[i].uid, i, 0);
        if (mods[i].parent == TSQL_NONE) continue;
        int64_t key = (int64_t)((uint64_t)mods[i].parent << 32 | mods[i].cls);
        uint32_t s = tsql_u64map_slot(&groups, key);
        if (groups.vals[s] == UINT32_MAX) {
            groups.keys[s] = key;
            groups.vals[s] = ngroups;
            groups.n++;
            gcls[ngroups] = mods[i].cls;
            gparent[ngroups] = mods[i].parent;
            ngroups++;
        }
        uint32_t g = groups.vals[s];
        gcount[g]++;
        if (t->dur_ns[mods[i].uid] != TSQL_NULL) {
            gsum[g] += tsql_trace_dur_us(t, mods[i].uid);
            ghas[g] = 1;
        }
    }

    /* the block: the class with the most time over its groups of >= 2 instances,
     * groups taken in parent order (ties: the smaller class text) */
    order = malloc((ngroups + 1) * sizeof *order);
    double *csum = calloc((size_t)cls.n + 1, sizeof *csum);
    uint8_t *chas = calloc((size_t)cls.n + 1, 1);
    if (!order || !csum || !chas) {
        free(csum);
        free(chas);
        goto done;
    }
    for (uint32_t g = 0; g < ngroups; g++) order[g] = (tsql_keyed){(double)gparent[g], gcls[g], g};
    tsql_keyed_sort(order, ngroups);
    for (uint32_t j = 0; j < ngroups; j++) {
        uint32_t g = order[j].v;
        if (gcount[g] < 2 || !ghas[g]) continue;
        csum[gcls[g]] += gsum[g];
        chas[gcls[g]] = 1;
    }
    uint32_t block = UINT32_MAX;
    for (uint32_t g = 0; g < ngroups; g++) {
        if (gcount[g] < 2) continue;
        uint32_t c = gcls[g];
        if (block == UINT32_MAX) {
            block = c;
            continue;
        }
        if (c == block) continue;
        /* larger sum first, a NULL sum last, then the smaller text */
        int better;
        if (chas[c] != chas[block]) better = chas[c];
        else if (chas[c] && csum[c] != csum[block]) better = csum[c] > csum[block];
        else {
            uint32_t lc = tsql_intern_len(&cls, c), lb = tsql_intern_len(&cls, block);
            int d = memcmp(tsql_intern_str(&cls, c), tsql_intern_str(&cls, block), lc < lb ? lc : lb);
            better = d < 0 || (d == 0 && lc < lb);
        }
        if (better) block = c;
    }
    free(csum);
    free(chas);
    if (block == UINT32_MAX) {
        rc = 0;
        goto done;
    }

    /* the block's instances under a module parent with >= 2 of them */
    li = malloc(nmods * sizeof *li);
    numbered = malloc(nmods * sizeof *numbered);
    if (!li || !numbered) goto done;
    uint32_t n = 0;
    for (uint32_t i = 0; i < nmods; i++) {
        const module_inst *m = &mods[i];
        if (m->cls != block || m->parent == TSQL_NONE) continue;
        int64_t key = (int64_t)((uint64_t)m->parent << 32 | m->cls);
        if (gcount[tsql_u64map_get(&groups, key)] < 2) continue;
        if (tsql_u64map_get(&mod_at, m->parent) == UINT32_MAX) continue; /* parent is no module event */
        li[n] = (layer_inst){0, order_key(ts_or_nan(t, m->uid)), end_or_nan(t, m->uid), m->uid, 0, 0};
        numbered[n] = (parent_order){order_key(ts_or_nan(t, m->parent)), m->parent, li[n].key, m->uid, n};
        n++;
    }
    /* layer: position among the parent's instances by (ts, uid); pass: the parent's
     * dense rank by (parent ts, parent uid) */
    qsort(numbered, n, sizeof *numbered, parent_order_cmp);
    for (uint32_t j = 0, pass = 0, layer = 0; j < n; j++) {
        if (j == 0 || numbered[j].parent != numbered[j - 1].parent) {
            pass++;
            layer = 0;
        }
        li[numbered[j].i].layer = (int32_t)layer++;
        li[numbered[j].i].pass = pass;
    }
    *out = li;
    *nout = n;
    li = NULL;
    rc = 0;
done:
    tsql_intern_free(&cls);
    free(mods);
    free(cls_of_name);
    tsql_u64map_free(&groups);
    tsql_u64map_free(&mod_at);
    free(gcount);
    free(gcls);
    free(gparent);
    free(gsum);
    free(ghas);
    free(order);
    free(li);
    free(numbered);
    return rc;
}

/* The layer instance holding a launch on thread at probe: the latest started at or
 * before it, if probe is before its end. NULL if none. */
static const layer_inst *layer_find(const layer_inst *li, uint32_t n, uint64_t thread, double probe)
{
    if (isnan(probe)) return NULL;
    uint32_t lo = 0, hi = n; /* first (thread, key) > (thread, probe) */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (li[mid].thread < thread || (li[mid].thread == thread && li[mid].key <= probe)) lo = mid + 1;
        else hi = mid;
    }
    if (lo == 0 || li[lo - 1].thread != thread || !(probe < li[lo - 1].end)) return NULL;
    return &li[lo - 1];
}

/* ---- layers from kernel patterns ---- */

enum { MARK_NONE = 0, MARK_NORM, MARK_ATTN };

static int mark_of(uint8_t op)
{
    switch (op) {
    case TSQL_KOP_RMSNORM:
    case TSQL_KOP_LAYERNORM:
    case TSQL_KOP_RMSNORM_GEMM:
    case TSQL_KOP_LAYERNORM_GEMM: return MARK_NORM;
    case TSQL_KOP_ATTENTION: return MARK_ATTN;
    default: return MARK_NONE;
    }
}

typedef struct {
    uint32_t pass;
    double key;
    uint32_t uid, row;
} pass_order;

static int pass_order_cmp(const void *x, const void *y)
{
    const pass_order *a = x, *b = y;
    if (a->pass != b->pass) return a->pass < b->pass ? -1 : 1;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    return a->uid < b->uid ? -1 : a->uid > b->uid;
}

/* Within each pass (the step, 0 outside steps) in GPU order: a layer starts at a norm
 * whose next mark is Attention; the layers end at a norm after a norm with no Attention
 * after it. */
static int pattern_layers(const tsql_trace *t, tsql_cmp_events *e)
{
    uint32_t n = e->n;
    pass_order *o = malloc(((size_t)n + 1) * sizeof *o);
    uint8_t *next = malloc((size_t)n + 1);
    uint32_t *attn_after = malloc(((size_t)n + 1) * sizeof *attn_after);
    if (!o || !next || !attn_after) {
        free(o);
        free(next);
        free(attn_after);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t u = t->kernels.uid[i];
        o[i] = (pass_order){e->step[i], order_key(ts_or_nan(t, u)), u, i};
    }
    qsort(o, n, sizeof *o, pass_order_cmp);
    for (uint32_t a = 0, b; a < n; a = b) {
        for (b = a; b < n && o[b].pass == o[a].pass; b++) {}
        uint8_t nx = MARK_NONE;
        uint32_t attn = 0;
        for (uint32_t j = b; j-- > a;) {
            int m = mark_of(e->op[o[j].row]);
            next[j] = nx;
            attn_after[j] = attn;
            if (m) nx = (uint8_t)m;
            if (m == MARK_ATTN) attn++;
        }
        int prev = MARK_NONE, ended = 0;
        uint32_t nstart = 0;
        for (uint32_t j = a; j < b; j++) {
            uint32_t row = o[j].row;
            int m = mark_of(e->op[row]);
            if (m) {
                if (m == MARK_NORM && next[j] == MARK_ATTN) nstart++;
                if (m == MARK_NORM && prev == MARK_NORM && attn_after[j] == 0) ended = 1;
                prev = m;
            }
            if (nstart > 0 && !ended) {
                e->layer[row] = (int32_t)(nstart - 1);
                e->pass[row] = o[j].pass;
            }
        }
    }
    free(o);
    free(next);
    free(attn_after);
    return 0;
}

/* ---- kernel pairs: events by (pass, layer, ts, uid) ---- */

typedef struct {
    uint32_t pass;
    int32_t layer;
    double key;
    uint32_t uid, row;
} layer_pos;

static int layer_pos_cmp(const void *x, const void *y)
{
    const layer_pos *a = x, *b = y;
    if (a->pass != b->pass) return a->pass < b->pass ? -1 : 1;
    if (a->layer != b->layer) return a->layer < b->layer ? -1 : 1;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    return a->uid < b->uid ? -1 : a->uid > b->uid;
}

/* ---- groups: a table of four-word keys, each type of group keeping its values in
 * an array indexed like the keys ---- */

typedef struct {
    uint32_t w[4];
} quad;

typedef struct {
    quad *keys;
    size_t n, cap;
    uint32_t *slot; /* key index + 1, 0 = empty */
    size_t nslots;
} quad_table;

static void quad_table_free(quad_table *q)
{
    free(q->keys);
    free(q->slot);
    memset(q, 0, sizeof *q);
}

static uint64_t quad_hash(const quad *k)
{
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 4; i++) {
        h ^= k->w[i];
        h *= 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    return h;
}

static int quad_table_grow(quad_table *q)
{
    size_t ns = q->nslots ? q->nslots * 2 : 1024;
    uint32_t *slot = calloc(ns, sizeof *slot);
    if (!slot) return -1;
    for (size_t i = 0; i < q->n; i++) {
        size_t j = quad_hash(&q->keys[i]) & (ns - 1);
        while (slot[j]) j = (j + 1) & (ns - 1);
        slot[j] = (uint32_t)i + 1;
    }
    free(q->slot);
    q->slot = slot;
    q->nslots = ns;
    return 0;
}

/* The index of key, added at the end (*added = 1) if new; SIZE_MAX on OOM. */
static size_t quad_index(quad_table *q, const quad *key, int *added)
{
    *added = 0;
    if ((q->n + 1) * 2 > q->nslots && quad_table_grow(q)) return SIZE_MAX;
    size_t j = quad_hash(key) & (q->nslots - 1);
    for (; q->slot[j]; j = (j + 1) & (q->nslots - 1))
        if (memcmp(&q->keys[q->slot[j] - 1], key, sizeof *key) == 0) return q->slot[j] - 1;
    if (q->n == q->cap) {
        size_t cap = q->cap ? q->cap * 2 : 256;
        quad *k = realloc(q->keys, cap * sizeof *k);
        if (!k) return SIZE_MAX;
        q->keys = k;
        q->cap = cap;
    }
    q->keys[q->n] = *key;
    q->slot[j] = (uint32_t)++q->n;
    *added = 1;
    return q->n - 1;
}

/* Grows *arr (of elements of size sz, *cap of them) to hold index i, zeroing new
 * elements. 0, or -1 on OOM. */
static int grow_for(void **arr, size_t *cap, size_t sz, size_t i)
{
    if (i < *cap) return 0;
    size_t ncap = *cap ? *cap * 2 : 256;
    while (ncap <= i) ncap *= 2;
    void *a = realloc(*arr, ncap * sz);
    if (!a) return -1;
    memset((char *)a + *cap * sz, 0, (ncap - *cap) * sz);
    *arr = a;
    *cap = ncap;
    return 0;
}

/* ---- the whole ---- */

void tsql_cmp_events_free(tsql_cmp_events *e)
{
    free(e->op);
    free(e->phase);
    free(e->cpu_op);
    free(e->t_probe);
    free(e->step);
    free(e->layer);
    free(e->pass);
    free(e->groups);
    free(e->passes);
    free(e->layer_order);
    memset(e, 0, sizeof *e);
}

int tsql_cmp_events_build(const tsql_trace *t, tsql_kop_rules *rules, tsql_cmp_events *out)
{
    const tsql_kernels *K = &t->kernels;
    uint32_t n = K->n;
    tsql_cmp_events *e = out;
    memset(e, 0, sizeof *e);
    e->n = n;
    size_t m = (size_t)n + 1;
    e->op = malloc(m);
    e->phase = calloc(m, 1);
    e->cpu_op = malloc(m * sizeof *e->cpu_op);
    e->t_probe = malloc(m * sizeof *e->t_probe);
    e->step = malloc(m * sizeof *e->step);
    e->layer = malloc(m * sizeof *e->layer);
    e->pass = malloc(m * sizeof *e->pass);
    uint8_t *aphase = calloc(m, 1);
    markers steps = {0}, phases = {0};
    layer_inst *li = NULL;
    uint32_t nli = 0;
    tsql_threads threads = {0};
    uint8_t *step_phases = NULL;
    tsql_u64map memo = {0};
    quad_table gq = {0}, pq = {0};
    size_t gcap = 0, pcap = 0;
    int rc = -1;
    if (!e->op || !e->phase || !e->cpu_op || !e->t_probe || !e->step || !e->layer || !e->pass || !aphase)
        goto done;
    if (tsql_u64map_init(&memo, n)) goto done; /* at most one key per event */

    /* operation (one rule match per distinct name and CPU op), probe time, the phase
     * an Attention kernel's name says */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t u = K->uid[i], name = t->name[u];
        uint32_t cpu = K->op[i] != TSQL_NONE ? t->name[K->op[i]] : 0;
        e->cpu_op[i] = cpu;
        uint8_t op = TSQL_CMP_NO_OP;
        if (name) {
            int64_t key = (int64_t)((uint64_t)name << 32 | cpu);
            uint32_t v = tsql_u64map_get(&memo, key);
            if (v == UINT32_MAX) {
                v = tsql_kop_label_id(tsql_kop_classify_memo(rules, tsql_intern_str(&t->strings, name),
                                                             tsql_intern_str(&t->strings, cpu)));
                tsql_u64map_put(&memo, key, v, 0);
            }
            op = (uint8_t)v;
        }
        e->op[i] = op;
        uint32_t l = K->runtime[i];
        e->t_probe[i] = l != TSQL_NONE && t->ts_ns[l] != TSQL_NULL ? tsql_trace_ts_us(t, l) : ts_or_nan(t, u);
        if (op == TSQL_KOP_ATTENTION) {
            if (has_glob(t, name, "*decode*")) aphase[i] = TSQL_PHASE_DECODE;
            else if (has_glob(t, name, "*prefill*")) aphase[i] = TSQL_PHASE_PREFILL;
        }
    }

    /* step and marker phase; then the phase of each step from its Attention kernels */
    if (markers_collect(t, 1, &steps) || markers_collect(t, 2, &phases)) goto done;
    step_phases = calloc((size_t)steps.n + 1, 1); /* bit (1 << phase) per step */
    if (!step_phases) goto done;
    for (uint32_t i = 0; i < n; i++) {
        e->step[i] = markers_find(&steps, e->t_probe[i]);
        uint32_t p = markers_find(&phases, e->t_probe[i]);
        e->phase[i] = p ? phases.phase[p - 1] : TSQL_PHASE_NONE;
        if (aphase[i] && e->step[i]) step_phases[e->step[i]] |= (uint8_t)(1u << aphase[i]);
    }
    for (uint32_t i = 0; i < n; i++) {
        if (e->phase[i]) continue;
        if (aphase[i]) e->phase[i] = aphase[i];
        else if (e->step[i]) {
            uint8_t b = step_phases[e->step[i]];
            e->phase[i] = b == (1u << TSQL_PHASE_PREFILL) ? TSQL_PHASE_PREFILL
                          : b == (1u << TSQL_PHASE_DECODE) ? TSQL_PHASE_DECODE
                          : b ? TSQL_PHASE_MIXED : TSQL_PHASE_NONE;
        }
    }

    /* layers and passes */
    for (uint32_t i = 0; i < n; i++) {
        e->layer[i] = TSQL_CMP_NO_LAYER;
        e->pass[i] = TSQL_CMP_NO_PASS;
    }
    if (find_layer_insts(t, &li, &nli)) goto done;
    e->module_layers = nli > 0;
    if (nli > 0) {
        /* threads as SQL compares pid and tid, over the instances and the launches */
        uint32_t *ev = malloc(((size_t)nli + n + 1) * sizeof *ev);
        size_t nev = 0;
        if (!ev) goto done;
        for (uint32_t j = 0; j < nli; j++) ev[nev++] = li[j].uid;
        for (uint32_t i = 0; i < n; i++)
            if (K->runtime[i] != TSQL_NONE) ev[nev++] = K->runtime[i];
        int bad = tsql_threads_build(t, ev, nev, &threads);
        free(ev);
        if (bad) goto done;
        for (uint32_t j = 0; j < nli; j++) li[j].thread = tsql_threads_key(&threads, t, li[j].uid);
        qsort(li, nli, sizeof *li, layer_inst_cmp);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t l = K->runtime[i];
            if (l == TSQL_NONE) continue;
            const layer_inst *x = layer_find(li, nli, tsql_threads_key(&threads, t, l), e->t_probe[i]);
            if (x) {
                e->layer[i] = x->layer;
                e->pass[i] = x->pass;
            }
        }
    } else if (pattern_layers(t, e)) {
        goto done;
    }

    /* the groups compare_ops and compare_layers sum, and the forward passes of each
     * phase */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t u = K->uid[i];
        quad key = {{t->name[u], e->cpu_op[i], (uint32_t)e->op[i] << 8 | e->phase[i], (uint32_t)e->layer[i]}};
        int added;
        size_t g = quad_index(&gq, &key, &added);
        if (g == SIZE_MAX || grow_for((void **)&e->groups, &gcap, sizeof *e->groups, g)) goto done;
        tsql_cmp_group *gr = &e->groups[g];
        if (added) *gr = (tsql_cmp_group){t->name[u], e->cpu_op[i], e->op[i], e->phase[i], e->layer[i], 0, 0, 0};
        gr->n++;
        if (t->dur_ns[u] != TSQL_NULL) {
            gr->ndur++;
            gr->dur_ns += t->dur_ns[u];
        }
        if (e->pass[i] == TSQL_CMP_NO_PASS) continue;
        quad pkey = {{e->phase[i], e->pass[i], 0, 0}};
        size_t p = quad_index(&pq, &pkey, &added);
        if (p == SIZE_MAX || grow_for((void **)&e->passes, &pcap, sizeof *e->passes, p)) goto done;
        if (added) e->passes[p] = (tsql_cmp_pass){e->phase[i], e->pass[i], 0};
        e->passes[p].n++;
    }
    e->ngroups = gq.n;
    e->npasses = pq.n;

    rc = 0;
done:
    free(aphase);
    markers_free(&steps);
    markers_free(&phases);
    free(li);
    tsql_threads_free(&threads);
    free(step_phases);
    tsql_u64map_free(&memo);
    quad_table_free(&gq);
    quad_table_free(&pq);
    if (rc) tsql_cmp_events_free(e);
    return rc;
}

/* e->layer_order: the events with a layer in (pass, layer, ts, uid) order. 0 or -1. */
static int layer_order_build(const tsql_trace *t, tsql_cmp_events *e)
{
    uint32_t n = e->n;
    e->layer_order = malloc(((size_t)n + 1) * sizeof *e->layer_order);
    layer_pos *lo = malloc(((size_t)n + 1) * sizeof *lo);
    if (!e->layer_order || !lo) {
        free(e->layer_order);
        e->layer_order = NULL;
        free(lo);
        return -1;
    }
    uint32_t nlo = 0;
    for (uint32_t i = 0; i < n; i++)
        if (e->layer[i] != TSQL_CMP_NO_LAYER) {
            uint32_t u = t->kernels.uid[i];
            lo[nlo++] = (layer_pos){e->pass[i], e->layer[i], order_key(ts_or_nan(t, u)), u, i};
        }
    qsort(lo, nlo, sizeof *lo, layer_pos_cmp);
    for (uint32_t j = 0; j < nlo; j++) e->layer_order[j] = lo[j].row;
    e->nlayer_order = nlo;
    free(lo);
    return 0;
}

int tsql_cmp_kernel_groups(const tsql_trace *t, tsql_cmp_events *e, int phase, tsql_cmp_kernel_group **out,
                           size_t *nout)
{
    *out = NULL;
    *nout = 0;
    if (!e->layer_order && layer_order_build(t, e)) return -1;
    quad_table q = {0};
    tsql_cmp_kernel_group *g = NULL;
    size_t cap = 0;
    /* k of each operation within the current (pass, layer); TSQL_CMP_NO_OP has none */
    uint32_t k[256];
    uint32_t pos = 0, cur_pass = TSQL_CMP_NO_PASS;
    int32_t cur_layer = TSQL_CMP_NO_LAYER;
    for (uint32_t j = 0; j < e->nlayer_order; j++) {
        uint32_t i = e->layer_order[j];
        if (phase >= 0 && e->phase[i] != phase) continue;
        if (e->pass[i] != cur_pass || e->layer[i] != cur_layer) {
            cur_pass = e->pass[i];
            cur_layer = e->layer[i];
            pos = 0;
            memset(k, 0, sizeof k);
        }
        pos++;
        uint8_t op = e->op[i];
        k[op]++;
        if (op == TSQL_CMP_NO_OP) continue; /* no label: in no pair */
        uint32_t u = t->kernels.uid[i];
        quad key = {{(uint32_t)e->layer[i], op, k[op], t->name[u]}};
        int added;
        size_t x = quad_index(&q, &key, &added);
        if (x == SIZE_MAX || grow_for((void **)&g, &cap, sizeof *g, x)) {
            free(g);
            quad_table_free(&q);
            return -1;
        }
        if (added) g[x] = (tsql_cmp_kernel_group){e->layer[i], op, k[op], t->name[u], 0, 0, 0, pos};
        g[x].n++;
        if (t->dur_ns[u] != TSQL_NULL) {
            g[x].ndur++;
            g[x].dur_ns += t->dur_ns[u];
        }
        if (pos < g[x].pos) g[x].pos = pos;
    }
    *out = g;
    *nout = q.n;
    quad_table_free(&q);
    return 0;
}
