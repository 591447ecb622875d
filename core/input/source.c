/*
 * source.c — a trace file as a stream of text chunks; see source.h.
 *
 * Compressed inputs (and, see PLAIN READS below, plain ones) are produced by one
 * thread into a ring of RING_SLOTS buffers of CHUNK_BYTES each. The consumer holds at
 * most one slot at a time (the chunk it was last handed); the producer fills the
 * others. One mutex guards the ring indices; two condition variables wake the side
 * that is waiting, so neither side ever spins.
 *
 * A slot's bytes are written only by the producer while the slot is neither filled
 * nor held, and read only by the consumer while it is held, so the data itself
 * needs no lock.
 */
#include "input/source.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#include <zlib.h>

#include "util/crc32.h"

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
static void fail(tsql_error *err, int code, int compressed, int64_t offset, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
static void fail(tsql_error *err, int code, int compressed, int64_t offset, const char *fmt, ...)
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

/* Little-endian field readers for zip structures. Return the decoded value. */
static uint16_t le16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t le64(const unsigned char *p) { return le32(p) | (uint64_t)le32(p + 4) << 32; }

/* read(2) until n bytes or end of file, retrying EINTR. Returns the bytes read
 * (fewer than n only at end of file), or -1 with errno set. */
static ssize_t read_full(int fd, void *buf, size_t n)
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

/* pread(2) until n bytes or end of file, retrying EINTR. Returns the bytes read
 * (fewer than n only at end of file), or -1 with errno set. */
static ssize_t pread_full(int fd, void *buf, size_t n, int64_t off)
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

/* ---- ring: producer side ---- */

/* Waits for a free slot. Returns it (owned by the producer until ring_publish), or
 * NULL when the consumer has asked the producer to stop. */
static unsigned char *ring_acquire(tsql_source *src)
{
    pthread_mutex_lock(&src->mu);
    while (src->nfilled + src->nheld == RING_SLOTS && !src->stop)
        pthread_cond_wait(&src->can_write, &src->mu);
    unsigned char *buf = src->stop ? NULL : src->slot[src->wr];
    pthread_mutex_unlock(&src->mu);
    return buf;
}

/* Hands the slot from ring_acquire, holding len > 0 bytes, to the consumer.
 * Returns nothing. */
static void ring_publish(tsql_source *src, size_t len)
{
    pthread_mutex_lock(&src->mu);
    src->slot_len[src->wr] = len;
    src->wr = (src->wr + 1) % RING_SLOTS;
    src->nfilled++;
    pthread_cond_signal(&src->can_read);
    pthread_mutex_unlock(&src->mu);
}

/* Marks the stream finished; src->perr says whether it failed. Returns nothing. */
static void ring_finish(tsql_source *src)
{
    pthread_mutex_lock(&src->mu);
    src->done = 1;
    pthread_cond_signal(&src->can_read);
    pthread_mutex_unlock(&src->mu);
}

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
        unsigned char *out = ring_acquire(src);
        if (!out) return;
        memcpy(out, src->sniff, pre);
        ssize_t n = read_full(src->fd, out + pre, CHUNK_BYTES - pre);
        if (n < 0) {
            fail(&src->perr, TSQL_EIO, 0, produced, "read error: %s", strerror(errno));
            n = 0;
        }
        size_t len = pre + (size_t)n;
        pre = 0;
        if (len > 0) ring_publish(src, len);
        produced += (int64_t)len;
        if (len < CHUNK_BYTES || src->perr.code != TSQL_OK) return;
    }
}

/* Tops up the compressed input so at least want bytes are available, fewer only at
 * end of file (then *eof is set). Returns 0, or -1 with errno set by read(2). */
static int gz_fill(tsql_source *src, z_stream *zs, int *eof, size_t want)
{
    if (zs->avail_in >= want || *eof) return 0;
    size_t have = zs->avail_in;
    memmove(src->inbuf, zs->next_in, have);
    ssize_t n = read_full(src->fd, src->inbuf + have, IN_BYTES - have);
    if (n < 0) return -1;
    if ((size_t)n < IN_BYTES - have) *eof = 1;
    zs->next_in = src->inbuf;
    zs->avail_in = (uInt)(have + (size_t)n);
    return 0;
}

