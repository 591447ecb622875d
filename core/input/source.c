/*
 * source.c — a trace file as a stream of text chunks; see source.h.
 *
 * The top of the source: opens the file, sniffs its format and starts the producer
 * of that format (plain reads here, the codecs in source_gzip.c and source_zip.c) on
 * a thread that fills the ring (source_ring.c), then hands the chunks out. The
 * dependencies run one way: this file -> the codecs -> the ring.
 */
#include "input/source.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input/source_gzip.h"
#include "input/source_ring.h"
#include "input/source_zip.h"

/* ---- producers: each fills slots until the end, an error, or stop ---- */

/*
 * PLAIN READS go through the same read-ahead thread as compressed ones rather than
 * read(2) in tsql_source_next. Measured on a 1.1 GB file, 2 cores, consumer running a
 * ~1 GB/s byte-at-a-time scanner: page cache warm, thread 0.93-1.05 s vs synchronous
 * 1.03-1.09 s; cold cache, thread 0.96 s vs 1.12 s (medians). With the thread the
 * kernel copy and the disk wait overlap the parse instead of adding to it. A bare
 * drain with no parsing is memcpy-bound (~7 GB/s) and the same either way.
 */

/* Producer for plain text: read(2) straight into ring slots. Returns nothing; the
 * outcome is in src->perr. */
static void produce_plain(tsql_source *src)
{
    int64_t produced = 0;
    size_t pre = src->nsniff;
    for (;;) {
        unsigned char *out = tsql_src_ring_acquire(src);
        if (!out) return;
        memcpy(out, src->sniff, pre);
        ssize_t n = tsql_src_read_full(src->fd, out + pre, src->chunk - pre);
        if (n < 0) {
            tsql_src_fail(&src->perr, TSQL_EIO, 0, produced, "read error: %s", strerror(errno));
            n = 0;
        }
        size_t len = pre + (size_t)n;
        pre = 0;
        if (len > 0) tsql_src_ring_publish(src, len);
        produced += (int64_t)len;
        if (len < src->chunk || src->perr.code != TSQL_OK) return;
    }
}

/* The formats: what the first bytes announce, what to check at the open (NULL:
 * nothing) and the producer that fills the ring. */
static const struct codec {
    int kind;
    int (*open)(tsql_source *src, tsql_error *err);
    void (*produce)(tsql_source *src);
} codecs[] = {
    {TSQL_SOURCE_PLAIN, NULL, produce_plain},
    {TSQL_SOURCE_GZIP, NULL, tsql_src_produce_gzip},
    {TSQL_SOURCE_ZIP, tsql_src_zip_open_member, tsql_src_produce_zip},
};

static const struct codec *codec_of(int kind)
{
    for (size_t i = 0; i < sizeof codecs / sizeof *codecs; i++)
        if (codecs[i].kind == kind) return &codecs[i];
    return &codecs[0];
}

/* Thread entry: runs the producer for src's format, then wakes the readers for the
 * end of the stream. Returns NULL. */
static void *producer_main(void *arg)
{
    tsql_source *src = arg;
    codec_of(src->kind)->produce(src);
    tsql_src_ring_finish(src);
    return NULL;
}

/* ---- public API ---- */

static tsql_source *source_open(const char *path, int regular_only, const tsql_source_cfg *cfg,
                                tsql_error *err);

tsql_source *tsql_source_open(const char *path, tsql_error *err)
{
    return source_open(path, 0, NULL, err);
}

tsql_source *tsql_source_open_regular(const char *path, tsql_error *err)
{
    return source_open(path, 1, NULL, err);
}

tsql_source *tsql_source_open_cfg(const char *path, const tsql_source_cfg *cfg, tsql_error *err)
{
    return source_open(path, 1, cfg, err);
}

