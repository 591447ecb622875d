/*
 * source_internal.h — what the parts of the source share: the source's state (the
 * ring of chunks and its producer thread), error recording, reads, and the
 * producers of each format (source.c plain, source_gzip.c, source_zip.c).
 * Private to core/input/source*.c.
 */
#ifndef TSQL_SOURCE_INTERNAL_H
#define TSQL_SOURCE_INTERNAL_H

#include <pthread.h>
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
    RING_SLOTS = 4,            /* one held by the consumer, three filling ahead */
    CHUNK_BYTES = TSQL_SOURCE_CHUNK_BYTES, /* size of one ring slot */
    IN_BYTES = 1 << 20,        /* compressed input buffer */
    SNIFF_BYTES = 4,           /* enough for the zip signature */
    ZIP_EOCD_BYTES = 22,       /* end of central directory record without comment */
    ZIP_MAX_COMMENT = 65535,
};

enum { ST_STREAMING = 0, ST_END, ST_FAILED };

/* The one member of a zip archive, as the central directory describes it. */
struct zip_member {
    int method;                /* 0 stored, 8 deflate */
    uint32_t crc;
    uint64_t csize;            /* compressed bytes at data_off */
    uint64_t usize;
    int64_t data_off;
};

struct tsql_source {
    int fd;
    int kind;                  /* enum tsql_source_kind */
    int64_t file_bytes;
    int64_t offset;            /* uncompressed bytes handed out */
    int state;                 /* ST_* as the consumer sees it */
    tsql_error err;            /* the failure, replayed by every later call */

    /* The sniffed bytes are kept rather than re-read so pipes work too. */
    unsigned char sniff[SNIFF_BYTES];
    size_t nsniff;

    struct zip_member zip;
    unsigned char *inbuf;      /* compressed input, producer only */

    unsigned char *slot[RING_SLOTS];
    size_t slot_len[RING_SLOTS];
    int rd;                    /* next filled slot for the consumer */
    int wr;                    /* slot the producer is filling */
    int nfilled;               /* filled, not yet handed out */
    int nheld;                 /* 1 while the consumer holds the slot before rd */
    int done;                  /* producer finished (cleanly or with perr) */
    int stop;                  /* consumer asked the producer to quit */
    tsql_error perr;           /* producer's failure; read once done is seen */

    pthread_mutex_t mu;
    pthread_cond_t can_read;   /* a slot was filled or the producer finished */
    pthread_cond_t can_write;  /* a slot was freed or stop was set */
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

/* Waits for a free slot. Returns it (owned by the producer until ring_publish), or
 * NULL when the consumer has asked the producer to stop. */
unsigned char *tsql_src_ring_acquire(tsql_source *src);

/* Hands the slot from ring_acquire, holding len > 0 bytes, to the consumer.
 * Returns nothing. */
void tsql_src_ring_publish(tsql_source *src, size_t len);

/* Marks the stream finished; src->perr says whether it failed. Returns nothing. */
void tsql_src_ring_finish(tsql_source *src);

/* Producer for gzip: streaming inflate, one member after another. Returns nothing;
 * the outcome is in src->perr. */
void tsql_src_produce_gzip(tsql_source *src);

/* Producer for the zip member: copy (stored) or raw inflate (deflate) exactly csize
 * input bytes, then check the CRC-32 and size against the central directory.
 * Returns nothing; the outcome is in src->perr. */
void tsql_src_produce_zip(tsql_source *src);

/* Finds the end of central directory record (following a zip64 locator if present)
 * and checks that the archive holds exactly one entry.
 * Returns 0 with the central directory's offset, or -1 with err filled. */
int tsql_src_zip_find_directory(tsql_source *src, int64_t *cd_off, tsql_error *err);

/* Reads the single central directory entry and its local header into src->zip.
 * Sizes and CRC come from the central directory, which is authoritative even when
 * the local header defers them to a data descriptor (flag bit 3).
 * Returns 0, or -1 with err filled. */
int tsql_src_zip_open_member(tsql_source *src, tsql_error *err);

#endif