/*
 * CRC CHECK: zlib's own CRC-32 of the inflated text costs ~0.27 s of the ~1.2 s it
 * takes to inflate the 1.1 GB benchmark trace here. So zlib is told not to compute
 * it (inflateValidate) and tsql_crc32 (core/crc32.c, ~5x faster) checks each member
 * against the last 8 input bytes zlib consumed, its trailer, with zlib's messages.
 * A member whose header has its own CRC (FHCRC, which gzip(1) never writes) keeps
 * zlib's checks, since those cover the header too.
 */

/* The last 8 input bytes inflate consumed (a member's trailer at its end). */
static void keep_tail(unsigned char tail[8], const unsigned char *from, const unsigned char *to)
{
    size_t n = (size_t)(to - from);
    if (n >= 8) {
        memcpy(tail, to - 8, 8);
    } else if (n) {
        memmove(tail, tail + n, 8 - n);
        memcpy(tail + 8 - n, from, n);
    }
}

/* Producer for gzip: streaming inflate, one member after another. Returns nothing;
 * the outcome is in src->perr. */
static void produce_gzip(tsql_source *src)
{
    z_stream zs = {.zalloc = Z_NULL, .zfree = Z_NULL, .opaque = Z_NULL};
    int64_t produced = 0;      /* bytes in published slots */
    int eof = 0;
    int between = 0;           /* just past a member's trailer */
    int own_check = -1;        /* this member's CRC is ours (1) or zlib's (0); -1 unknown */
    uint32_t crc = 0;          /* of this member's text so far, when own_check */
    unsigned char tail[8] = {0};

    /* 16: gzip wrapper only, so a zlib or raw stream after a member is garbage. */
    if (inflateInit2(&zs, 15 + 16) != Z_OK) {
        fail(&src->perr, TSQL_ENOMEM, 1, 0, "out of memory starting gzip inflate");
        return;
    }
    memcpy(src->inbuf, src->sniff, src->nsniff);
    zs.next_in = src->inbuf;
    zs.avail_in = (uInt)src->nsniff;

    unsigned char *out = ring_acquire(src);
    if (!out) goto stopped;
    zs.next_out = out;
    zs.avail_out = CHUNK_BYTES;
    for (;;) {
        int64_t at = produced + (CHUNK_BYTES - zs.avail_out);
        if (gz_fill(src, &zs, &eof, between ? 2 : 1) < 0) {
            fail(&src->perr, TSQL_EIO, 1, at, "read error: %s", strerror(errno));
            break;
        }
        if (between) {
            if (zs.avail_in == 0) break; /* clean end after the last member */
            if (zs.avail_in < 2 || zs.next_in[0] != 0x1f || zs.next_in[1] != 0x8b) {
                fail(&src->perr, TSQL_EFORMAT, 1, at,
                     "gzip stream has trailing data that is not a gzip member");
                break;
            }
            between = 0;
        }
        if (zs.avail_in == 0) {
            fail(&src->perr, TSQL_EFORMAT, 1, at, "gzip stream is truncated");
            break;
        }
        if (own_check < 0) {
            /* at a member's first bytes: FLG bit 1 is FHCRC (too few bytes: zlib checks) */
            own_check = zs.avail_in >= 4 && !(zs.next_in[3] & 0x02);
            inflateValidate(&zs, !own_check);
            crc = 0;
        }
        const unsigned char *in0 = zs.next_in, *out0 = zs.next_out;
        int rc = inflate(&zs, Z_NO_FLUSH);
        keep_tail(tail, in0, zs.next_in);
        if (own_check > 0 && zs.next_out > out0)
            crc = tsql_crc32(crc, out0, (size_t)(zs.next_out - out0));
        if (rc == Z_STREAM_END && own_check > 0) {
            uint32_t want = (uint32_t)tail[0] | (uint32_t)tail[1] << 8 |
                            (uint32_t)tail[2] << 16 | (uint32_t)tail[3] << 24;
            uint32_t size = (uint32_t)tail[4] | (uint32_t)tail[5] << 8 |
                            (uint32_t)tail[6] << 16 | (uint32_t)tail[7] << 24;
            const char *why = want != crc ? "incorrect data check"
                              : size != (uint32_t)zs.total_out ? "incorrect length check"
                                                               : NULL;
            if (why) {
                fail(&src->perr, TSQL_EFORMAT, 1, produced + (CHUNK_BYTES - zs.avail_out),
                     "gzip stream is corrupt (%s)", why);
                break;
            }
        }
        if (rc == Z_STREAM_END) {
            between = 1;
            own_check = -1;
            inflateReset(&zs);
        } else if (rc == Z_MEM_ERROR) {
            fail(&src->perr, TSQL_ENOMEM, 1, produced + (CHUNK_BYTES - zs.avail_out),
                 "out of memory inflating gzip stream");
            break;
        } else if (rc != Z_OK) {
            /* Z_BUF_ERROR cannot happen with input and output space; treat it as
             * corruption rather than loop on it. */
            fail(&src->perr, TSQL_EFORMAT, 1, produced + (CHUNK_BYTES - zs.avail_out),
                 "gzip stream is corrupt (%s)", zs.msg ? zs.msg : "inflate made no progress");
            break;
        }
        if (zs.avail_out == 0) {
            ring_publish(src, CHUNK_BYTES);
            produced += CHUNK_BYTES;
            if (!(out = ring_acquire(src))) goto stopped;
            zs.next_out = out;
            zs.avail_out = CHUNK_BYTES;
        }
    }
    /* Text before an error is still delivered, so the parser reaches the error's offset. */
    if (zs.avail_out < CHUNK_BYTES) ring_publish(src, CHUNK_BYTES - zs.avail_out);
stopped:
    inflateEnd(&zs);
}

