/*
 * source_ring.h — the bottom of the source: the source's state, the ring of text
 * chunks that a producer thread fills, error recording and reads. The codecs
 * (source_gzip.c, source_zip.c) produce into it; source.c opens a file, picks its
 * codec and hands the chunks out. Nothing here knows a format.
 * Private to core/input/source*.c.
 *
 * THE RING. Chunks are numbered 0, 1, 2, ... in text order. The producer fills chunk
 * hi into slot hi % nslots and publishes it; readers take any published chunk k with
 * lo <= k < hi (tsql_src_ring_get) and say which chunks they no longer need by
 * raising lo (tsql_src_ring_release). The producer waits while hi - lo == nslots. One
 * reader (tsql_source_next) keeps lo at the chunk it holds: one held, the others
 * filling ahead. Several readers (the pipelined parse, reader_stream.c) keep lo at
 * the lowest chunk any of them still needs.
 *
 * One mutex guards the indices; two condition variables wake the side that waits, so
 * neither spins. A slot's bytes are written by the producer only while it is outside
 * [lo, hi), and read by readers only while inside, so the text needs no lock.
 */
#ifndef TSQL_SOURCE_RING_H
#define TSQL_SOURCE_RING_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>

#include "input/source.h"

/* The fuzz build (tests/fuzz) makes chunks tiny so that events cross chunk ends. */
#ifndef TSQL_SOURCE_CHUNK_BYTES
#define TSQL_SOURCE_CHUNK_BYTES (4 << 20)
#endif
/* Reads of a range source (tsql_source_open_range): small enough that the text is
 * still in the core's own cache when the parser reads it right after the copy. */
#ifndef TSQL_SOURCE_RANGE_BYTES
#define TSQL_SOURCE_RANGE_BYTES (1 << 20)
#endif

enum {
    RING_SLOTS = 4,            /* one reader: one held, three filling ahead */
    CHUNK_BYTES = TSQL_SOURCE_CHUNK_BYTES, /* default size of one ring slot */
    IN_BYTES = 1 << 20,        /* compressed input buffer */
    SNIFF_BYTES = 4,           /* enough for the zip signature */
};

enum { ST_STREAMING = 0, ST_END, ST_FAILED };

struct tsql_zip_member;        /* source_zip.h: the codec's own state */

struct tsql_source {
    int fd;
    int kind;                  /* enum tsql_source_kind */
    int64_t file_bytes;
    int64_t offset;            /* uncompressed bytes handed out (one reader) */
    int state;                 /* ST_* as the one reader sees it */
    tsql_error err;            /* the failure, replayed by every later call */

    /* The sniffed bytes are kept rather than re-read so pipes work too. */
    unsigned char sniff[SNIFF_BYTES];
    size_t nsniff;

    struct tsql_zip_member *zip;
    unsigned char *inbuf;      /* compressed input, producer only */

    /* the ring */
    size_t chunk;              /* bytes of a slot: producers fill whole slots */
    int nslots;
    unsigned char **slot;
    size_t *slot_len;
    int64_t *slot_off;         /* text offset of the chunk's first byte */
    int64_t *slot_mark;        /* what the mark hook said of the chunk */
    int64_t hi;                /* chunks published */
    int64_t lo;                /* chunks below this are free for the producer */
    int64_t produced;          /* text bytes published */
    int64_t next_chunk;        /* one reader: the chunk it takes next */
    tsql_source_mark_fn mark;  /* called on the producer thread before a publish */
    void *mark_ctx;
    int done;                  /* producer finished (cleanly or with perr) */
    int stop;                  /* the source is closing: the producer quits */
    tsql_error perr;           /* producer's failure; read once done is seen */

    pthread_mutex_t mu;
    pthread_cond_t can_read;   /* a chunk was published, the producer finished, or a wake */
    pthread_cond_t can_write;  /* lo was raised or stop was set */
    int sync_ready;            /* mu and the condvars are initialised */
    pthread_t thread;
    int threaded;              /* thread was started and must be joined */
    int sync;                  /* range source: pread(2) on the caller's thread */
    int64_t sync_pos;          /* next file offset to read */
};

/* Records an error (first one wins, like tsql_error_set) and marks whether its offset
 * is in an uncompressed stream. Returns nothing. */
void tsql_src_fail(tsql_error *err, int code, int compressed, int64_t offset, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Little-endian field readers for zip structures. Return the decoded value. */
static inline uint16_t tsql_src_le16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline uint32_t tsql_src_le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t tsql_src_le64(const unsigned char *p) { return tsql_src_le32(p) | (uint64_t)tsql_src_le32(p + 4) << 32; }

/* read(2) until n bytes or end of file, retrying EINTR. Returns the bytes read
 * (fewer than n only at end of file), or -1 with errno set. */
ssize_t tsql_src_read_full(int fd, void *buf, size_t n);

/* pread(2) until n bytes or end of file, retrying EINTR. Returns the bytes read
 * (fewer than n only at end of file), or -1 with errno set. */
ssize_t tsql_src_pread_full(int fd, void *buf, size_t n, int64_t off);

/* Initialises the lock and condition variables. Returns 0, or -1 (nothing to undo). */
int tsql_src_ring_init(tsql_source *src);

/* Allocates nslots slots of chunk bytes each. Returns 0, or -1 on OOM (what was
 * allocated is freed by tsql_src_ring_free). */
int tsql_src_ring_alloc(tsql_source *src, int nslots, size_t chunk);

/* Producer: waits for a free slot. Returns it (owned by the producer until
 * ring_publish; src->chunk bytes), or NULL when the source is closing. */
unsigned char *tsql_src_ring_acquire(tsql_source *src);

/* Producer: hands the slot from ring_acquire, holding len > 0 bytes, to the readers.
 * Returns nothing. */
void tsql_src_ring_publish(tsql_source *src, size_t len);

/* Producer: marks the stream finished; src->perr says whether it failed. */
void tsql_src_ring_finish(tsql_source *src);

/* Reader: waits for chunk k (k >= lo). Returns 1 with its text, offset and mark, 0
 * when the stream ended cleanly before k, -1 when it failed before k (err filled
 * with the producer's error), or -2 when *cancel became non-zero while waiting
 * (see tsql_src_ring_wake). */
int tsql_src_ring_get(tsql_source *src, int64_t k, const atomic_int *cancel, const char **data,
                      size_t *len, int64_t *off, int64_t *mark, tsql_error *err);

/* Reader: chunks below lo are no longer needed (lo only rises). */
void tsql_src_ring_release(tsql_source *src, int64_t lo);

/* Wakes every reader waiting in ring_get, to look at its cancel flag again. */
void tsql_src_ring_wake(tsql_source *src);

/* Stops and joins the producer, then frees the ring (slots, lock). */
void tsql_src_ring_free(tsql_source *src);

#endif
