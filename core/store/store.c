/* store.c — growing the event columns, warnings, and reading values back. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"

#include "store/colmem.h"

const char *const tsql_kind_names[TSQL_K_COUNT] = {
    "other",  "cpu_op",          "cuda_runtime",        "cuda_driver", "kernel",
    "gpu_memcpy", "gpu_memset",  "python_function",     "user_annotation",
    "gpu_user_annotation",       "ac2g",                "fwdbwd",      "instant", "trace"};
const char *const tsql_link_names[4] = {NULL, "ac2g", "graph", "correlation"};
const char *const tsql_edge_names[4] = {NULL, "cpu", "launch", "python"};

#define ICOLS(t)                                                                       \
    &(t)->correlation, &(t)->external_id, &(t)->stream, &(t)->device, &(t)->seq,      \
        &(t)->python_id, &(t)->python_parent, &(t)->flow_id

/* Bytes per event of the fixed columns (for the memory ceiling). */
static const size_t ROW_BYTES = 3 + 6 * sizeof(uint32_t) + 2 * sizeof(int64_t) + 8 * sizeof(int32_t);

size_t tsql_store_bytes(const tsql_trace *t)
{
    size_t b = (size_t)t->cap * ROW_BYTES + t->cap_pool * sizeof(int64_t) + t->strings.bytes;
    b += t->cap_xd * (sizeof(uint32_t) + 2 * sizeof(double));
    return b;
}

int tsql_store_check_limit(tsql_trace *t, tsql_error *err, int64_t offset)
{
    t->mem_used = tsql_store_bytes(t);
    if (t->mem_limit && t->mem_used > t->mem_limit) {
        tsql_error_set(err, TSQL_ENOMEM, offset,
                       "memory ceiling of %zu MiB reached after %u events; raise it with "
                       "tracesql_config('memory_limit_mb', N)",
                       t->mem_limit >> 20, t->n);
        return -1;
    }
    return 0;
}

#define GROW(arr, cap)                                                                  \
    do {                                                                                \
        void *np_ = tsql_col_realloc((arr), (size_t)(cap) * sizeof *(arr));                     \
        if (!np_) return -1;                                                            \
        (arr) = np_;                                                                    \
    } while (0)

/* Resizes every per-event column to nc rows. 0 or -1 on OOM. */
static int resize_columns(tsql_trace *t, uint32_t nc)
{
    GROW(t->ph, nc);
    GROW(t->kind, nc);
    GROW(t->flags, nc);
    GROW(t->cat, nc);
    GROW(t->name, nc);
    GROW(t->pid, nc);
    GROW(t->tid, nc);
    GROW(t->ts_ns, nc);
    GROW(t->dur_ns, nc);
    GROW(t->args, nc);
    GROW(t->pool_at, nc);
    tsql_icol *cols[] = {ICOLS(t)};
    for (size_t i = 0; i < sizeof cols / sizeof *cols; i++)
        if (tsql_icol_reserve(cols[i], nc)) return -1;
    t->cap = nc;
    return 0;
}

int tsql_store_grow(tsql_trace *t)
{
    uint32_t nc = t->cap ? (t->cap < (1u << 22) ? t->cap * 2 : t->cap + (t->cap >> 1)) : 4096;
    if (nc < t->cap || nc > UINT32_MAX - 2) return -1;
    return resize_columns(t, nc);
}

int tsql_store_reserve_for(tsql_trace *t, int64_t bytes)
{
    /* a trace without a memory ceiling only: the ceiling is checked as the columns
     * grow, and its message counts the events read by then */
    if (t->cap || t->mem_limit || bytes <= 0) return 0;
    uint64_t rows = (uint64_t)bytes / 256; /* Kineto writes ~250-500 bytes an event */
    if (rows <= 4096) return 0;
    if (rows > (1u << 24)) rows = 1u << 24;
    if (resize_columns(t, (uint32_t)rows)) return -1;
    GROW(t->pool, rows);
    t->cap_pool = rows;
    return 0;
}