/* Producer for the zip member: copy (stored) or raw inflate (deflate) exactly csize
 * input bytes, then check the CRC-32 and size against the central directory.
 * Returns nothing; the outcome is in src->perr. */
static void produce_zip(tsql_source *src)
{
    const struct zip_member *m = &src->zip;
    z_stream zs = {.zalloc = Z_NULL, .zfree = Z_NULL, .opaque = Z_NULL};
    int deflated = m->method == 8;
    int64_t pos = m->data_off;
    uint64_t in_left = m->csize;
    int64_t produced = 0;
    uLong crc = crc32(0L, Z_NULL, 0);
    int end = 0;

    if (deflated && inflateInit2(&zs, -15) != Z_OK) {
        fail(&src->perr, TSQL_ENOMEM, 1, 0, "out of memory starting zip inflate");
        return;
    }
    unsigned char *out = ring_acquire(src);
    if (!out) goto stopped;
    zs.next_out = out;
    zs.avail_out = CHUNK_BYTES;
    while (!end) {
        int64_t at = produced + (CHUNK_BYTES - zs.avail_out);
        if (deflated) {
            if (zs.avail_in == 0 && in_left > 0) {
                size_t want = in_left < IN_BYTES ? (size_t)in_left : IN_BYTES;
                ssize_t n = pread_full(src->fd, src->inbuf, want, pos);
                if (n < 0) {
                    fail(&src->perr, TSQL_EIO, 1, at, "read error: %s", strerror(errno));
                    break;
                }
                pos += n;
                in_left = (size_t)n < want ? 0 : in_left - want; /* short: file shrank */
                zs.next_in = src->inbuf;
                zs.avail_in = (uInt)n;
            }
            if (zs.avail_in == 0) {
                fail(&src->perr, TSQL_EFORMAT, 1, at, "zip member is truncated");
                break;
            }
            int rc = inflate(&zs, Z_NO_FLUSH);
            if (rc == Z_STREAM_END) {
                end = 1;
            } else if (rc == Z_MEM_ERROR) {
                fail(&src->perr, TSQL_ENOMEM, 1, produced + (CHUNK_BYTES - zs.avail_out),
                     "out of memory inflating zip member");
                break;
            } else if (rc != Z_OK) {
                fail(&src->perr, TSQL_EFORMAT, 1, produced + (CHUNK_BYTES - zs.avail_out),
                     "zip member is corrupt (%s)", zs.msg ? zs.msg : "inflate made no progress");
                break;
            }
        } else if (in_left == 0) {
            end = 1;
        } else {
            size_t want = in_left < zs.avail_out ? (size_t)in_left : zs.avail_out;
            ssize_t n = pread_full(src->fd, zs.next_out, want, pos);
            if (n < 0) {
                fail(&src->perr, TSQL_EIO, 1, at, "read error: %s", strerror(errno));
                break;
            }
            if (n == 0) {
                fail(&src->perr, TSQL_EFORMAT, 1, at, "zip member is truncated");
                break;
            }
            pos += n;
            in_left -= (uint64_t)n;
            zs.next_out += n;
            zs.avail_out -= (uInt)n;
        }
        if (zs.avail_out == 0 || end) {
            size_t len = CHUNK_BYTES - zs.avail_out;
            if (len == 0) break;
            crc = tsql_crc32((uint32_t)crc, out, len);
            ring_publish(src, len);
            produced += (int64_t)len;
            zs.avail_out = CHUNK_BYTES; /* nothing pending if we stop below */
            if (end) break;
            if (!(out = ring_acquire(src))) goto stopped;
            zs.next_out = out;
        }
    }
    if (end) {
        if ((uint64_t)produced != m->usize)
            fail(&src->perr, TSQL_EFORMAT, 1, produced,
                 "zip member has %lld bytes but the directory says %llu",
                 (long long)produced, (unsigned long long)m->usize);
        else if ((uint32_t)crc != m->crc)
            fail(&src->perr, TSQL_EFORMAT, 1, produced,
                 "zip member CRC mismatch (directory %08x, data %08x)",
                 (unsigned)m->crc, (unsigned)crc);
    } else if (zs.avail_out < CHUNK_BYTES) {
        ring_publish(src, CHUNK_BYTES - zs.avail_out);
    }
stopped:
    if (deflated) inflateEnd(&zs);
}

