/* source_gzip.c — the gzip producer: inflates every member, checks CRC and size. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "input/source_internal.h"
#include "util/crc32.h"

/* Tops up the compressed input so at least want bytes are available, fewer only at
 * end of file (then *eof is set). Returns 0, or -1 with errno set by read(2). */
static int gz_fill(tsql_source *src, z_stream *zs, int *eof, size_t want)
{
    if (zs->avail_in >= want || *eof) return 0;
    size_t have = zs->avail_in;
    memmove(src->inbuf, zs->next_in, have);
    ssize_t n = tsql_src_read_full(src->fd, src->inbuf + have, IN_BYTES - have);
    if (n < 0) return -1;
    if ((size_t)n < IN_BYTES - have) *eof = 1;
    zs->next_in = src->inbuf;
    zs->avail_in = (uInt)(have + (size_t)n);
    return 0;
}

/*
 * CRC CHECK: zlib's own CRC-32 of the inflated text costs ~0.27 s of the ~1.2 s it
 * takes to inflate the 1.1 GB benchmark trace here. So zlib is told not to compute
 * it (inflateValidate) and tsql_crc32 (core/util/crc32.c, ~5x faster) checks each member
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
void tsql_src_produce_gzip(tsql_source *src)
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
        tsql_src_fail(&src->perr, TSQL_ENOMEM, 1, 0, "out of memory starting gzip inflate");
        return;
    }
    memcpy(src->inbuf, src->sniff, src->nsniff);
    zs.next_in = src->inbuf;
    zs.avail_in = (uInt)src->nsniff;

    unsigned char *out = tsql_src_ring_acquire(src);
    if (!out) goto stopped;
    zs.next_out = out;
    zs.avail_out = CHUNK_BYTES;
    for (;;) {
        int64_t at = produced + (CHUNK_BYTES - zs.avail_out);
        if (gz_fill(src, &zs, &eof, between ? 2 : 1) < 0) {
            tsql_src_fail(&src->perr, TSQL_EIO, 1, at, "read error: %s", strerror(errno));
            break;
        }
        if (between) {
            if (zs.avail_in == 0) break; /* clean end after the last member */
            if (zs.avail_in < 2 || zs.next_in[0] != 0x1f || zs.next_in[1] != 0x8b) {
                tsql_src_fail(&src->perr, TSQL_EFORMAT, 1, at,
                     "gzip stream has trailing data that is not a gzip member");
                break;
            }
            between = 0;
        }
        if (zs.avail_in == 0) {
            tsql_src_fail(&src->perr, TSQL_EFORMAT, 1, at, "gzip stream is truncated");
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
                tsql_src_fail(&src->perr, TSQL_EFORMAT, 1, produced + (CHUNK_BYTES - zs.avail_out),
                     "gzip stream is corrupt (%s)", why);
                break;
            }
        }
        if (rc == Z_STREAM_END) {
            between = 1;
            own_check = -1;
            inflateReset(&zs);
        } else if (rc == Z_MEM_ERROR) {
            tsql_src_fail(&src->perr, TSQL_ENOMEM, 1, produced + (CHUNK_BYTES - zs.avail_out),
                 "out of memory inflating gzip stream");
            break;
        } else if (rc != Z_OK) {
            /* Z_BUF_ERROR cannot happen with input and output space; treat it as
             * corruption rather than loop on it. */
            tsql_src_fail(&src->perr, TSQL_EFORMAT, 1, produced + (CHUNK_BYTES - zs.avail_out),
                 "gzip stream is corrupt (%s)", zs.msg ? zs.msg : "inflate made no progress");
            break;
        }
        if (zs.avail_out == 0) {
            tsql_src_ring_publish(src, CHUNK_BYTES);
            produced += CHUNK_BYTES;
            if (!(out = tsql_src_ring_acquire(src))) goto stopped;
            zs.next_out = out;
            zs.avail_out = CHUNK_BYTES;
        }
    }
    /* Text before an error is still delivered, so the parser reaches the error's offset. */
    if (zs.avail_out < CHUNK_BYTES) tsql_src_ring_publish(src, CHUNK_BYTES - zs.avail_out);
stopped:
    inflateEnd(&zs);
}