int tsql_store_shrink(tsql_trace *t)
{
    /* growth leaves up to half of each column unused; give it back before the tree
     * build allocates its own arrays (realloc of large blocks remaps, no copy) */
    uint32_t nc = t->n ? t->n : 1;
    if (nc < t->cap && resize_columns(t, nc)) return -1;
    if (t->npool && t->npool < t->cap_pool) {
        GROW(t->pool, t->npool);
        t->cap_pool = t->npool;
    }
    return 0;
}

/* ---------- appending stores (parallel parse) ---------- */

struct tsql_merge {
    tsql_trace *dst;
    tsql_trace **src;
    int nsrc;
    uint32_t *at;       /* first row of src[k] in dst */
    uint32_t **map;     /* src[k]'s string ids -> dst's */
    size_t *pool_at;    /* first pool value of src[k] in dst */
};

enum { MJ_PH, MJ_KIND, MJ_FLAGS, MJ_TS, MJ_DUR, MJ_CAT, MJ_NAME, MJ_PID, MJ_TID, MJ_ARGS,
       MJ_POOL_AT, MJ_POOL, MJ_ICOL0, MJ_COUNT = MJ_ICOL0 + 8 };

static void merge_free(tsql_merge *m)
{
    if (!m) return;
    for (int k = 0; m->map && k < m->nsrc; k++) free(m->map[k]);
    free(m->map);
    free(m->at);
    free(m->pool_at);
    free(m);
}

tsql_merge *tsql_merge_begin(tsql_trace *dst, tsql_trace **src, int nsrc)
{
    tsql_merge *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->dst = dst;
    m->src = src;
    m->nsrc = nsrc;
    m->at = malloc((size_t)(nsrc ? nsrc : 1) * sizeof *m->at);
    m->map = calloc((size_t)(nsrc ? nsrc : 1), sizeof *m->map);
    m->pool_at = malloc((size_t)(nsrc ? nsrc : 1) * sizeof *m->pool_at);
    if (!m->at || !m->map || !m->pool_at) goto fail;
    uint32_t rows = dst->n;
    size_t pool = dst->npool;
    for (int k = 0; k < nsrc; k++) {
        tsql_trace *s = src[k];
        if (s->n > UINT32_MAX - 2 - rows) goto fail;
        m->at[k] = rows;
        m->pool_at[k] = pool;
        rows += s->n;
        pool += s->npool;
        /* string ids: src's strings in id order, after the pieces before it: the order
         * the serial parse met them in */
        m->map[k] = malloc(((size_t)s->strings.n + 1) * sizeof **m->map);
        if (!m->map[k]) goto fail;
        m->map[k][0] = 0;
        for (uint32_t id = 1; id <= s->strings.n; id++)
            if (!(m->map[k][id] = tsql_intern_add(&dst->strings, s->strings.str[id],
                                                  s->strings.len[id])))
                goto fail;
    }
    if (pool > UINT32_MAX) goto fail; /* pool_at is 32-bit */
    if (rows > dst->cap && resize_columns(dst, rows)) goto fail;
    if (pool > dst->cap_pool) {
        int64_t *np = tsql_col_realloc(dst->pool, pool * sizeof *np);
        if (!np) goto fail;
        dst->pool = np;
        dst->cap_pool = pool;
    }
    return m;
fail:
    merge_free(m);
    return NULL;
}

int tsql_merge_jobs(const tsql_merge *m)
{
    (void)m;
    return MJ_COUNT;
}

/* Copies a column of every source into dst and frees the sources' copies. */
#define MERGE_COPY(col)                                                                 \
    for (int k = 0; k < m->nsrc; k++) {                                                 \
        tsql_trace *s_ = m->src[k];                                                     \
        memcpy(d->col + m->at[k], s_->col, (size_t)s_->n * sizeof *s_->col);            \
        tsql_col_free(s_->col);                                                                  \
        s_->col = NULL;                                                                 \
    }
