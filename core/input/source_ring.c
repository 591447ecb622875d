/* source_ring.c — the ring of text chunks, errors and reads; see source_ring.h. */
#include "input/source_ring.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

void tsql_src_fail(tsql_error *err, int code, int compressed, int64_t offset, const char *fmt, ...)
{
    if (!err || err->code != TSQL_OK) return;
    char msg[sizeof err->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    tsql_error_set(err, code, offset, "%s", msg);
    err->compressed = compressed;
}

ssize_t tsql_src_read_full(int fd, void *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, (char *)buf + got, n - got);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return -1;
        if (r == 0) break;
        got += (size_t)r;
    }
    return (ssize_t)got;
}

ssize_t tsql_src_pread_full(int fd, void *buf, size_t n, int64_t off)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = pread(fd, (char *)buf + got, n - got, (off_t)(off + (int64_t)got));
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return -1;
        if (r == 0) break;
        got += (size_t)r;
    }
    return (ssize_t)got;
}

int tsql_src_ring_init(tsql_source *src)
{
    if (pthread_mutex_init(&src->mu, NULL) != 0) return -1;
    if (pthread_cond_init(&src->can_read, NULL) != 0) {
        pthread_mutex_destroy(&src->mu);
        return -1;
    }
    if (pthread_cond_init(&src->can_write, NULL) != 0) {
        pthread_cond_destroy(&src->can_read);
        pthread_mutex_destroy(&src->mu);
        return -1;
    }
    src->sync_ready = 1;
    return 0;
}

int tsql_src_ring_alloc(tsql_source *src, int nslots, size_t chunk)
{
    src->nslots = nslots;
    src->chunk = chunk;
    src->slot = calloc((size_t)nslots, sizeof *src->slot);
    src->slot_len = calloc((size_t)nslots, sizeof *src->slot_len);
    src->slot_off = calloc((size_t)nslots, sizeof *src->slot_off);
    src->slot_mark = calloc((size_t)nslots, sizeof *src->slot_mark);
    if (!src->slot || !src->slot_len || !src->slot_off || !src->slot_mark) return -1;
    for (int i = 0; i < nslots; i++)
        if (!(src->slot[i] = malloc(chunk))) return -1;
    return 0;
}

/* ---- producer side ---- */

unsigned char *tsql_src_ring_acquire(tsql_source *src)
{
    pthread_mutex_lock(&src->mu);
    while (src->hi - src->lo >= src->nslots && !src->stop)
        pthread_cond_wait(&src->can_write, &src->mu);
    unsigned char *buf = src->stop ? NULL : src->slot[src->hi % src->nslots];
    pthread_mutex_unlock(&src->mu);
    return buf;
}

void tsql_src_ring_publish(tsql_source *src, size_t len)
{
    /* the slot is still the producer's: the hook reads it without the lock */
    int i = (int)(src->hi % src->nslots);
    int64_t mark = src->mark ? src->mark(src->mark_ctx, src->hi, src->produced,
                                         (const char *)src->slot[i], len)
                             : -1;
    pthread_mutex_lock(&src->mu);
    src->slot_len[i] = len;
    src->slot_off[i] = src->produced;
    src->slot_mark[i] = mark;
    src->produced += (int64_t)len;
    src->hi++;
    pthread_cond_broadcast(&src->can_read);
    pthread_mutex_unlock(&src->mu);
}

void tsql_src_ring_finish(tsql_source *src)
{
    pthread_mutex_lock(&src->mu);
    src->done = 1;
    pthread_cond_broadcast(&src->can_read);
    pthread_mutex_unlock(&src->mu);
}

/* ---- reader side ---- */

int tsql_src_ring_get(tsql_source *src, int64_t k, const atomic_int *cancel, const char **data,
                      size_t *len, int64_t *off, int64_t *mark, tsql_error *err)
{
    pthread_mutex_lock(&src->mu);
    while (k >= src->hi && !src->done && !(cancel && atomic_load(cancel)))
        pthread_cond_wait(&src->can_read, &src->mu);
    int rc;
    if (k < src->hi) {
        int i = (int)(k % src->nslots);
        *data = (const char *)src->slot[i];
        *len = src->slot_len[i];
        *off = src->slot_off[i];
        *mark = src->slot_mark[i];
        rc = 1;
    } else if (!src->done) {
        rc = -2;
    } else if (src->perr.code == TSQL_OK) { /* done was seen under the lock: perr is final */
        rc = 0;
    } else {
        if (err && err->code == TSQL_OK) *err = src->perr;
        rc = -1;
    }
    pthread_mutex_unlock(&src->mu);
    return rc;
}

void tsql_src_ring_release(tsql_source *src, int64_t lo)
{
    pthread_mutex_lock(&src->mu);
    if (lo > src->lo) {
        src->lo = lo;
        pthread_cond_signal(&src->can_write);
    }
    pthread_mutex_unlock(&src->mu);
}

void tsql_src_ring_wake(tsql_source *src)
{
    pthread_mutex_lock(&src->mu);
    pthread_cond_broadcast(&src->can_read);
    pthread_mutex_unlock(&src->mu);
}

/* The producer wakes from a full ring at once and otherwise notices at its next slot,
 * within one chunk. */
void tsql_src_ring_free(tsql_source *src)
{
    if (src->threaded) {
        pthread_mutex_lock(&src->mu);
        src->stop = 1;
        pthread_cond_signal(&src->can_write);
        pthread_mutex_unlock(&src->mu);
        pthread_join(src->thread, NULL);
        src->threaded = 0;
    }
    if (src->sync_ready) {
        pthread_cond_destroy(&src->can_write);
        pthread_cond_destroy(&src->can_read);
        pthread_mutex_destroy(&src->mu);
        src->sync_ready = 0;
    }
    for (int i = 0; src->slot && i < src->nslots; i++) free(src->slot[i]);
    free(src->slot);
    free(src->slot_len);
    free(src->slot_off);
    free(src->slot_mark);
    src->slot = NULL;
}
