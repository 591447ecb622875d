/* module_tree.c — the nn.Module hierarchy and each module's GPU time; see module_tree.h. */
#include "analysis/module_tree.h"
#include "analysis/threads.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text/jsonlex.h"
#include "util/buf.h"
#include "util/interval.h"
#include "util/vec.h"

#define NONE TSQL_NONE
#define PREFIX "nn.Module:"
#define PREFIX_LEN 10
/* The limits the SQL definition of this table had (its recursions' guards), kept so
 * that the rows are the same: parent searches and launch climbs stop after CLIMB_STEPS
 * steps, and modules deeper than MAX_DEPTH are left out. */
#define CLIMB_STEPS 100000
#define MAX_DEPTH 10000

TSQL_VEC(ivvec, tsql_iv, 8)

static int is_module(const tsql_trace *t, uint32_t u)
{
    if (t->kind[u] != TSQL_K_PYTHON || !t->name[u]) return 0;
    return tsql_intern_len(&t->strings, t->name[u]) >= PREFIX_LEN &&
           memcmp(tsql_intern_str(&t->strings, t->name[u]), PREFIX, PREFIX_LEN) == 0;
}

/* Row of module uid u in the uid-sorted uids[0..n), or NONE. */
static uint32_t find_uid(const uint32_t *uids, size_t n, uint32_t u)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (uids[mid] < u) lo = mid + 1; else hi = mid;
    }
    return lo < n && uids[lo] == u ? (uint32_t)lo : NONE;
}

/* end_ns as the events table gives it: ts + dur, NULL if either is or it overflows. */
static int64_t end_ns(const tsql_trace *t, uint32_t u)
{
    int64_t e;
    if (t->ts_ns[u] == TSQL_NULL || t->dur_ns[u] == TSQL_NULL ||
        __builtin_add_overflow(t->ts_ns[u], t->dur_ns[u], &e))
        return TSQL_NULL;
    return e;
}

/* A module start on a thread, in the order a launch looks for the last one before it:
 * by thread, start, longer first, uid. */
typedef struct mstart {
    uint64_t thread;
    int64_t ts, end;
    uint32_t mod;            /* module index */
    uint32_t uid;
} mstart;

static int mstart_cmp(const void *x, const void *y)
{
    const mstart *a = x, *b = y;
    if (a->thread != b->thread) return a->thread < b->thread ? -1 : 1;
    if (a->ts != b->ts) return a->ts < b->ts ? -1 : 1;
    if (a->end != b->end) return a->end > b->end ? -1 : 1;
    return (a->uid > b->uid) - (a->uid < b->uid);
}

/* Output order: ts_ns (NULL first), depth, uid. */
typedef struct morder {
    int64_t ts;
    uint32_t depth, uid, mod;
} morder;

static int morder_cmp(const void *x, const void *y)
{
    const morder *a = x, *b = y;
    if (a->ts != b->ts) return a->ts < b->ts ? -1 : 1; /* TSQL_NULL is INT64_MIN */
    if (a->depth != b->depth) return a->depth < b->depth ? -1 : 1;
    return (a->uid > b->uid) - (a->uid < b->uid);
}

static int depth_desc(const void *x, const void *y)
{
    const morder *a = x, *b = y;
    return (a->depth < b->depth) - (a->depth > b->depth);
}

/* The class and instance of a module name: after "nn.Module:" and leading spaces, a
 * trailing "_<digits>" is the instance. */
static void class_of(const char *s, uint32_t n, uint32_t *off, uint32_t *len, int64_t *inst)
{
    uint32_t a = PREFIX_LEN;
    while (a < n && s[a] == ' ') a++;
    uint32_t e = n;
    while (e > a && s[e - 1] >= '0' && s[e - 1] <= '9') e--;
    *off = a;
    if (e < n && e > a && s[e - 1] == '_') {
        *len = e - 1 - a;
        /* CAST(digits AS INTEGER): saturates at the largest integer */
        uint64_t v = 0;
        for (uint32_t i = e; i < n; i++) {
            unsigned d = (unsigned)(s[i] - '0');
            v = v > (UINT64_C(9223372036854775807) - d) / 10 ? UINT64_C(9223372036854775807) : v * 10 + d;
        }
        *inst = (int64_t)v;
    } else {
        *len = n - a;
        *inst = TSQL_NULL;
    }
}

void tsql_modules_free(tsql_modules *m)
{
    if (!m) return;
    free(m->rows);
    free(m->paths);
    m->rows = NULL;
    m->paths = NULL;
    m->n = 0;
}