#define MERGE_IDS(col)                                                                  \
    for (int k = 0; k < m->nsrc; k++) {                                                 \
        tsql_trace *s_ = m->src[k];                                                     \
        const uint32_t *map_ = m->map[k], *x_ = s_->col;                                \
        uint32_t *y_ = d->col + m->at[k];                                               \
        for (uint32_t i = 0; i < s_->n; i++) y_[i] = map_[x_[i]];                       \
        tsql_col_free(s_->col);                                                                  \
        s_->col = NULL;                                                                 \
    }

int tsql_merge_run(tsql_merge *m, int job)
{
    tsql_trace *d = m->dst;
    switch (job) {
    case MJ_PH: MERGE_COPY(ph); break;
    case MJ_KIND: MERGE_COPY(kind); break;
    case MJ_FLAGS: MERGE_COPY(flags); break;
    case MJ_TS: MERGE_COPY(ts_ns); break;
    case MJ_DUR: MERGE_COPY(dur_ns); break;
    case MJ_CAT: MERGE_IDS(cat); break;
    case MJ_NAME: MERGE_IDS(name); break;
    case MJ_PID: MERGE_IDS(pid); break;
    case MJ_TID: MERGE_IDS(tid); break;
    case MJ_ARGS: MERGE_IDS(args); break;
    case MJ_POOL_AT:
        for (int k = 0; k < m->nsrc; k++) {
            tsql_trace *s = m->src[k];
            uint32_t shift = (uint32_t)m->pool_at[k], *y = d->pool_at + m->at[k];
            for (uint32_t i = 0; i < s->n; i++) y[i] = s->pool_at[i] + shift;
            tsql_col_free(s->pool_at);
            s->pool_at = NULL;
        }
        break;
    case MJ_POOL:
        for (int k = 0; k < m->nsrc; k++) {
            tsql_trace *s = m->src[k];
            if (s->npool) memcpy(d->pool + m->pool_at[k], s->pool, s->npool * sizeof *s->pool);
            tsql_col_free(s->pool);
            s->pool = NULL;
        }
        break;
    default: {
        if (job < MJ_ICOL0 || job >= MJ_COUNT) return -1;
        tsql_icol *dc[] = {ICOLS(d)};
        for (int k = 0; k < m->nsrc; k++) {
            tsql_icol *sc[] = {ICOLS(m->src[k])};
            if (tsql_icol_append(dc[job - MJ_ICOL0], m->at[k], sc[job - MJ_ICOL0], m->src[k]->n))
                return -1;
            tsql_icol_free(sc[job - MJ_ICOL0]);
        }
    }
    }
    return 0;
}

int tsql_merge_end(tsql_merge *m, int ok)
{
    tsql_trace *d = m->dst;
    int rc = ok ? 0 : -1;
    for (int k = 0; k < m->nsrc && rc == 0; k++) {
        tsql_trace *s = m->src[k];
        uint32_t at = m->at[k];
        for (size_t i = 0; i < s->nxd && rc == 0; i++)
            rc = tsql_store_exact_double(d, at + s->xd_uid[i], s->xd_ts[i], s->xd_dur[i]);
        for (uint32_t i = 0; i < s->nwarnings && d->nwarnings < TSQL_MAX_WARNINGS && rc == 0; i++) {
            if (d->nwarnings == d->cap_warnings) {
                uint32_t nc = d->cap_warnings ? d->cap_warnings * 2 : 16;
                tsql_warning *nw = realloc(d->warnings, nc * sizeof *nw);
                if (!nw) {
                    rc = -1;
                    break;
                }
                d->warnings = nw;
                d->cap_warnings = nc;
            }
            tsql_warning *w = &d->warnings[d->nwarnings++];
            *w = s->warnings[i];
            if (w->uid >= 0) w->uid += at;
        }
        d->warnings_total += s->warnings_total;
        d->old_spelling += s->old_spelling;
    }
    if (rc == 0 && m->nsrc) {
        tsql_trace *last = m->src[m->nsrc - 1];
        d->n = m->at[m->nsrc - 1] + last->n;
        d->npool = m->pool_at[m->nsrc - 1] + last->npool;
    }
    for (int k = 0; k < m->nsrc; k++) m->src[k]->n = 0, m->src[k]->npool = 0;
    merge_free(m);
    return rc;
}