/* Thread entry: runs the producer for src's format, then wakes the consumer for the
 * end of the stream. Returns NULL. */
static void *producer_main(void *arg)
{
    tsql_source *src = arg;
    switch (src->kind) {
    case TSQL_SOURCE_GZIP: produce_gzip(src); break;
    case TSQL_SOURCE_ZIP: produce_zip(src); break;
    default: produce_plain(src); break;
    }
    ring_finish(src);
    return NULL;
}

/* ---- zip directory ---- */

/* Reads n bytes at off of the archive into buf; a short read means the directory
 * points outside the file. Returns 0, or -1 with err filled. */
static int zip_read(tsql_source *src, void *buf, size_t n, int64_t off, const char *what,
                    tsql_error *err)
{
    if (off < 0 || off > src->file_bytes || (int64_t)n > src->file_bytes - off) {
        /* the offset is where the record starts, or the end of the file if it starts past it */
        fail(err, TSQL_EFORMAT, 0, off < 0 ? -1 : off > src->file_bytes ? src->file_bytes : off,
             "%s lies outside the file", what);
        return -1;
    }
    ssize_t r = pread_full(src->fd, buf, n, off);
    if (r < 0) {
        fail(err, TSQL_EIO, 0, -1, "read error: %s", strerror(errno));
        return -1;
    }
    if ((size_t)r < n) {
        fail(err, TSQL_EFORMAT, 0, off, "%s is truncated", what);
        return -1;
    }
    return 0;
}

/* Finds the end of central directory record (following a zip64 locator if present)
 * and checks that the archive holds exactly one entry.
 * Returns 0 with the central directory's offset, or -1 with err filled. */
