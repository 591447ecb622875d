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

#include <cjson/cJSON.h>

#include "store/intern.h"
#include "util/buf.h"
#include "util/sort.h"
#include "util/keyset.h"
#include "util/u64map.h"

const char *const tsql_cmp_phase_names[4] = {NULL, "prefill", "decode", "mixed"};
const char *const tsql_cmp_phase_src_names[4] = {NULL, "markers", "shapes", "kernel names"};

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

/* a + b for durations in ns, saturated at the int64 limits: a sum of huge durations stays
 * the largest value rather than wrapping to a negative total (signed overflow is UB) */
static int64_t sat_add(int64_t a, int64_t b)
{
    if (b > 0 && a > INT64_MAX - b) return INT64_MAX;
    if (b < 0 && a < INT64_MIN - b) return INT64_MIN;
    return a + b;
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

/* the phase of a set of phases (bit 1 << phase each): the one, or mixed when several */
static uint8_t phase_of_bits(uint8_t b)
{
    b &= (uint8_t)((1u << TSQL_PHASE_PREFILL) | (1u << TSQL_PHASE_DECODE) | (1u << TSQL_PHASE_MIXED));
    return b == (1u << TSQL_PHASE_PREFILL) ? TSQL_PHASE_PREFILL
           : b == (1u << TSQL_PHASE_DECODE) ? TSQL_PHASE_DECODE
           : b ? TSQL_PHASE_MIXED : TSQL_PHASE_NONE;
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

/* ---- forward passes and layer blocks from the modules that contain attention ---- */

/* A module event, for the lookups by thread and time and the walks to its ancestors. */
typedef struct {
    uint64_t thread;
    double key, end;
    uint32_t uid, cls;
    uint32_t up;      /* index of the nearest enclosing module event, UINT32_MAX if none */
    uint32_t top;     /* index of the outermost top-class module around it (itself included) */
    uint8_t has_attn; /* an Attention kernel was launched inside it */
} mod_ev;

typedef struct {
    mod_ev *m;
    uint32_t n;
    uint32_t *by_time; /* indices by (thread, key, uid) */
} mod_set;

static void mod_set_free(mod_set *s)
{
    free(s->m);
    free(s->by_time);
    memset(s, 0, sizeof *s);
}

typedef struct {
    uint64_t thread;
    double key, end;
    uint32_t uid, k;
} mod_order;

/* by thread, start, then the longer first (the enclosing one), then uid */
static int mod_order_cmp(const void *x, const void *y)
{
    const mod_order *a = x, *b = y;
    if (a->thread != b->thread) return a->thread < b->thread ? -1 : 1;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    double ea = isnan(a->end) ? -INFINITY : a->end, eb = isnan(b->end) ? -INFINITY : b->end;
    if (ea != eb) return ea > eb ? -1 : 1;
    return a->uid < b->uid ? -1 : a->uid > b->uid;
}

static int double_cmp(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

/* The innermost module event enclosing probe on thread (UINT32_MAX if none): the latest
 * started at or before probe, or the first of its ancestors still running then (modules
 * nest on a thread, so an enclosing one is always among them). */
static uint32_t mod_innermost(const mod_set *s, uint64_t thread, double probe)
{
    if (isnan(probe)) return UINT32_MAX;
    uint32_t lo = 0, hi = s->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        const mod_ev *m = &s->m[s->by_time[mid]];
        if (m->thread < thread || (m->thread == thread && m->key <= probe)) lo = mid + 1;
        else hi = mid;
    }
    if (lo == 0 || s->m[s->by_time[lo - 1]].thread != thread) return UINT32_MAX;
    uint32_t k = s->by_time[lo - 1];
    for (uint32_t d = 0; k != UINT32_MAX && d < s->n; d++, k = s->m[k].up)
        if (probe < s->m[k].end) return k;
    return UINT32_MAX;
}

/* The module events of t with their classes (interned in cls), enclosing modules and
 * threads; sorted for mod_innermost. 0, or -1 on OOM. */
static int mod_set_build(const tsql_trace *t, const tsql_threads *threads, tsql_intern *cls, mod_set *s)
{
    memset(s, 0, sizeof *s);
    uint32_t cap = 0;
    uint32_t *cls_of_name = calloc((size_t)t->strings.n + 1, sizeof *cls_of_name);
    int rc = -1;
    if (!cls_of_name) goto done;
    for (uint32_t u = 0; u < t->n; u++) {
        if (t->kind[u] != TSQL_K_PYTHON || !is_module_name(t, t->name[u])) continue;
        uint32_t id = t->name[u];
        if (!cls_of_name[id]) {
            const char *str;
            uint32_t len;
            module_class(t, id, &str, &len);
            if (!(cls_of_name[id] = tsql_intern_add(cls, str, len))) goto done;
        }
        if (s->n == cap) {
            cap = cap ? cap * 2 : 256;
            mod_ev *m = realloc(s->m, cap * sizeof *m);
            if (!m) goto done;
            s->m = m;
        }
        s->m[s->n++] = (mod_ev){tsql_threads_key(threads, t, u), order_key(ts_or_nan(t, u)), end_or_nan(t, u), u,
                                cls_of_name[id], UINT32_MAX, UINT32_MAX, 0};
    }
    s->by_time = malloc(((size_t)s->n + 1) * sizeof *s->by_time);
    mod_order *o = malloc(((size_t)s->n + 1) * sizeof *o);
    uint32_t *stack = malloc(((size_t)s->n + 1) * sizeof *stack);
    if (!s->by_time || !o || !stack) {
        free(o);
        free(stack);
        goto done;
    }
    for (uint32_t k = 0; k < s->n; k++) o[k] = (mod_order){s->m[k].thread, s->m[k].key, s->m[k].end, s->m[k].uid, k};
    qsort(o, s->n, sizeof *o, mod_order_cmp);
    /* the enclosing module by time on the thread (the recorded Python parent ids can
     * skip a level) */
    uint32_t depth = 0;
    for (uint32_t j = 0; j < s->n; j++) {
        mod_ev *m = &s->m[o[j].k];
        s->by_time[j] = o[j].k;
        while (depth && (s->m[stack[depth - 1]].thread != m->thread || !(m->key < s->m[stack[depth - 1]].end)))
            depth--;
        m->up = depth ? stack[depth - 1] : UINT32_MAX;
        stack[depth++] = o[j].k;
    }
    free(o);
    free(stack);
    rc = 0;
done:
    free(cls_of_name);
    if (rc) mod_set_free(s);
    return rc;
}

/* The forward passes: the instances of the top class (the class of the outermost module
 * around the Attention launches, the most frequent one) that no other instance of it
 * encloses, as sorted start keys (*tops, *ntops; none when no Attention kernel is
 * launched inside a module). Marks has_attn and top on s. 0, or -1 on OOM. */
static int find_tops(const tsql_trace *t, const tsql_cmp_events *e, const tsql_threads *threads, mod_set *s,
                     uint32_t ncls, double **tops, uint32_t *ntops)
{
    *tops = NULL;
    *ntops = 0;
    const tsql_kernels *K = &t->kernels;
    uint32_t *votes = calloc((size_t)ncls + 1, sizeof *votes);
    if (!votes) return -1;
    for (uint32_t i = 0; i < e->n; i++) {
        if (e->op[i] != TSQL_KOP_ATTENTION || K->runtime[i] == TSQL_NONE) continue;
        uint64_t th;
        if (tsql_threads_find(threads, t, K->runtime[i], &th) != 0) continue;
        uint32_t k = mod_innermost(s, th, e->t_probe[i]), outer = UINT32_MAX;
        for (uint32_t d = 0; k != UINT32_MAX && d < s->n; d++, k = s->m[k].up) {
            s->m[k].has_attn = 1;
            outer = k;
        }
        if (outer != UINT32_MAX) votes[s->m[outer].cls]++;
    }
    uint32_t top = 0;
    for (uint32_t c = 1; c <= ncls; c++)
        if (votes[c] > votes[top]) top = c;
    free(votes);
    if (!top) return 0;
    uint32_t n = 0;
    for (uint32_t k = 0; k < s->n; k++) {
        uint32_t found = UINT32_MAX;
        for (uint32_t j = k, d = 0; j != UINT32_MAX && d < s->n; d++, j = s->m[j].up)
            if (s->m[j].cls == top) found = j;
        s->m[k].top = found;
        if (found == k) n++;
    }
    double *keys = malloc(((size_t)n + 1) * sizeof *keys);
    if (!keys) return -1;
    n = 0;
    for (uint32_t k = 0; k < s->n; k++)
        if (s->m[k].top == k) keys[n++] = s->m[k].key;
    qsort(keys, n, sizeof *keys, double_cmp);
    *tops = keys;
    *ntops = n;
    return 0;
}

/* The forward pass (1-based) of a probe time: the latest pass started at or before it;
 * work before the first pass belongs to the first. 0 when there is no pass. */
static uint32_t top_pass(const double *tops, uint32_t n, double probe)
{
    if (n == 0) return 0;
    if (isnan(probe)) return 1;
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (tops[mid] <= probe) lo = mid + 1;
        else hi = mid;
    }
    return lo ? lo : 1;
}

/* The layer blocks under the forward passes: every instance of a block class that no
 * other block instance encloses. A class is a block class when an instance of it holds
 * attention, it has >= 2 instances in one pass, and no instance of it is the direct
 * parent module of >= 2 instances of another such class (that is a container: a stack
 * of layers, a tower). Layers are numbered along their pass by (ts, uid), passes by
 * their start. *out (malloc'd, *nout; none when no class qualifies). 0, or -1 on OOM. */
static int find_block_insts(const mod_set *s, uint32_t ncls, const double *tops, uint32_t ntops, layer_inst **out,
                            uint32_t *nout)
{
    *out = NULL;
    *nout = 0;
    int rc = -1;
    tsql_u64map per_pass = {0}, per_parent = {0};
    uint32_t *cnt_pass = NULL, *cnt_parent = NULL;
    uint8_t *cand = calloc((size_t)ncls + 1, 1), *container = calloc((size_t)ncls + 1, 1);
    layer_inst *li = NULL;
    parent_order *numbered = NULL;
    if (!cand || !container || tsql_u64map_init(&per_pass, s->n) || tsql_u64map_init(&per_parent, s->n)) goto done;
    cnt_pass = calloc((size_t)s->n + 1, sizeof *cnt_pass);
    cnt_parent = calloc((size_t)s->n + 1, sizeof *cnt_parent);
    if (!cnt_pass || !cnt_parent) goto done;
    /* candidates: classes with >= 2 instances in one pass, one of which holds attention */
    uint8_t *attn = calloc((size_t)ncls + 1, 1);
    if (!attn) goto done;
    for (uint32_t k = 0; k < s->n; k++)
        if (s->m[k].has_attn) attn[s->m[k].cls] = 1;
    uint32_t ng = 0;
    for (uint32_t k = 0; k < s->n; k++) {
        const mod_ev *m = &s->m[k];
        if (!attn[m->cls] || m->top == UINT32_MAX || m->top == k) continue;
        int64_t key = (int64_t)((uint64_t)m->top << 32 | m->cls);
        uint32_t sl = tsql_u64map_slot(&per_pass, key);
        if (per_pass.vals[sl] == UINT32_MAX) {
            per_pass.keys[sl] = key;
            per_pass.vals[sl] = ng++;
            per_pass.n++;
        }
        if (++cnt_pass[per_pass.vals[sl]] >= 2) cand[m->cls] = 1;
    }
    free(attn);
    /* containers: a candidate instance that directly holds >= 2 of another candidate */
    ng = 0;
    for (uint32_t k = 0; k < s->n; k++) {
        const mod_ev *m = &s->m[k];
        if (!cand[m->cls] || m->up == UINT32_MAX || m->top == k) continue;
        const mod_ev *p = &s->m[m->up];
        if (!cand[p->cls] || p->cls == m->cls) continue;
        int64_t key = (int64_t)((uint64_t)m->up << 32 | m->cls);
        uint32_t sl = tsql_u64map_slot(&per_parent, key);
        if (per_parent.vals[sl] == UINT32_MAX) {
            per_parent.keys[sl] = key;
            per_parent.vals[sl] = ng++;
            per_parent.n++;
        }
        if (++cnt_parent[per_parent.vals[sl]] >= 2) container[p->cls] = 1;
    }
    li = malloc(((size_t)s->n + 1) * sizeof *li);
    numbered = malloc(((size_t)s->n + 1) * sizeof *numbered);
    if (!li || !numbered) goto done;
    uint32_t n = 0;
    for (uint32_t k = 0; k < s->n; k++) {
        const mod_ev *m = &s->m[k];
        if (!cand[m->cls] || container[m->cls] || m->top == UINT32_MAX || m->top == k) continue;
        int inner = 0; /* enclosed by another block instance */
        for (uint32_t j = m->up, d = 0; j != UINT32_MAX && j != m->top && d < s->n; d++, j = s->m[j].up)
            if (cand[s->m[j].cls] && !container[s->m[j].cls]) inner = 1;
        if (inner) continue;
        li[n] = (layer_inst){m->thread, m->key, m->end, m->uid, 0, top_pass(tops, ntops, s->m[m->top].key)};
        numbered[n] = (parent_order){s->m[m->top].key, s->m[m->top].uid, m->key, m->uid, n};
        n++;
    }
    qsort(numbered, n, sizeof *numbered, parent_order_cmp);
    for (uint32_t j = 0, layer = 0; j < n; j++) {
        if (j == 0 || numbered[j].parent != numbered[j - 1].parent) layer = 0;
        li[numbered[j].i].layer = (int32_t)layer++;
    }
    if (n > 0) {
        *out = li;
        *nout = n;
        li = NULL;
    }
    rc = 0;
done:
    tsql_u64map_free(&per_pass);
    tsql_u64map_free(&per_parent);
    free(cnt_pass);
    free(cnt_parent);
    free(cand);
    free(container);
    free(li);
    free(numbered);
    return rc;
}

/* ---- backward work ---- */

/* 1 if the name ends in "Backward" or "Backward<digits>" (autograd nodes:
 * AddmmBackward0, CompiledFunctionBackward), case kept: Inductor's forward kernels may be
 * named ..._layer_norm_backward */
static int is_backward_node(const tsql_trace *t, uint32_t id)
{
    if (!id) return 0;
    const char *s = tsql_intern_str(&t->strings, id);
    uint32_t n = tsql_intern_len(&t->strings, id);
    while (n && s[n - 1] >= '0' && s[n - 1] <= '9') n--;
    return n >= 8 && memcmp(s + n - 8, "Backward", 8) == 0;
}

#define BACKWARD_LOOKUP_DEPTH 32 /* CPU ops above a launch looked at for an autograd node */

/* 1 if the CPU op cpu (or one of its CPU ancestors) is autograd's backward work */
static int is_backward_op(const tsql_trace *t, uint32_t cpu)
{
    for (int d = 0; d < BACKWARD_LOOKUP_DEPTH && cpu != TSQL_NONE; d++, cpu = t->parent[cpu]) {
        uint32_t id = t->name[cpu];
        if (has_glob(t, id, "autograd::engine::evaluate_function:*") || is_backward_node(t, id)) return 1;
    }
    return 0;
}

/* ---- phases from the attention query length ---- */

/* The query length of an attention call from its CPU op's Input Dims: 0 if unknown.
 * *varlen_phase is set for a variable-length batch (query [tokens, heads, dim] with
 * cumulative sequence lengths [sequences + 1]): decode when every sequence has one
 * token, mixed when the counts prove both kinds, else prefill. */
typedef struct {
    tsql_buf buf;
} shape_ctx;

static const cJSON *dims_at(const cJSON *dims, int i)
{
    const cJSON *d = cJSON_GetArrayItem(dims, i);
    return cJSON_IsArray(d) ? d : NULL;
}

static double dim_at(const cJSON *d, int i)
{
    const cJSON *x = d ? cJSON_GetArrayItem(d, i) : NULL;
    return x && cJSON_IsNumber(x) ? x->valuedouble : -1;
}

/* layouts of the attention ops whose first input is the query */
enum { LAYOUT_NONE, LAYOUT_BHLD, LAYOUT_BLHD };

static int attention_layout(const tsql_trace *t, uint32_t id)
{
    if (has_glob(t, id, "*backward*")) return LAYOUT_NONE;
    if (has_glob(t, id, "aten::*scaled_dot_product*attention*") || has_glob(t, id, "aten::_cudnn_attention_forward"))
        return LAYOUT_BHLD;
    if (has_glob(t, id, "aten::_flash_attention_forward") || has_glob(t, id, "aten::_efficient_attention_forward") ||
        has_glob(t, id, "flash_attn::*") || has_glob(t, id, "*flash_attn*func*"))
        return LAYOUT_BLHD;
    return LAYOUT_NONE;
}

/* The phase one attention call says (0 if it says none): walks up from the innermost CPU
 * op of the launch to the outermost op of a known layout among its first ancestors. */
static uint8_t call_phase(const tsql_trace *t, uint32_t cpu, shape_ctx *c, int *oom)
{
    uint32_t best = TSQL_NONE;
    int layout = LAYOUT_NONE;
    for (int d = 0; d < BACKWARD_LOOKUP_DEPTH && cpu != TSQL_NONE; d++, cpu = t->parent[cpu]) {
        int l = t->kind[cpu] == TSQL_K_CPU_OP ? attention_layout(t, t->name[cpu]) : LAYOUT_NONE;
        if (l) {
            best = cpu;
            layout = l;
        }
    }
    if (best == TSQL_NONE || !t->args[best]) return TSQL_PHASE_NONE;
    c->buf.n = 0;
    if (tsql_trace_args_json(t, best, &c->buf) < 0 || tsql_buf_reserve(&c->buf, 1)) {
        *oom = 1;
        return TSQL_PHASE_NONE;
    }
    cJSON *a = cJSON_ParseWithLength(c->buf.p, c->buf.n);
    if (!a) return TSQL_PHASE_NONE;
    uint8_t phase = TSQL_PHASE_NONE;
    const cJSON *dims = cJSON_GetObjectItemCaseSensitive(a, "Input Dims");
    const cJSON *q = cJSON_IsArray(dims) ? dims_at(dims, 0) : NULL;
    int rank = q ? cJSON_GetArraySize(q) : 0;
    double len = -1;
    if (rank == 4) len = dim_at(q, layout == LAYOUT_BHLD ? 2 : 1);
    else if (rank == 3 && layout == LAYOUT_BLHD) {
        /* variable length: q [tokens, heads, dim], cu_seqlens_q [sequences + 1] */
        double tokens = dim_at(q, 0), seqs = dim_at(dims_at(dims, 3), 0) - 1;
        const cJSON *conc = cJSON_GetObjectItemCaseSensitive(a, "Concrete Inputs");
        const cJSON *mq = cJSON_IsArray(conc) ? cJSON_GetArrayItem(conc, 5) : NULL;
        double maxq = mq && cJSON_IsString(mq) && mq->valuestring[0] ? atof(mq->valuestring) : -1;
        if (tokens >= 1 && seqs >= 1) {
            if (tokens == seqs || maxq == 1) phase = TSQL_PHASE_DECODE;
            else if (tokens < 2 * seqs || (maxq > 1 && seqs >= 2 && tokens - maxq < 2 * (seqs - 1)))
                phase = TSQL_PHASE_MIXED; /* some sequence must have one token, some more */
            else phase = TSQL_PHASE_PREFILL;
        }
    }
    if (len >= 1) phase = len > 1 ? TSQL_PHASE_PREFILL : TSQL_PHASE_DECODE;
    cJSON_Delete(a);
    return phase;
}

/* ---- layers from kernel patterns ---- */

enum { MARK_NONE = 0, MARK_NORM, MARK_ATTN };

#define POW_LOOKBACK 4 /* kernels before an unfused norm's rsqrt where its pow is looked for */

/* the mark of a forward event: a norm kernel (fused or not), an unfused norm's rsqrt
 * (eager RMSNorm runs pow, mean, add, rsqrt, mul), an Attention kernel */
static int mark_of(const tsql_trace *t, const tsql_cmp_events *e, uint32_t i)
{
    switch (e->op[i]) {
    case TSQL_KOP_RMSNORM:
    case TSQL_KOP_LAYERNORM:
    case TSQL_KOP_RMSNORM_GEMM:
    case TSQL_KOP_LAYERNORM_GEMM: return MARK_NORM;
    case TSQL_KOP_ATTENTION: return MARK_ATTN;
    case TSQL_KOP_ELEMENTWISE:
        if (has_glob(t, e->cpu_op[i], "aten::rsqrt*")) return MARK_NORM;
        if (!e->cpu_op[i] && has_glob(t, t->name[t->kernels.uid[i]], "*rsqrt*")) return MARK_NORM;
        return MARK_NONE;
    default: return MARK_NONE;
    }
}

static int is_pow(const tsql_trace *t, const tsql_cmp_events *e, uint32_t i)
{
    return e->cpu_op[i] ? has_glob(t, e->cpu_op[i], "aten::pow*") : has_glob(t, t->name[t->kernels.uid[i]], "*pow*");
}

typedef struct {
    uint32_t seg;
    double key;
    uint32_t uid, row;
} pass_order;

static int pass_order_cmp(const void *x, const void *y)
{
    const pass_order *a = x, *b = y;
    if (a->seg != b->seg) return a->seg < b->seg ? -1 : 1;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    return a->uid < b->uid ? -1 : a->uid > b->uid;
}

#define MAX_NORMS_BETWEEN 64 /* norms between an attention and the next layer start, counted */

/* where a norm mark at j starts: an unfused norm at its pow */
static uint32_t norm_start(const tsql_trace *t, const tsql_cmp_events *e, const pass_order *o, const uint8_t *bwd,
                           uint32_t a, uint32_t j)
{
    if (e->op[o[j].row] != TSQL_KOP_ELEMENTWISE) return j;
    for (uint32_t back = 1; back <= POW_LOOKBACK && j >= a + back; back++)
        if (!bwd[o[j - back].row] && is_pow(t, e, o[j - back].row)) return j - back;
    return j;
}

/* The (p + 1)-th norm mark after position from, before limit: the final norm; flags it. */
static void flag_end(const tsql_trace *t, const tsql_cmp_events *e, const pass_order *o, const uint8_t *mark,
                     const uint8_t *bwd, uint32_t a, uint32_t from, uint32_t limit, uint32_t p, uint8_t *flag)
{
    uint32_t seen = 0;
    for (uint32_t j = from + 1; j < limit; j++)
        if (mark[j] == MARK_NORM && ++seen == p + 1) {
            flag[norm_start(t, e, o, bwd, a, j)] |= 2;
            return;
        }
}

/* The flags of one segment [a, b) of the sorted events. A layer starts at the norm
 * whose next mark is Attention, or q norms before it (below). Between a layer's attention and the next layer's start a model
 * runs the same number k of norms (the most frequent count): p after the attention that
 * belong to the layer (post-attention norms), q before the next start (e.g. Qwen3's
 * input, q and k norms: the start is the last one), q counted before the first start.
 * Where more than k norms separate them, the run of layers ends at the (p + 1)-th norm
 * after the attention (the final norm; the next start begins another pass); the last
 * layer's run ends there too. spos, sattn, sk: scratch, one per position. */
static void segment_flags(const tsql_trace *t, const tsql_cmp_events *e, const pass_order *o, const uint8_t *mark,
                          const uint8_t *bwd, uint32_t a, uint32_t b, uint8_t *next, uint8_t *flag, uint32_t *spos,
                          uint32_t *sattn, uint32_t *sk)
{
    uint8_t nx = MARK_NONE;
    for (uint32_t j = b; j-- > a;) {
        next[j] = nx;
        if (mark[j]) nx = mark[j];
    }
    /* the starts, with the last attention before each and the norms since it */
    uint32_t ns = 0, last_attn = UINT32_MAX, norms = 0, q = 0;
    for (uint32_t j = a; j < b; j++) {
        if (mark[j] == MARK_ATTN) {
            last_attn = j;
            norms = 0;
        } else if (mark[j] == MARK_NORM && next[j] == MARK_ATTN) {
            if (ns == 0) q = norms;
            spos[ns] = j;
            sattn[ns] = ns > 0 && last_attn != UINT32_MAX && last_attn > spos[ns - 1] ? last_attn : UINT32_MAX;
            sk[ns] = norms;
            ns++;
            norms = 0;
        } else if (mark[j] == MARK_NORM) {
            norms++;
        }
    }
    if (ns == 0) return;
    uint32_t hist[MAX_NORMS_BETWEEN + 1] = {0}, k = 0, best = 0;
    for (uint32_t i = 1; i < ns; i++)
        if (sattn[i] != UINT32_MAX && sk[i] <= MAX_NORMS_BETWEEN) hist[sk[i]]++;
    for (uint32_t v = 0; v <= MAX_NORMS_BETWEEN; v++)
        if (hist[v] > best) {
            best = hist[v];
            k = v;
        }
    uint32_t p = best == 0 ? 1 : k >= q ? k - q : k;
    for (uint32_t i = 0; i < ns; i++) {
        /* the layer starts at its first norm: q norms before the one next to attention */
        uint32_t s = spos[i], seen = 0, stop = i > 0 && sattn[i] != UINT32_MAX ? sattn[i] : a;
        for (uint32_t j = spos[i]; j > stop && seen < q; j--)
            if (mark[j - 1] == MARK_NORM) {
                s = j - 1;
                seen++;
            }
        flag[norm_start(t, e, o, bwd, a, s)] |= 1;
        if (i > 0 && sattn[i] != UINT32_MAX && best > 0 && sk[i] > k)
            flag_end(t, e, o, mark, bwd, a, sattn[i], spos[i], p, flag);
    }
    /* the last layer: from its last attention */
    uint32_t la = UINT32_MAX;
    for (uint32_t j = spos[ns - 1]; j < b; j++)
        if (mark[j] == MARK_ATTN) la = j;
    if (la != UINT32_MAX) flag_end(t, e, o, mark, bwd, a, la, b, p, flag);
}

/* Layers from the marks of the forward events in GPU order (ts, uid), within each
 * forward pass of the top module when there are such passes (have_tops: e->pass is set),
 * else over the whole trace. A layer starts at a norm whose next mark is Attention (at
 * the pow before an unfused norm's rsqrt); the layers of a run end at the final norm
 * (segment_flags): the head and the loss after it are in no layer. Without top passes each run of layers is a forward pass (a new
 * one also when the profiler step changes), and the events up to the next run belong to
 * it; events before the first run belong to the first. Backward events are no marks and
 * in no layer. */
static int pattern_layers(const tsql_trace *t, tsql_cmp_events *e, const uint8_t *bwd, int have_tops)
{
    uint32_t n = e->n;
    pass_order *o = malloc(((size_t)n + 1) * sizeof *o);
    uint8_t *mark = malloc((size_t)n + 1), *next = malloc((size_t)n + 1), *flag = calloc((size_t)n + 1, 1);
    uint32_t *spos = malloc(((size_t)n + 1) * sizeof *spos), *sattn = malloc(((size_t)n + 1) * sizeof *sattn),
             *sk = malloc(((size_t)n + 1) * sizeof *sk);
    if (!o || !mark || !next || !flag || !spos || !sattn || !sk) {
        free(o);
        free(mark);
        free(next);
        free(flag);
        free(spos);
        free(sattn);
        free(sk);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t u = t->kernels.uid[i];
        o[i] = (pass_order){have_tops ? e->pass[i] : 0, order_key(ts_or_nan(t, u)), u, i};
    }
    qsort(o, n, sizeof *o, pass_order_cmp);
    for (uint32_t j = 0; j < n; j++) mark[j] = bwd[o[j].row] ? MARK_NONE : (uint8_t)mark_of(t, e, o[j].row);
    /* flags: 1 a layer starts here, 2 the run's layers end here */
    for (uint32_t a = 0, b; a < n; a = b) {
        for (b = a; b < n && o[b].seg == o[a].seg; b++) {}
        segment_flags(t, e, o, mark, bwd, a, b, next, flag, spos, sattn, sk);
    }
    uint32_t npass = 0, run_step = 0, cur_seg = UINT32_MAX;
    int32_t layer = -1;
    int ended = 1;
    for (uint32_t j = 0; j < n; j++) {
        uint32_t row = o[j].row;
        if (o[j].seg != cur_seg) { /* a new top pass: its layers count from 0 */
            cur_seg = o[j].seg;
            layer = -1;
            ended = 1;
        }
        if (flag[j] & 1) {
            if (!have_tops && (npass == 0 || ended || e->step[row] != run_step)) {
                npass++;
                run_step = e->step[row];
                layer = -1;
            }
            layer++;
            ended = 0;
        }
        if (flag[j] & 2) ended = 1;
        if (!have_tops && npass) e->pass[row] = npass;
        if (layer >= 0 && !ended && !bwd[row]) e->layer[row] = layer;
    }
    if (!have_tops && npass) /* before the first run: the first pass */
        for (uint32_t j = 0; j < n && e->pass[o[j].row] == TSQL_CMP_NO_PASS; j++) e->pass[o[j].row] = 1;
    free(o);
    free(mark);
    free(next);
    free(flag);
    free(spos);
    free(sattn);
    free(sk);
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

/* ---- groups: four-word keys in a tsql_keyset (core/util/keyset.h), each type of group
 * keeping its values in an array indexed like the keys ---- */

typedef struct {
    uint32_t w[4];
} quad;

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
    free(e->phase_src);
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
    e->phase_src = calloc(m, 1);
    uint8_t *aphase = calloc(m, 1), *bwd = calloc(m, 1), *pass_bits = NULL;
    tsql_intern cls; /* module classes */
    tsql_intern_init(&cls);
    mod_set mods = {0};
    double *tops = NULL;
    uint32_t ntops = 0;
    markers steps = {0}, phases = {0};
    layer_inst *li = NULL;
    uint32_t nli = 0;
    tsql_threads threads = {0};
    uint8_t *step_phases = NULL;
    tsql_u64map memo = {0};
    tsql_keyset gq, pq;
    tsql_keyset_init(&gq, sizeof(quad));
    tsql_keyset_init(&pq, sizeof(quad));
    size_t gcap = 0, pcap = 0;
    int rc = -1;
    if (!e->op || !e->phase || !e->cpu_op || !e->t_probe || !e->step || !e->layer || !e->pass || !e->phase_src ||
        !aphase || !bwd)
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

    /* step and marker phase */
    if (markers_collect(t, 1, &steps) || markers_collect(t, 2, &phases)) goto done;
    for (uint32_t i = 0; i < n; i++) {
        e->step[i] = markers_find(&steps, e->t_probe[i]);
        uint32_t p = markers_find(&phases, e->t_probe[i]);
        e->phase[i] = p ? phases.phase[p - 1] : TSQL_PHASE_NONE;
        if (e->phase[i]) e->phase_src[i] = TSQL_PSRC_MARKERS;
        e->layer[i] = TSQL_CMP_NO_LAYER;
        e->pass[i] = TSQL_CMP_NO_PASS;
        bwd[i] = K->op[i] != TSQL_NONE && is_backward_op(t, K->op[i]);
    }

    /* threads as SQL compares pid and tid, over the module events and the launches */
    {
        uint32_t *ev = malloc(((size_t)t->n + 1) * sizeof *ev);
        size_t nev = 0;
        if (!ev) goto done;
        for (uint32_t u = 0; u < t->n; u++)
            if (t->kind[u] == TSQL_K_PYTHON && is_module_name(t, t->name[u])) ev[nev++] = u;
        for (uint32_t i = 0; i < n; i++)
            if (K->runtime[i] != TSQL_NONE) ev[nev++] = K->runtime[i];
        int bad = tsql_threads_build(t, ev, nev, &threads);
        free(ev);
        if (bad) goto done;
    }

    /* forward passes: runs of the top module; layers: its repeated blocks */
    if (mod_set_build(t, &threads, &cls, &mods) ||
        find_tops(t, e, &threads, &mods, cls.n, &tops, &ntops))
        goto done;
    int from_tops = 0;
    if (ntops > 0) {
        for (uint32_t i = 0; i < n; i++) e->pass[i] = top_pass(tops, ntops, e->t_probe[i]);
        if (find_block_insts(&mods, cls.n, tops, ntops, &li, &nli)) goto done;
        from_tops = nli > 0;
    } else if (find_layer_insts(t, &li, &nli)) { /* no attention in a module: the repeated block */
        goto done;
    }
    e->module_layers = nli > 0;
    if (nli > 0) {
        for (uint32_t j = 0; j < nli; j++) li[j].thread = tsql_threads_key(&threads, t, li[j].uid);
        qsort(li, nli, sizeof *li, layer_inst_cmp);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t l = K->runtime[i];
            if (l == TSQL_NONE) continue;
            const layer_inst *x = layer_find(li, nli, tsql_threads_key(&threads, t, l), e->t_probe[i]);
            if (x) {
                e->layer[i] = x->layer;
                if (!from_tops) e->pass[i] = x->pass;
            }
        }
    } else if (pattern_layers(t, e, bwd, ntops > 0)) {
        goto done;
    }

    /* phase from the attention query length of each forward pass (not a pass that runs
     * backward work: a training step has no inference phase) */
    {
        uint32_t maxp = 0;
        for (uint32_t i = 0; i < n; i++)
            if (e->pass[i] != TSQL_CMP_NO_PASS && e->pass[i] > maxp) maxp = e->pass[i];
        pass_bits = calloc((size_t)maxp + 1, 1); /* bit (1 << phase) per pass; 1: backward */
        if (!pass_bits) goto done;
        shape_ctx sc = {{0}};
        int oom = 0;
        uint32_t last_op = TSQL_NONE;
        uint8_t last_phase = 0;
        for (uint32_t i = 0; i < n && !oom; i++) {
            uint32_t p = e->pass[i];
            if (p == TSQL_CMP_NO_PASS) continue;
            if (bwd[i]) pass_bits[p] |= 1;
            else if (e->op[i] == TSQL_KOP_ATTENTION && K->op[i] != TSQL_NONE) {
                if (K->op[i] != last_op) { /* one call launches several kernels */
                    last_op = K->op[i];
                    last_phase = call_phase(t, K->op[i], &sc, &oom);
                }
                if (last_phase) pass_bits[p] |= (uint8_t)(1u << last_phase);
            }
        }
        free(sc.buf.p);
        if (oom) goto done;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t p = e->pass[i];
            if (e->phase[i] || p == TSQL_CMP_NO_PASS || (pass_bits[p] & 1)) continue;
            uint8_t ph = phase_of_bits(pass_bits[p]);
            if (ph) {
                e->phase[i] = ph;
                e->phase_src[i] = TSQL_PSRC_SHAPES;
            }
        }
    }

    /* else the phase an Attention kernel's name says, else its step's */
    step_phases = calloc((size_t)steps.n + 1, 1); /* bit (1 << phase) per step */
    if (!step_phases) goto done;
    for (uint32_t i = 0; i < n; i++)
        if (aphase[i] && e->step[i]) step_phases[e->step[i]] |= (uint8_t)(1u << aphase[i]);
    for (uint32_t i = 0; i < n; i++) {
        if (e->phase[i]) continue;
        if (aphase[i]) {
            e->phase[i] = aphase[i];
            e->phase_src[i] = TSQL_PSRC_KERNEL_NAMES;
        } else if (e->step[i] && step_phases[e->step[i]]) {
            e->phase[i] = phase_of_bits(step_phases[e->step[i]]);
            e->phase_src[i] = TSQL_PSRC_KERNEL_NAMES;
        }
    }

    /* the groups compare_ops and compare_layers sum, and the forward passes of each
     * phase */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t u = K->uid[i];
        quad key = {{t->name[u], e->cpu_op[i], (uint32_t)e->op[i] << 16 | (uint32_t)e->phase_src[i] << 8 | e->phase[i],
                     (uint32_t)e->layer[i]}};
        int added;
        size_t g = tsql_keyset_add(&gq, &key, &added);
        if (g == SIZE_MAX || grow_for((void **)&e->groups, &gcap, sizeof *e->groups, g)) goto done;
        tsql_cmp_group *gr = &e->groups[g];
        if (added)
            *gr = (tsql_cmp_group){t->name[u], e->cpu_op[i], e->op[i], e->phase[i], e->phase_src[i], e->layer[i], 0, 0, 0};
        gr->n++;
        if (t->dur_ns[u] != TSQL_NULL) {
            gr->ndur++;
            gr->dur_ns = sat_add(gr->dur_ns, t->dur_ns[u]);
        }
        if (e->pass[i] == TSQL_CMP_NO_PASS) continue;
        quad pkey = {{e->phase[i], e->pass[i], 0, 0}};
        size_t p = tsql_keyset_add(&pq, &pkey, &added);
        if (p == SIZE_MAX || grow_for((void **)&e->passes, &pcap, sizeof *e->passes, p)) goto done;
        if (added) e->passes[p] = (tsql_cmp_pass){e->phase[i], e->pass[i], 0};
        e->passes[p].n++;
    }
    e->ngroups = gq.n;
    e->npasses = pq.n;

    rc = 0;
done:
    free(aphase);
    free(bwd);
    free(pass_bits);
    tsql_intern_free(&cls);
    mod_set_free(&mods);
    free(tops);
    markers_free(&steps);
    markers_free(&phases);
    free(li);
    tsql_threads_free(&threads);
    free(step_phases);
    tsql_u64map_free(&memo);
    tsql_keyset_free(&gq);
    tsql_keyset_free(&pq);
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
    tsql_keyset q;
    tsql_keyset_init(&q, sizeof(quad));
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
        size_t x = tsql_keyset_add(&q, &key, &added);
        if (x == SIZE_MAX || grow_for((void **)&g, &cap, sizeof *g, x)) {
            free(g);
            tsql_keyset_free(&q);
            return -1;
        }
        if (added) g[x] = (tsql_cmp_kernel_group){e->layer[i], op, k[op], t->name[u], 0, 0, 0, pos};
        g[x].n++;
        if (t->dur_ns[u] != TSQL_NULL) {
            g[x].ndur++;
            g[x].dur_ns = sat_add(g[x].dur_ns, t->dur_ns[u]);
        }
        if (pos < g[x].pos) g[x].pos = pos;
    }
    *out = g;
    *nout = q.n;
    tsql_keyset_free(&q);
    return 0;
}