int tsql_store_append(tsql_trace *dst, tsql_trace *src)
{
    tsql_merge *m = tsql_merge_begin(dst, &src, 1);
    if (!m) return -1;
    int ok = 1;
    for (int j = 0; j < tsql_merge_jobs(m); j++)
        if (tsql_merge_run(m, j)) ok = 0;
    return tsql_merge_end(m, ok);
}

int tsql_store_pool_push(tsql_trace *t, int64_t v)
{
    if (t->npool == t->cap_pool) {
        size_t nc = t->cap_pool ? t->cap_pool * 2 : 4096;
        GROW(t->pool, nc);
        t->cap_pool = nc;
    }
    t->pool[t->npool++] = v;
    return 0;
}

int tsql_store_exact_double(tsql_trace *t, uint32_t uid, double ts, double dur)
{
    if (t->nxd && t->xd_uid[t->nxd - 1] == uid) {
        t->xd_ts[t->nxd - 1] = ts;
        t->xd_dur[t->nxd - 1] = dur;
        return 0;
    }
    if (t->nxd == t->cap_xd) {
        size_t nc = t->cap_xd ? t->cap_xd * 2 : 256;
        GROW(t->xd_uid, nc);
        GROW(t->xd_ts, nc);
        GROW(t->xd_dur, nc);
        t->cap_xd = nc;
    }
    t->xd_uid[t->nxd] = uid;
    t->xd_ts[t->nxd] = ts;
    t->xd_dur[t->nxd] = dur;
    t->nxd++;
    return 0;
}

/* Position of uid in the exact-double side table, or -1. */
static long xd_find(const tsql_trace *t, uint32_t uid)
{
    size_t lo = 0, hi = t->nxd;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (t->xd_uid[mid] < uid) lo = mid + 1; else hi = mid;
    }
    return lo < t->nxd && t->xd_uid[lo] == uid ? (long)lo : -1;
}

double tsql_trace_ts_us(const tsql_trace *t, uint32_t uid)
{
    if (t->flags[uid] & TSQL_F_XD) {
        long i = xd_find(t, uid);
        if (i >= 0) return t->xd_ts[i];
    }
    int64_t ns = t->ts_ns[uid];
    if (ns == TSQL_NULL) return 0.0;
    return tsql_ns_to_us(ns);
}

double tsql_trace_dur_us(const tsql_trace *t, uint32_t uid)
{
    if (t->flags[uid] & TSQL_F_XD) {
        long i = xd_find(t, uid);
        if (i >= 0) return t->xd_dur[i];
    }
    int64_t ns = t->dur_ns[uid];
    if (ns == TSQL_NULL) return 0.0;
    return tsql_ns_to_us(ns);
}

void tsql_trace_warn(tsql_trace *t, int64_t offset, int64_t uid, const char *fmt, ...)
{
    t->warnings_total++;
    if (t->nwarnings >= TSQL_MAX_WARNINGS) return;
    if (t->nwarnings == t->cap_warnings) {
        uint32_t nc = t->cap_warnings ? t->cap_warnings * 2 : 16;
        tsql_warning *nw = realloc(t->warnings, nc * sizeof *nw);
        if (!nw) return;
        t->warnings = nw;
        t->cap_warnings = nc;
    }
    tsql_warning *w = &t->warnings[t->nwarnings++];
    *w = (tsql_warning){.offset = offset, .uid = uid};
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->msg, sizeof w->msg, fmt, ap);
    va_end(ap);
}

/* Appends the decimal text of v. */
static int put_i64(tsql_buf *b, int64_t v)
{
    if (tsql_buf_reserve(b, 24)) return -1;
    b->n += (size_t)snprintf(b->p + b->n, 24, "%lld", (long long)v);
    return 0;
}