static int zip_find_directory(tsql_source *src, int64_t *cd_off, tsql_error *err)
{
    int64_t size = src->file_bytes;
    size_t tail = size < ZIP_EOCD_BYTES + ZIP_MAX_COMMENT ? (size_t)size
                                                          : ZIP_EOCD_BYTES + ZIP_MAX_COMMENT;
    unsigned char *buf = malloc(tail ? tail : 1);
    if (!buf) {
        fail(err, TSQL_ENOMEM, 0, -1, "out of memory reading zip directory");
        return -1;
    }
    int rc = -1;
    if (zip_read(src, buf, tail, size - (int64_t)tail, "zip end record", err) < 0) goto out;

    /* Search backwards: the record is last, followed only by its comment. */
    int64_t at = -1;
    for (int64_t i = (int64_t)tail - ZIP_EOCD_BYTES; i >= 0; i--) {
        const unsigned char *p = buf + i;
        if (le32(p) == 0x06054b50 && i + ZIP_EOCD_BYTES + le16(p + 20) <= (int64_t)tail) {
            at = i;
            break;
        }
    }
    if (at < 0) {
        fail(err, TSQL_EFORMAT, 0, size,
             "zip archive has no end of central directory record (truncated file?)");
        goto out;
    }
    const unsigned char *e = buf + at;
    int64_t eocd_pos = size - (int64_t)tail + at;
    uint32_t disk = le16(e + 4), cd_disk = le16(e + 6);
    uint64_t n = le16(e + 10);
    uint64_t off = le32(e + 16);
    if (n == 0xffff || off == 0xffffffffu || le32(e + 12) == 0xffffffffu) {
        unsigned char loc[20], z[56];
        if (eocd_pos < 20 || zip_read(src, loc, sizeof loc, eocd_pos - 20, "zip64 locator", err) < 0)
            goto missing64;
        if (le32(loc) != 0x07064b50) goto missing64;
        uint64_t zoff = le64(loc + 8);
        if (zoff > (uint64_t)size) goto missing64;
        if (zip_read(src, z, sizeof z, (int64_t)zoff, "zip64 end of central directory record", err) < 0) goto out;
        if (le32(z) != 0x06064b50) goto missing64;
        disk = le32(z + 16);
        cd_disk = le32(z + 20);
        n = le64(z + 32);
        off = le64(z + 48);
    }
    if (disk != 0 || cd_disk != 0) {
        fail(err, TSQL_EFORMAT, 0, eocd_pos, "multi-disk zip archives are not supported");
        goto out;
    }
    if (n != 1) {
        fail(err, TSQL_EFORMAT, 0, eocd_pos, "zip archive has %llu entries; expected one trace",
             (unsigned long long)n);
        goto out;
    }
    if (off >= (uint64_t)size) {
        fail(err, TSQL_EFORMAT, 0, eocd_pos, "zip central directory lies outside the file");
        goto out;
    }
    *cd_off = (int64_t)off;
    rc = 0;
    goto out;
missing64:
    fail(err, TSQL_EFORMAT, 0, eocd_pos, "zip64 end of central directory record is missing or corrupt");
out:
    free(buf);
    return rc;
}

/* Reads the single central directory entry and its local header into src->zip.
 * Sizes and CRC come from the central directory, which is authoritative even when
 * the local header defers them to a data descriptor (flag bit 3).
 * Returns 0, or -1 with err filled. */
static int zip_open_member(tsql_source *src, tsql_error *err)
{
    int64_t cd_off;
    if (zip_find_directory(src, &cd_off, err) < 0) return -1;

    unsigned char c[46];
    if (zip_read(src, c, sizeof c, cd_off, "zip central directory", err) < 0) return -1;
    if (le32(c) != 0x02014b50) {
        fail(err, TSQL_EFORMAT, 0, cd_off, "zip central directory is corrupt (bad signature)");
        return -1;
    }
    unsigned flags = le16(c + 8), method = le16(c + 10);
    uint64_t csize = le32(c + 20), usize = le32(c + 24), lho = le32(c + 42);
    unsigned nlen = le16(c + 28), xlen = le16(c + 30);

    if (usize == 0xffffffffu || csize == 0xffffffffu || lho == 0xffffffffu) {
        /* Zip64 extra field: only the saturated fields are present, in this order. */
        unsigned char *x = malloc(xlen ? xlen : 1);
        if (!x) {
            fail(err, TSQL_ENOMEM, 0, -1, "out of memory reading zip directory");
            return -1;
        }
        if (zip_read(src, x, xlen, cd_off + 46 + nlen, "zip central directory", err) < 0) {
            free(x);
            return -1;
        }
        size_t i = 0;
        int found = 0;
        while (i + 4 <= xlen) {
            unsigned id = le16(x + i), len = le16(x + i + 2);
            if (i + 4 + len > xlen) break;
            if (id == 0x0001) {
                uint64_t *want[3] = {&usize, &csize, &lho};
                size_t used = 0;
                found = 1;
                for (int k = 0; k < 3; k++) {
                    if (*want[k] != 0xffffffffu) continue;
                    if (used + 8 > len) found = 0;
                    else *want[k] = le64(x + i + 4 + used);
                    used += 8;
                }
                break;
            }
            i += 4 + len;
        }
        free(x);
        if (!found) {
            fail(err, TSQL_EFORMAT, 0, cd_off, "zip64 extra field is missing or too short");
            return -1;
        }
    }
    if (flags & 1) {
        fail(err, TSQL_EFORMAT, 0, cd_off, "zip member is encrypted");
        return -1;
    }
    if (method != 0 && method != 8) {
        fail(err, TSQL_EFORMAT, 0, cd_off,
             "zip member uses compression method %u; only stored (0) and deflate (8) are supported",
             method);
        return -1;
    }
    if (method == 0 && csize != usize) {
        fail(err, TSQL_EFORMAT, 0, cd_off, "stored zip member has different compressed and uncompressed sizes");
        return -1;
    }

    unsigned char l[30];
    if (lho > INT64_MAX || zip_read(src, l, sizeof l, (int64_t)lho, "zip local header", err) < 0) {
        fail(err, TSQL_EFORMAT, 0, cd_off, "zip local header lies outside the file");
        return -1;
    }
    if (le32(l) != 0x04034b50) {
        fail(err, TSQL_EFORMAT, 0, (int64_t)lho, "zip local header is corrupt (bad signature)");
        return -1;
    }
    int64_t data_off = (int64_t)lho + 30 + le16(l + 26) + le16(l + 28);
    if (data_off > src->file_bytes || csize > (uint64_t)(src->file_bytes - data_off)) {
        fail(err, TSQL_EFORMAT, 0, (int64_t)lho, "zip member extends past the end of the file");
        return -1;
    }
    src->zip = (struct zip_member){
        .method = (int)method, .crc = le32(c + 16), .csize = csize, .usize = usize,
        .data_off = data_off,
    };
    return 0;
}