/* See source.h. Returns the source, or NULL with err filled (offset -1). */
static tsql_source *source_open(const char *path, int regular_only, const tsql_source_cfg *cfg,
                                tsql_error *err)
{
    tsql_source *src = calloc(1, sizeof *src);
    if (!src) {
        tsql_src_fail(err, TSQL_ENOMEM, 0, -1, "out of memory");
        return NULL;
    }
    src->fd = -1;
    if (tsql_src_ring_init(src) != 0) goto nomem;

    if (!path) {
        tsql_src_fail(err, TSQL_EIO, 0, -1, "cannot open: no path given");
        goto fail;
    }
    /* O_NONBLOCK: opening a FIFO without a writer would wait forever */
    src->fd = open(path, O_RDONLY | O_CLOEXEC | (regular_only ? O_NONBLOCK : 0));
    if (src->fd < 0) {
        tsql_src_fail(err, TSQL_EIO, 0, -1, "cannot open: %s", strerror(errno));
        goto fail;
    }
    struct stat st;
    if (fstat(src->fd, &st) != 0) {
        tsql_src_fail(err, TSQL_EIO, 0, -1, "cannot stat: %s", strerror(errno));
        goto fail;
    }
    if (regular_only && !S_ISREG(st.st_mode)) {
        tsql_src_fail(err, TSQL_EIO, 0, -1, "%s", TSQL_NOT_REGULAR_MSG);
        goto fail;
    }
    if (regular_only) {
        int fl = fcntl(src->fd, F_GETFL);
        if (fl < 0 || fcntl(src->fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
            tsql_src_fail(err, TSQL_EIO, 0, -1, "cannot open: %s", strerror(errno));
            goto fail;
        }
    }
    src->file_bytes = S_ISREG(st.st_mode) ? (int64_t)st.st_size : 0;
    (void)posix_fadvise(src->fd, 0, 0, POSIX_FADV_SEQUENTIAL); /* a hint; failure is harmless */

    ssize_t n = tsql_src_read_full(src->fd, src->sniff, SNIFF_BYTES);
    if (n < 0) {
        tsql_src_fail(err, TSQL_EIO, 0, -1, "read error: %s", strerror(errno));
        goto fail;
    }
    src->nsniff = (size_t)n;
    src->kind = tsql_source_sniff(src->sniff, (size_t)n);

    const struct codec *codec = codec_of(src->kind);
    if (src->kind == TSQL_SOURCE_ZIP && !S_ISREG(st.st_mode)) {
        tsql_src_fail(err, TSQL_EIO, 0, -1, "zip archives must be regular files (the directory is at the end)");
        goto fail;
    }
    if (codec->open && codec->open(src, err) < 0) goto fail;

    if (src->kind == TSQL_SOURCE_PLAIN && n == 0) {
        src->state = ST_END; /* empty file: no thread, no buffers */
        return src;
    }
    if (src->kind != TSQL_SOURCE_PLAIN && !(src->inbuf = malloc(IN_BYTES))) goto nomem;
    if (cfg) {
        src->mark = cfg->mark;
        src->mark_ctx = cfg->mark_ctx;
    }
    if (tsql_src_ring_alloc(src, cfg && cfg->slots > 1 ? cfg->slots : RING_SLOTS,
                            cfg && cfg->chunk_bytes ? cfg->chunk_bytes : CHUNK_BYTES))
        goto nomem;

    /* Signals stay on the caller's threads, which own any handlers. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&src->thread, NULL, producer_main, src);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        tsql_src_fail(err, TSQL_ENOMEM, 0, -1, "cannot start reader thread: %s", strerror(rc));
        goto fail;
    }
    src->threaded = 1;
    return src;

nomem:
    tsql_src_fail(err, TSQL_ENOMEM, 0, -1, "out of memory");
fail:
    tsql_source_close(src);
    return NULL;
}

tsql_source *tsql_source_open_range(const char *path, int64_t start, const struct stat *expect,
                                    tsql_error *err)
{
    tsql_source *src = calloc(1, sizeof *src);
    if (!src) {
        tsql_src_fail(err, TSQL_ENOMEM, 0, -1, "out of memory");
        return NULL;
    }
    /* O_NONBLOCK: a file swapped for a FIFO must not block (expect then fails) */
    src->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    struct stat st;
    if (src->fd < 0 || fstat(src->fd, &st) != 0) {
        tsql_src_fail(err, TSQL_EIO, 0, -1, "cannot open: %s", strerror(errno));
        tsql_source_close(src);
        return NULL;
    }
    if (expect && (st.st_dev != expect->st_dev || st.st_ino != expect->st_ino ||
                   st.st_size != expect->st_size ||
                   st.st_mtim.tv_sec != expect->st_mtim.tv_sec ||
                   st.st_mtim.tv_nsec != expect->st_mtim.tv_nsec)) {
        tsql_src_fail(err, TSQL_EIO, 0, -1, "the file changed while it was being loaded");
        tsql_source_close(src);
        return NULL;
    }
    (void)posix_fadvise(src->fd, start, 0, POSIX_FADV_SEQUENTIAL); /* a hint */
    src->file_bytes = S_ISREG(st.st_mode) ? (int64_t)st.st_size : 0;
    src->kind = TSQL_SOURCE_PLAIN;
    src->sync = 1;
    src->sync_pos = src->offset = start;
    if (tsql_src_ring_alloc(src, 1, TSQL_SOURCE_RANGE_BYTES)) {
        tsql_src_fail(err, TSQL_ENOMEM, 0, -1, "out of memory");
        tsql_source_close(src);
        return NULL;
    }
    return src;
}

int tsql_source_sniff(const unsigned char *s, size_t n)
{
    if (n >= 2 && s[0] == 0x1f && s[1] == 0x8b) return TSQL_SOURCE_GZIP;
    if (n >= 4 && s[0] == 'P' && s[1] == 'K' && s[2] == 3 && s[3] == 4) return TSQL_SOURCE_ZIP;
    return TSQL_SOURCE_PLAIN;
}

/* Next chunk of a range source. Returns as tsql_source_next. */
static int next_sync(tsql_source *src, const char **data, size_t *len, tsql_error *err)
{
    ssize_t n = tsql_src_pread_full(src->fd, src->slot[0], TSQL_SOURCE_RANGE_BYTES, src->sync_pos);
    if (n < 0) {
        tsql_src_fail(&src->err, TSQL_EIO, 0, src->offset, "read error: %s", strerror(errno));
        src->state = ST_FAILED;
        if (err && err->code == TSQL_OK) *err = src->err;
        return -1;
    }
    if (n == 0) {
        src->state = ST_END;
        return 0;
    }
    src->sync_pos += n;
    src->offset += n;
    *data = (const char *)src->slot[0];
    *len = (size_t)n;
    return 1;
}

/* Returns the detected enum tsql_source_kind. */
int tsql_source_kind(const tsql_source *src) { return src->kind; }

/* Returns the size on disk (0 for a pipe). */
int64_t tsql_source_file_bytes(const tsql_source *src) { return src->file_bytes; }

/* Returns the uncompressed bytes handed out, the current chunk included. */
int64_t tsql_source_offset(const tsql_source *src) { return src->offset; }

/* See source.h. Returns 1 with a chunk, 0 at the end, -1 with err filled; after the
 * end or an error, every later call returns the same (replaying the error). */
int tsql_source_next(tsql_source *src, const char **data, size_t *len, tsql_error *err)
{
    *data = NULL;
    *len = 0;
    if (src->state == ST_FAILED) goto failed;
    if (src->state == ST_END) return 0;
    if (src->sync) return next_sync(src, data, len, err);

    /* the chunk handed out before goes back to the producer */
    tsql_src_ring_release(src, src->next_chunk);
    int64_t off, mark;
    int rc = tsql_src_ring_get(src, src->next_chunk, NULL, data, len, &off, &mark, &src->err);
    if (rc > 0) {
        src->next_chunk++;
        src->offset += (int64_t)*len;
        return 1;
    }
    *data = NULL;
    *len = 0;
    if (rc == 0) {
        src->state = ST_END;
        return 0;
    }
    src->state = ST_FAILED;
failed:
    if (err && err->code == TSQL_OK) *err = src->err;
    return -1;
}

void tsql_source_close(tsql_source *src)
{
    if (!src) return;
    tsql_src_ring_free(src);
    free(src->zip);
    free(src->inbuf);
    if (src->fd >= 0) close(src->fd);
    free(src);
}

int tsql_source_chunk(tsql_source *src, int64_t k, const atomic_int *cancel, const char **data,
                      size_t *len, int64_t *off, int64_t *mark, tsql_error *err)
{
    if (src->state == ST_END || src->sync) return 0; /* an empty file or a range source */
    return tsql_src_ring_get(src, k, cancel, data, len, off, mark, err);
}

void tsql_source_release(tsql_source *src, int64_t lo)
{
    if (src->threaded) tsql_src_ring_release(src, lo);
}

void tsql_source_wake(tsql_source *src)
{
    if (src->threaded) tsql_src_ring_wake(src);
}