long tsql_trace_args_json(const tsql_trace *t, uint32_t uid, tsql_buf *buf)
{
    uint32_t id = t->args[uid];
    if (!id) return 0;
    const char *s = tsql_intern_str(&t->strings, id);
    size_t n = tsql_intern_len(&t->strings, id);
    size_t start = buf->n;
    uint32_t pool = t->pool_at[uid];
    const tsql_icol *cols[] = {NULL, &t->correlation, &t->external_id, &t->stream, &t->device,
                               &t->seq, &t->python_id, &t->python_parent};
    size_t i = 0;
    while (i < n) {
        /* copy up to the next placeholder byte (1..8). Placeholders stand only where a
         * value starts; strings are copied whole, since a malformed file can hold raw
         * control bytes (even NUL) inside them */
        size_t j = i;
        while (j < n && (unsigned char)s[j] > TSQL_PH_POOL) {
            if (s[j++] != '"') continue;
            while (j < n && s[j] != '"') j += s[j] == '\\' ? 2 : 1;
            if (j < n) j++;
        }
        if (j > n) j = n;
        if (tsql_buf_reserve(buf, j - i + 1)) return -1;
        memcpy(buf->p + buf->n, s + i, j - i);
        buf->n += j - i;
        if (j >= n) break;
        unsigned code = (unsigned char)s[j];
        int64_t v = code == TSQL_PH_POOL ? t->pool[pool++] : tsql_icol_get(cols[code], uid);
        if (put_i64(buf, v)) return -1;
        i = j + 1;
    }
    if (tsql_buf_reserve(buf, 1)) return -1;
    buf->p[buf->n] = 0;
    return (long)(buf->n - start);
}

const char *tsql_trace_arg_raw(const tsql_trace *t, uint32_t uid, const char *key, size_t *len)
{
    uint32_t id = t->args[uid];
    if (!id) return NULL;
    return tsql_template_member(tsql_intern_str(&t->strings, id),
                                tsql_intern_len(&t->strings, id), key, len);
}

const char *tsql_template_member(const char *s, size_t n, const char *key, size_t *len)
{
    /* templates are compact: {"k":v,"k2":v2}; walk members at depth 1 */
    tsql_lex lx = {.end = s + n};
    size_t klen = strlen(key);
    const char *p = s + 1;
    const char *end = s + n;
    while (p < end && *p == '"') {
        const char *kend = tsql_lex_string(&lx, p, NULL);
        if (!kend || kend >= end || *kend != ':') return NULL;
        const char *v = kend + 1;
        const char *vend;
        if ((unsigned char)*v <= TSQL_PH_POOL) {
            vend = v + 1;
        } else {
            vend = tsql_lex_skip_value(&lx, v);
            if (!vend) return NULL;
        }
        if ((size_t)(kend - p - 2) == klen && memcmp(p + 1, key, klen) == 0) {
            if ((unsigned char)*v <= TSQL_PH_POOL) return NULL;
            *len = (size_t)(vend - v);
            return v;
        }
        p = vend;
        if (p < end && *p == ',') p++;
    }
    return NULL;
}

typedef struct { int64_t c; uint32_t uid; } corr_pair;

static int cmp_corr(const void *a, const void *b)
{
    const corr_pair *x = a, *y = b;
    if (x->c != y->c) return x->c < y->c ? -1 : 1;
    return x->uid < y->uid ? -1 : x->uid > y->uid;
}

long tsql_trace_find_correlation(tsql_trace *t, int64_t c, uint32_t *count)
{
    if (!t->by_corr) {
        uint32_t m = 0;
        for (uint32_t i = 0; i < t->n; i++)
            if (t->correlation.v[i] != ICOL_NULL) m++;
        corr_pair *pairs = malloc((size_t)(m ? m : 1) * sizeof *pairs);
        uint32_t *idx = malloc((size_t)(m ? m : 1) * sizeof *idx);
        if (!pairs || !idx) {
            free(pairs);
            free(idx);
            return -1;
        }
        m = 0;
        for (uint32_t i = 0; i < t->n; i++) {
            int64_t v = tsql_icol_get(&t->correlation, i);
            if (v != TSQL_NULL) pairs[m++] = (corr_pair){v, i};
        }
        qsort(pairs, m, sizeof *pairs, cmp_corr);
        for (uint32_t i = 0; i < m; i++) idx[i] = pairs[i].uid;
        free(pairs);
        t->by_corr = idx;
        t->nby_corr = m;
    }
    size_t lo = 0, hi = t->nby_corr;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (tsql_icol_get(&t->correlation, t->by_corr[mid]) < c) lo = mid + 1; else hi = mid;
    }
    size_t k = lo;
    while (k < t->nby_corr && tsql_icol_get(&t->correlation, t->by_corr[k]) == c) k++;
    *count = (uint32_t)(k - lo);
    return (long)lo;
}