/* ---- public API ---- */

/* See source.h. Returns the source, or NULL with err filled (offset -1). */
tsql_source *tsql_source_open(const char *path, tsql_error *err)
{
    tsql_source *src = calloc(1, sizeof *src);
    if (!src) {
        fail(err, TSQL_ENOMEM, 0, -1, "out of memory");
        return NULL;
    }
    src->fd = -1;
    if (pthread_mutex_init(&src->mu, NULL) != 0) goto nomem;
    if (pthread_cond_init(&src->can_read, NULL) != 0) {
        pthread_mutex_destroy(&src->mu);
        goto nomem;
    }
    if (pthread_cond_init(&src->can_write, NULL) != 0) {
        pthread_cond_destroy(&src->can_read);
        pthread_mutex_destroy(&src->mu);
        goto nomem;
    }
    src->sync_ready = 1;

    if (!path) {
        fail(err, TSQL_EIO, 0, -1, "cannot open: no path given");
        goto fail;
    }
    src->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (src->fd < 0) {
        fail(err, TSQL_EIO, 0, -1, "cannot open: %s", strerror(errno));
        goto fail;
    }
    struct stat st;
    if (fstat(src->fd, &st) != 0) {
        fail(err, TSQL_EIO, 0, -1, "cannot stat: %s", strerror(errno));
        goto fail;
    }
    src->file_bytes = S_ISREG(st.st_mode) ? (int64_t)st.st_size : 0;
    (void)posix_fadvise(src->fd, 0, 0, POSIX_FADV_SEQUENTIAL); /* a hint; failure is harmless */

    ssize_t n = read_full(src->fd, src->sniff, SNIFF_BYTES);
    if (n < 0) {
        fail(err, TSQL_EIO, 0, -1, "read error: %s", strerror(errno));
        goto fail;
    }
    src->nsniff = (size_t)n;
    src->kind = tsql_source_sniff(src->sniff, (size_t)n);

    if (src->kind == TSQL_SOURCE_ZIP) {
        if (!S_ISREG(st.st_mode)) {
            fail(err, TSQL_EIO, 0, -1, "zip archives must be regular files (the directory is at the end)");
            goto fail;
        }
        if (zip_open_member(src, err) < 0) goto fail;
    }

    if (src->kind == TSQL_SOURCE_PLAIN && n == 0) {
        src->state = ST_END; /* empty file: no thread, no buffers */
        return src;
    }
    if (src->kind != TSQL_SOURCE_PLAIN && !(src->inbuf = malloc(IN_BYTES))) goto nomem;
    for (int i = 0; i < RING_SLOTS; i++)
        if (!(src->slot[i] = malloc(CHUNK_BYTES))) goto nomem;

    /* Signals stay on the caller's threads, which own any handlers. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&src->thread, NULL, producer_main, src);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        fail(err, TSQL_ENOMEM, 0, -1, "cannot start reader thread: %s", strerror(rc));
        goto fail;
    }
    src->threaded = 1;
    return src;

nomem:
    fail(err, TSQL_ENOMEM, 0, -1, "out of memory");
fail:
    tsql_source_close(src);
    return NULL;
}

tsql_source *tsql_source_open_range(const char *path, int64_t start, const struct stat *expect,
                                    tsql_error *err)
{
    tsql_source *src = calloc(1, sizeof *src);
    if (!src) {
        fail(err, TSQL_ENOMEM, 0, -1, "out of memory");
        return NULL;
    }
    src->fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (src->fd < 0 || fstat(src->fd, &st) != 0) {
        fail(err, TSQL_EIO, 0, -1, "cannot open: %s", strerror(errno));
        tsql_source_close(src);
        return NULL;
    }
    if (expect && (st.st_dev != expect->st_dev || st.st_ino != expect->st_ino ||
                   st.st_size != expect->st_size ||
                   st.st_mtim.tv_sec != expect->st_mtim.tv_sec ||
                   st.st_mtim.tv_nsec != expect->st_mtim.tv_nsec)) {
        fail(err, TSQL_EIO, 0, -1, "the file changed while it was being loaded");
        tsql_source_close(src);
        return NULL;
    }
    (void)posix_fadvise(src->fd, start, 0, POSIX_FADV_SEQUENTIAL); /* a hint */
    src->file_bytes = S_ISREG(st.st_mode) ? (int64_t)st.st_size : 0;
    src->kind = TSQL_SOURCE_PLAIN;
    src->sync = 1;
    src->sync_pos = src->offset = start;
    if (!(src->slot[0] = malloc(TSQL_SOURCE_RANGE_BYTES))) {
        fail(err, TSQL_ENOMEM, 0, -1, "out of memory");
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
    ssize_t n = pread_full(src->fd, src->slot[0], TSQL_SOURCE_RANGE_BYTES, src->sync_pos);
    if (n < 0) {
        fail(&src->err, TSQL_EIO, 0, src->offset, "read error: %s", strerror(errno));
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

    pthread_mutex_lock(&src->mu);
    if (src->nheld) { /* the previous chunk goes back to the producer */
        src->nheld = 0;
        pthread_cond_signal(&src->can_write);
    }
    while (src->nfilled == 0 && !src->done)
        pthread_cond_wait(&src->can_read, &src->mu);
    if (src->nfilled > 0) {
        int i = src->rd;
        src->rd = (src->rd + 1) % RING_SLOTS;
        src->nfilled--;
        src->nheld = 1;
        pthread_mutex_unlock(&src->mu);
        *data = (const char *)src->slot[i];
        *len = src->slot_len[i];
        src->offset += (int64_t)*len;
        return 1;
    }
    pthread_mutex_unlock(&src->mu);

    /* done was seen under the lock, so perr is final. */
    if (src->perr.code == TSQL_OK) {
        src->state = ST_END;
        return 0;
    }
    src->err = src->perr;
    src->state = ST_FAILED;
failed:
    if (err && err->code == TSQL_OK) *err = src->err;
    return -1;
}

/* Stops and joins the producer (it wakes from a full ring at once and otherwise
 * notices at its next slot, within one chunk), then frees. Returns nothing. */
void tsql_source_close(tsql_source *src)
{
    if (!src) return;
    if (src->threaded) {
        pthread_mutex_lock(&src->mu);
        src->stop = 1;
        pthread_cond_signal(&src->can_write);
        pthread_mutex_unlock(&src->mu);
        pthread_join(src->thread, NULL);
    }
    if (src->sync_ready) {
        pthread_cond_destroy(&src->can_write);
        pthread_cond_destroy(&src->can_read);
        pthread_mutex_destroy(&src->mu);
    }
    for (int i = 0; i < RING_SLOTS; i++) free(src->slot[i]);
    free(src->inbuf);
    if (src->fd >= 0) close(src->fd);
    free(src);
}
