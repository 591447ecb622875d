/*
 * python_frame.c — the innermost Python frame at a time on a thread (python_frame.h).
 *
 * Frames are sorted by (thread, ts, uid). The frames of the thread started at or before
 * the time are a prefix of its run; the answer is the last of them whose end reaches
 * the time. The search walks back from the prefix's end, skipping whole blocks of 64
 * and superblocks of 4096 frames whose largest end is before the time, so a query costs
 * at most a few hundred steps, however many frames ended before it.
 */
#include "analysis/python_frame.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/threads.h"
#include "util/sort.h"

#define BLOCK 64u
#define SUPER 4096u

struct tsql_pyframes {
    tsql_threads threads; /* the frames' threads, as SQL compares pid and tid */
    uint32_t n;
    uint64_t *thread;
    double *ts, *te;
    uint32_t *uid;
    double *bmax, *smax; /* the largest te of each block / superblock */
};

static void pyframes_free(void *p)
{
    tsql_pyframes *f = p;
    if (!f) return;
    tsql_threads_free(&f->threads);
    free(f->thread);
    free(f->ts);
    free(f->te);
    free(f->uid);
    free(f->bmax);
    free(f->smax);
    free(f);
}

static void *pyframes_build(tsql_trace *t)
{
    tsql_pyframes *f = calloc(1, sizeof *f);
    if (!f) return NULL;
    uint32_t n = 0;
    for (uint32_t u = 0; u < t->n; u++)
        if (t->kind[u] == TSQL_K_PYTHON && t->ts_ns[u] != TSQL_NULL && t->dur_ns[u] != TSQL_NULL) n++;
    size_t m = (size_t)n + 1;
    uint64_t *key = malloc(m * sizeof *key);
    uint32_t *val = malloc(m * sizeof *val);
    f->thread = malloc(m * sizeof *f->thread);
    f->ts = malloc(m * sizeof *f->ts);
    f->te = malloc(m * sizeof *f->te);
    f->uid = malloc(m * sizeof *f->uid);
    f->bmax = malloc((n / BLOCK + 1) * sizeof *f->bmax);
    f->smax = malloc((n / SUPER + 1) * sizeof *f->smax);
    if (!key || !val || !f->thread || !f->ts || !f->te || !f->uid || !f->bmax || !f->smax) goto fail;
    uint32_t j = 0;
    for (uint32_t u = 0; u < t->n; u++) {
        if (t->kind[u] != TSQL_K_PYTHON || t->ts_ns[u] == TSQL_NULL || t->dur_ns[u] == TSQL_NULL) continue;
        key[j] = tsql_sort_key(tsql_trace_ts_us(t, u));
        val[j++] = u;
    }
    if (tsql_threads_build(t, val, n, &f->threads)) goto fail;
    /* stable sorts: by ts (uids in order within a ts), then by thread */
    if (tsql_radix_sort(key, val, n)) goto fail;
    for (uint32_t i = 0; i < n; i++) key[i] = tsql_threads_key(&f->threads, t, val[i]);
    if (tsql_radix_sort(key, val, n)) goto fail;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t u = val[i];
        f->thread[i] = key[i];
        f->uid[i] = u;
        f->ts[i] = tsql_trace_ts_us(t, u);
        f->te[i] = f->ts[i] + tsql_trace_dur_us(t, u);
        if (i % BLOCK == 0 || f->te[i] > f->bmax[i / BLOCK]) f->bmax[i / BLOCK] = f->te[i];
        if (i % SUPER == 0 || f->te[i] > f->smax[i / SUPER]) f->smax[i / SUPER] = f->te[i];
    }
    f->n = n;
    free(key);
    free(val);
    return f;
fail:
    free(key);
    free(val);
    pyframes_free(f);
    return NULL;
}

static const tsql_cache_kind pyframes_kind = {"python_frame.index", pyframes_build, pyframes_free};

const tsql_pyframes *tsql_pyframes_get(tsql_trace *t)
{
    return tsql_trace_cached(t, &pyframes_kind);
}

uint32_t tsql_pyframe_at(const tsql_pyframes *f, const tsql_trace *t, uint32_t uid, double time)
{
    uint64_t thread;
    if (!f || isnan(time) || tsql_threads_find(&f->threads, t, uid, &thread) != 0) return TSQL_NONE;
    /* the thread's run starts at lo; ub: its first frame started after time */
    uint32_t lo = 0, hi = f->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (f->thread[mid] < thread) lo = mid + 1;
        else hi = mid;
    }
    uint32_t start = lo, ub;
    hi = f->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (f->thread[mid] == thread && f->ts[mid] <= time) lo = mid + 1;
        else hi = mid;
    }
    ub = lo;
    /* the last frame in [start, ub) whose end reaches time */
    for (uint32_t j = ub; j > start;) {
        uint32_t i = j - 1;
        if (j % SUPER == 0 && j - SUPER >= start && f->smax[i / SUPER] < time) {
            j -= SUPER;
        } else if (j % BLOCK == 0 && j - BLOCK >= start && f->bmax[i / BLOCK] < time) {
            j -= BLOCK;
        } else {
            if (f->te[i] >= time) return f->uid[i];
            j--;
        }
    }
    return TSQL_NONE;
}