int tsql_modules_build(const tsql_trace *t, tsql_modules *out)
{
    memset(out, 0, sizeof *out);
    size_t nm = 0;
    for (uint32_t u = 0; u < t->n; u++) nm += is_module(t, u);
    if (!nm) return 0;

    int rc = -1;
    uint32_t *uids = malloc(nm * sizeof *uids);
    tsql_module *mods = calloc(nm, sizeof *mods);
    uint32_t *full_depth = malloc(nm * sizeof *full_depth); /* UINT32_MAX: not yet known */
    uint32_t *pidx = malloc(nm * sizeof *pidx);               /* parent's index, or NONE */
    uint32_t *stack = malloc(nm * sizeof *stack);
    uint32_t *nself = calloc(nm, sizeof *nself);
    ivvec *self = calloc(nm, sizeof *self), *kids = calloc(nm, sizeof *kids);
    morder *ord = malloc(nm * sizeof *ord);
    mstart *starts = malloc(nm * sizeof *starts);
    uint32_t *ids = NULL;
    tsql_threads cm = {0};
    if (!uids || !mods || !full_depth || !pidx || !stack || !nself || !self || !kids || !ord || !starts) goto done;

    nm = 0;
    for (uint32_t u = 0; u < t->n; u++)
        if (is_module(t, u)) uids[nm++] = u;

    /* parents: up the Python frames to the first module */
    for (size_t i = 0; i < nm; i++) {
        tsql_module *m = &mods[i];
        m->uid = uids[i];
        m->parent = NONE;
        uint32_t a = t->parent[m->uid];
        for (uint32_t steps = 0; a != NONE; steps++) {
            if (is_module(t, a)) {
                m->parent = a;
                break;
            }
            if (steps >= CLIMB_STEPS) break;
            a = t->parent[a];
        }
        const char *s = tsql_intern_str(&t->strings, t->name[m->uid]);
        class_of(s, tsql_intern_len(&t->strings, t->name[m->uid]), &m->class_off, &m->class_len,
                 &m->instance);
        full_depth[i] = UINT32_MAX;
    }
    /* every parent is a module, so it is found; NONE only at the top */
    for (size_t i = 0; i < nm; i++)
        pidx[i] = mods[i].parent == NONE ? NONE : find_uid(uids, nm, mods[i].parent);
    /* depths, walking up to a module whose depth is known or to the top */
    for (size_t i = 0; i < nm; i++) {
        size_t sp = 0;
        uint32_t j = (uint32_t)i, d;
        for (;;) {
            if (full_depth[j] != UINT32_MAX) {
                d = full_depth[j] + 1;
                break;
            }
            if (sp == nm) { /* a cycle, which a tree cannot have: left out */
                d = MAX_DEPTH + 1;
                break;
            }
            stack[sp++] = j;
            if (pidx[j] == NONE) {
                d = 0;
                break;
            }
            j = pidx[j];
        }
        while (sp) full_depth[stack[--sp]] = d++;
    }
    for (size_t i = 0; i < nm; i++) {
        mods[i].depth = full_depth[i];
        if (pidx[i] != NONE) mods[pidx[i]].child_modules++;
    }

    /* canonical threads of the modules and of the launching calls */
    {
        size_t nev = 0;
        if (!(ids = malloc((nm + (size_t)t->kernels.n + 1) * sizeof *ids))) goto done;
        for (size_t i = 0; i < nm; i++) ids[nev++] = uids[i];
        for (uint32_t k = 0; k < t->kernels.n; k++)
            if (t->kernels.runtime[k] != NONE) ids[nev++] = t->kernels.runtime[k];
        if (tsql_threads_build(t, ids, nev, &cm)) goto done;
    }

    /* module starts by thread */
    size_t ns = 0;
    for (size_t i = 0; i < nm; i++) {
        uint32_t u = uids[i];
        int64_t e = end_ns(t, u);
        if (t->ts_ns[u] == TSQL_NULL || e == TSQL_NULL) continue;
        starts[ns++] = (mstart){tsql_threads_key(&cm, t, u), t->ts_ns[u], e, (uint32_t)i, u};
    }
    qsort(starts, ns, sizeof *starts, mstart_cmp);

    /* each launch: the last module started on its thread at or before it, then up to
     * the first one whose span holds it */
    for (uint32_t k = 0; k < t->kernels.n; k++) {
        uint32_t r = t->kernels.runtime[k];
        if (r == NONE || t->ts_ns[r] == TSQL_NULL) continue;
        int64_t at = t->ts_ns[r];
        uint64_t th = tsql_threads_key(&cm, t, r);
        size_t lo = 0, hi = ns; /* first start after (th, at) */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (starts[mid].thread < th || (starts[mid].thread == th && starts[mid].ts <= at)) lo = mid + 1;
            else hi = mid;
        }
        if (lo == 0 || starts[lo - 1].thread != th) continue;
        uint32_t x = starts[lo - 1].mod, inner = NONE;
        for (uint32_t steps = 0;; steps++) {
            uint32_t xu = uids[x];
            int64_t e = end_ns(t, xu);
            if (t->ts_ns[xu] == TSQL_NULL || e == TSQL_NULL) break; /* unknown: no module */
            if (t->ts_ns[xu] <= at && at < e) {
                inner = x;
                break;
            }
            if (pidx[x] == NONE || steps >= CLIMB_STEPS) break;
            x = pidx[x];
        }
        if (inner == NONE) continue;
        nself[inner]++;
        uint32_t g = t->kernels.uid[k];
        if (t->ts_ns[g] == TSQL_NULL || t->dur_ns[g] == TSQL_NULL) continue; /* counted, no time */
        double ts = tsql_trace_ts_us(t, g);
        if (ivvec_push(&self[inner], (tsql_iv){ts, ts + tsql_trace_dur_us(t, g)})) goto done;
    }

    /* busy times bottom-up: a module's union is its own launches' union merged with
     * its children's unions */
    for (size_t i = 0; i < nm; i++) ord[i] = (morder){0, full_depth[i], uids[i], (uint32_t)i};
    qsort(ord, nm, sizeof *ord, depth_desc);
    for (size_t o = 0; o < nm; o++) {
        uint32_t i = ord[o].mod;
        tsql_module *m = &mods[i];
        ivvec *s = &self[i];
        size_t n = tsql_iv_union(s->v, s->n);
        m->self_gpu_time_us = tsql_iv_length(s->v, n);
        s->n = n;
        for (size_t j = 0; j < kids[i].n; j++)
            if (ivvec_push(s, kids[i].v[j])) goto done;
        free(kids[i].v);
        kids[i] = (ivvec){0};
        s->n = tsql_iv_union(s->v, s->n);
        m->gpu_time_us = tsql_iv_length(s->v, s->n);
        m->gpu_events += nself[i];
        if (pidx[i] != NONE) {
            uint32_t p = pidx[i];
            mods[p].gpu_events += m->gpu_events;
            for (size_t j = 0; j < s->n; j++)
                if (ivvec_push(&kids[p], s->v[j])) goto done;
        }
        free(s->v);
        *s = (ivvec){0};
    }
    for (size_t i = 0; i < nm; i++) {
        tsql_module *m = &mods[i];
        m->parent_gpu_time_us = m->pct_of_parent_gpu = NAN;
        if (pidx[i] == NONE) continue;
        double pg = mods[pidx[i]].gpu_time_us;
        m->parent_gpu_time_us = pg;
        if (pg > 0) m->pct_of_parent_gpu = m->gpu_time_us / pg * 100;
    }

    /* paths, parents first; modules deeper than MAX_DEPTH are left out */
    size_t nout = 0, path_bytes = 0;
    for (size_t i = 0; i < nm; i++)
        if (full_depth[i] <= MAX_DEPTH) ord[nout++] = (morder){0, full_depth[i], uids[i], (uint32_t)i};
    qsort(ord, nout, sizeof *ord, depth_desc);
    for (size_t o = nout; o-- > 0;) { /* depth ascending */
        tsql_module *m = &mods[ord[o].mod];
        size_t plen = pidx[ord[o].mod] == NONE ? 0 : mods[pidx[ord[o].mod]].path_len + 1u;
        plen += m->class_len;
        if (plen > UINT32_MAX) goto done;
        m->path_len = (uint32_t)plen;
        path_bytes += plen;
    }
    if (!(out->paths = malloc(path_bytes ? path_bytes : 1))) goto done;
    size_t at = 0;
    for (size_t o = nout; o-- > 0;) {
        tsql_module *m = &mods[ord[o].mod];
        const char *name = tsql_intern_str(&t->strings, t->name[m->uid]);
        m->path_off = at;
        if (pidx[ord[o].mod] != NONE) {
            const tsql_module *p = &mods[pidx[ord[o].mod]];
            memcpy(out->paths + at, out->paths + p->path_off, p->path_len);
            at += p->path_len;
            out->paths[at++] = '/';
        }
        memcpy(out->paths + at, name + m->class_off, m->class_len);
        at += m->class_len;
    }

    /* the rows, in (ts_ns, depth, uid) order */
    for (size_t o = 0; o < nout; o++) ord[o].ts = t->ts_ns[ord[o].uid];
    qsort(ord, nout, sizeof *ord, morder_cmp);
    if (!(out->rows = malloc((nout ? nout : 1) * sizeof *out->rows))) goto done;
    for (size_t o = 0; o < nout; o++) out->rows[o] = mods[ord[o].mod];
    out->n = nout;
    rc = 0;
done:
    if (rc) tsql_modules_free(out);
    for (size_t i = 0; self && kids && i < nm; i++) {
        free(self[i].v);
        free(kids[i].v);
    }
    tsql_threads_free(&cm);
    free(ids);
    free(starts);
    free(ord);
    free(kids);
    free(self);
    free(nself);
    free(stack);
    free(pidx);
    free(full_depth);
    free(mods);
    free(uids);
    return rc;
}

static void *build_value(tsql_trace *t)
{
    tsql_modules *m = malloc(sizeof *m);
    if (!m) return NULL;
    if (tsql_modules_build(t, m)) {
        free(m);
        return NULL;
    }
    return m;
}

static void free_value(void *v)
{
    tsql_modules_free(v);
    free(v);
}

static const tsql_cache_kind KIND = {"module_tree", build_value, free_value};

const tsql_modules *tsql_modules_get(tsql_trace *t)
{
    return tsql_trace_cached(t, &KIND);
}

const tsql_modules *tsql_modules_peek(const tsql_trace *t)
{
    return tsql_trace_cache_get(t, &KIND);
}