void *tsql_trace_cache_get(const tsql_trace *t, const tsql_cache_kind *kind)
{
    for (int i = 0; i < TSQL_CACHE_SLOTS && t->cache[i].kind; i++)
        if (t->cache[i].kind == kind) return t->cache[i].value;
    return NULL;
}

int tsql_trace_cache_put(tsql_trace *t, const tsql_cache_kind *kind, void *value)
{
    for (int i = 0; i < TSQL_CACHE_SLOTS; i++)
        if (!t->cache[i].kind || t->cache[i].kind == kind) {
            if (t->cache[i].kind) kind->free(t->cache[i].value);
            t->cache[i].kind = kind;
            t->cache[i].value = value;
            return 0;
        }
    return -1;
}

void *tsql_trace_cached(tsql_trace *t, const tsql_cache_kind *kind)
{
    void *v = tsql_trace_cache_get(t, kind);
    if (v || !(v = kind->build(t))) return v;
    if (tsql_trace_cache_put(t, kind, v) == 0) return v;
    kind->free(v);
    return NULL;
}

static void *build_whole_us(tsql_trace *t)
{
    int *whole = malloc(sizeof *whole);
    if (!whole) return NULL;
    *whole = 1;
    for (uint32_t k = 0; k < t->kernels.n && *whole; k++) {
        int64_t d = t->dur_ns[t->kernels.uid[k]];
        if (d != TSQL_NULL && d % 1000 != 0) *whole = 0;
    }
    return whole;
}
static const tsql_cache_kind WHOLE_US = {"whole_us", build_whole_us, free};

int tsql_trace_whole_us(tsql_trace *t)
{
    const int *whole = tsql_trace_cached(t, &WHOLE_US);
    return whole ? *whole : -1;
}

void tsql_trace_free(tsql_trace *t)
{
    if (!t) return;
    /* later results first: a value may read the columns while it is freed */
    for (int i = TSQL_CACHE_SLOTS; i-- > 0;)
        if (t->cache[i].kind) t->cache[i].kind->free(t->cache[i].value);
    free(t->path);
    tsql_intern_free(&t->strings);
    tsql_col_free(t->ph);
    tsql_col_free(t->kind);
    tsql_col_free(t->flags);
    tsql_col_free(t->cat);
    tsql_col_free(t->name);
    tsql_col_free(t->pid);
    tsql_col_free(t->tid);
    tsql_col_free(t->ts_ns);
    tsql_col_free(t->dur_ns);
    tsql_col_free(t->args);
    tsql_col_free(t->pool_at);
    tsql_icol *cols[] = {ICOLS(t)};
    for (size_t i = 0; i < sizeof cols / sizeof *cols; i++) tsql_icol_free(cols[i]);
    tsql_col_free(t->pool);
    tsql_col_free(t->xd_uid);
    tsql_col_free(t->xd_ts);
    tsql_col_free(t->xd_dur);
    tsql_col_free(t->parent);
    tsql_col_free(t->depth);
    tsql_col_free(t->edge);
    tsql_col_free(t->child_at);
    tsql_col_free(t->child);
    tsql_kernels *k = &t->kernels;
    tsql_col_free(k->uid);
    tsql_col_free(k->runtime);
    tsql_col_free(k->op);
    tsql_col_free(k->root_op);
    tsql_col_free(k->tl_runtime);
    tsql_col_free(k->tl_launcher);
    tsql_col_free(k->link);
    tsql_col_free(k->is_comm);
    free(t->by_corr);
    free(t->metadata);
    free(t->gpu_name);
    free(t->warnings);
    free(t);
}
