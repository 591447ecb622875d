/*
 * source_gzip.c — the gzip producer: inflates every member, checks CRC and size.
 *
 * TWO INFLATERS: with ISA-L (built with TSQL_HAVE_ISAL, when pkg-config finds libisal)
 * members are inflated by its igzip, ~2.5x faster than zlib on trace text; zlib is the
 * fallback build and also the judge of every damaged stream. ISA-L's errors are
 * coarser than zlib's ("invalid block" vs zlib's seven reasons) and it may stop a few
 * bytes elsewhere, so when ISA-L finds anything wrong the failing member is inflated
 * again by zlib from its first byte (its output is dropped up to where ISA-L got),
 * and zlib's message and byte offset are what the user sees: the same error, text
 * and offset in both builds. Only an input that cannot seek back (a pipe) gets ISA-L's
 * own error, mapped to the same wording where the meaning is the same.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#ifdef TSQL_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif

#include "input/source_gzip.h"
#include "util/crc32.h"

/* Where inflated text goes: the ring slot being filled. OUT_POS is the uncompressed
 * offset of its end, i.e. the bytes handed out or about to be. */
struct gz_out {
    unsigned char *slot;       /* ring slot being filled */
    size_t used;               /* bytes in it, always < src->chunk between calls */
    int64_t produced;          /* bytes in published slots */
};
#define OUT_POS(o) ((o)->produced + (int64_t)(o)->used)

/* Publishes a full slot and acquires the next. Returns 0, or -1 when the consumer
 * asked the producer to stop. */
static int out_next(tsql_source *src, struct gz_out *o)
{
    tsql_src_ring_publish(src, o->used);
    o->produced += (int64_t)o->used;
    o->used = 0;
    o->slot = tsql_src_ring_acquire(src);
    return o->slot ? 0 : -1;
}

/* Tops up the compressed input in src->inbuf (whose unread bytes start at *next and
 * number *avail) so at least want bytes are available, fewer only at end of file (then
 * *eof is set). *base_off, if given, is the file offset of inbuf[0] and moves with it.
 * Returns 0, or -1 with errno set by read(2). */
static int gz_fill(tsql_source *src, unsigned char **next, size_t *avail, int *eof, size_t want,
                   int64_t *base_off)
{
    if (*avail >= want || *eof) return 0;
    size_t have = *avail;
    if (base_off) *base_off += *next - src->inbuf;
    memmove(src->inbuf, *next, have);
    ssize_t n = tsql_src_read_full(src->fd, src->inbuf + have, IN_BYTES - have);
    if (n < 0) return -1;
    if ((size_t)n < IN_BYTES - have) *eof = 1;
    *next = src->inbuf;
    *avail = have + (size_t)n;
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

/* Bytes of scratch output for the text zlib re-inflates before where ISA-L stopped. */
enum { SKIP_BYTES = 1 << 20 };

/* Inflates with zlib from the file's current read position to the end of the stream
 * or the first error, member after member, into o. The first npre input bytes are in
 * src->inbuf already (the sniffed ones); between says the input starts after a member
 * (so a clean end or another member must follow). pos is the uncompressed offset of
 * the first byte inflated; text before OUT_POS(o) was handed out already (by ISA-L)
 * and is only checked, not handed out again. Returns 0 (the outcome is in src->perr),
 * or -1 when the consumer asked the producer to stop. */
static int gz_zlib(tsql_source *src, struct gz_out *o, size_t npre, int between, int64_t pos)
{
    z_stream zs = {.zalloc = Z_NULL, .zfree = Z_NULL, .opaque = Z_NULL};
    int eof = 0;
    int own_check = -1;        /* this member's CRC is ours (1) or zlib's (0); -1 unknown */
    int pending = 0;           /* the last inflate filled its output: it may hold more */
    uint32_t crc = 0;          /* of this member's text so far, when own_check */
    unsigned char tail[8] = {0};
    unsigned char *skip = NULL;
    int ret = 0;

    /* 16: gzip wrapper only, so a zlib or raw stream after a member is garbage. */
    if (inflateInit2(&zs, 15 + 16) != Z_OK) {
        tsql_src_fail(&src->perr, TSQL_ENOMEM, 1, OUT_POS(o), "out of memory starting gzip inflate");
        return 0;
    }
    if (pos < OUT_POS(o) && !(skip = malloc(SKIP_BYTES))) {
        tsql_src_fail(&src->perr, TSQL_ENOMEM, 1, OUT_POS(o), "out of memory re-inflating gzip stream");
        inflateEnd(&zs);
        return 0;
    }
    unsigned char *next = src->inbuf;
    size_t avail = npre;
    for (;;) {
        /* error offsets: everything decoded and handed out so far */
        int64_t at = OUT_POS(o);
        if (gz_fill(src, &next, &avail, &eof, between ? 2 : 1, NULL) < 0) {
            tsql_src_fail(&src->perr, TSQL_EIO, 1, at, "read error: %s", strerror(errno));
            break;
        }
        if (between) {
            if (avail == 0) break; /* clean end after the last member */
            if (avail < 2 || next[0] != 0x1f || next[1] != 0x8b) {
                tsql_src_fail(&src->perr, TSQL_EFORMAT, 1, at,
                     "gzip stream has trailing data that is not a gzip member");
                break;
            }
            between = 0;
        }
        if (avail == 0 && !pending) {
            tsql_src_fail(&src->perr, TSQL_EFORMAT, 1, at, "gzip stream is truncated");
            break;
        }
        if (own_check < 0) {
            /* at a member's first bytes: FLG bit 1 is FHCRC (too few bytes: zlib checks) */
            own_check = avail >= 4 && !(next[3] & 0x02);
            inflateValidate(&zs, !own_check);
            crc = 0;
        }
        /* text ISA-L handed out already goes to scratch, exactly up to where it got */
        int skipping = pos < OUT_POS(o);
        int64_t want_skip = OUT_POS(o) - pos;
        unsigned char *out0 = skipping ? skip : o->slot + o->used;
        zs.next_out = out0;
        zs.avail_out = skipping ? (uInt)(want_skip < SKIP_BYTES ? want_skip : SKIP_BYTES)
                                : (uInt)(src->chunk - o->used);
        zs.next_in = next;
        zs.avail_in = (uInt)avail;
        int rc = inflate(&zs, Z_NO_FLUSH);
        pending = zs.avail_out == 0;
        keep_tail(tail, next, zs.next_in);
        next = zs.next_in;
        avail = zs.avail_in;
        size_t made = (size_t)(zs.next_out - out0);
        pos += (int64_t)made;
        if (!skipping) o->used += made;
        if (own_check > 0 && made) crc = tsql_crc32(crc, out0, made);
        if (rc == Z_STREAM_END && own_check > 0) {
            uint32_t want = (uint32_t)tail[0] | (uint32_t)tail[1] << 8 |
                            (uint32_t)tail[2] << 16 | (uint32_t)tail[3] << 24;
            uint32_t size = (uint32_t)tail[4] | (uint32_t)tail[5] << 8 |
                            (uint32_t)tail[6] << 16 | (uint32_t)tail[7] << 24;
            const char *why = want != crc ? "incorrect data check"
                              : size != (uint32_t)zs.total_out ? "incorrect length check"
                                                               : NULL;
            if (why) {
                tsql_src_fail(&src->perr, TSQL_EFORMAT, 1, OUT_POS(o), "gzip stream is corrupt (%s)", why);
                break;
            }
        }
        if (rc == Z_STREAM_END) {
            between = 1;
            own_check = -1;
            inflateReset(&zs);
        } else if (rc == Z_MEM_ERROR) {
            tsql_src_fail(&src->perr, TSQL_ENOMEM, 1, OUT_POS(o), "out of memory inflating gzip stream");
            break;
        } else if (rc == Z_BUF_ERROR && avail == 0) {
            /* its output was flushed: the input ends inside the member */
            tsql_src_fail(&src->perr, TSQL_EFORMAT, 1, OUT_POS(o), "gzip stream is truncated");
            break;
        } else if (rc != Z_OK) {
            /* Z_BUF_ERROR cannot happen with input and output space; treat it as
             * corruption rather than loop on it. */
            tsql_src_fail(&src->perr, TSQL_EFORMAT, 1, OUT_POS(o), "gzip stream is corrupt (%s)",
                          zs.msg ? zs.msg : "inflate made no progress");
            break;
        }
        if (o->used == src->chunk && out_next(src, o) < 0) {
            ret = -1;
            break;
        }
    }
    free(skip);
    inflateEnd(&zs);
    return ret;
}

#ifdef TSQL_HAVE_ISAL
/* ISA-L's error, for input that cannot be re-read by zlib (a pipe). Returns the
 * message in zlib's words where the meaning is the same. */
static const char *isal_why(int rc)
{
    switch (rc) {
    case ISAL_INVALID_BLOCK: return "invalid block";
    case ISAL_INVALID_SYMBOL: return "invalid code";
    case ISAL_INVALID_LOOKBACK: return "invalid distance too far back";
    case ISAL_INVALID_WRAPPER: return "incorrect header check";
    case ISAL_UNSUPPORTED_METHOD: return "unknown compression method";
    case ISAL_INCORRECT_CHECKSUM: return "incorrect data or length check";
    default: return "inflate failed";
    }
}

/* Inflates with ISA-L, member after member, into o. On the first sign of damage
 * (an error, or input ending inside a member) the member is handed to zlib, which
 * re-inflates it from its first byte and reports. Returns 0 (the outcome is in
 * src->perr), or -1 when the consumer asked the producer to stop. */
static int gz_isal(tsql_source *src, struct gz_out *o)
{
    struct inflate_state *st = malloc(sizeof *st);
    if (!st) {
        tsql_src_fail(&src->perr, TSQL_ENOMEM, 1, 0, "out of memory starting gzip inflate");
        return 0;
    }
    memcpy(src->inbuf, src->sniff, src->nsniff);
    unsigned char *next = src->inbuf;
    size_t avail = src->nsniff;
    int64_t base_off = 0;          /* file offset of src->inbuf[0] */
    int64_t member_in = 0;         /* file offset of this member's first byte */
    int64_t member_out = 0;        /* uncompressed offset of its first byte */
    int eof = 0, between = 0, ret = 0;
    size_t want = 1;               /* input bytes wanted before the next call */
    int bad = 0;                   /* ISA-L's error code, or 1: the input ended inside a member */
    isal_inflate_init(st);
    st->crc_flag = ISAL_GZIP;

    for (;;) {
        if (gz_fill(src, &next, &avail, &eof, between ? 2 : want, &base_off) < 0) {
            tsql_src_fail(&src->perr, TSQL_EIO, 1, OUT_POS(o), "read error: %s", strerror(errno));
            break;
        }
        want = 1;
        if (between) {
            if (avail == 0) break; /* clean end after the last member */
            member_in = base_off + (next - src->inbuf);
            member_out = OUT_POS(o);
            if (avail < 2 || next[0] != 0x1f || next[1] != 0x8b) {
                bad = 1; /* zlib words it */
                break;
            }
            isal_inflate_reset(st);
            st->crc_flag = ISAL_GZIP;
            between = 0;
        }
        st->next_in = next;
        st->avail_in = (uint32_t)avail;
        st->next_out = o->slot + o->used;
        st->avail_out = (uint32_t)(src->chunk - o->used);
        int rc = isal_inflate(st);
        size_t made = (size_t)(st->next_out - (o->slot + o->used));
        o->used += made;
        int took = st->next_in != next;
        next = st->next_in;
        avail = st->avail_in;
        if (rc != ISAL_DECOMP_OK) {
            bad = rc;
            break;
        }
        if (st->block_state == ISAL_BLOCK_FINISH) {
            between = 1;
        } else if (!made && (!took || !avail)) {
            /* stuck for want of input: read more, or the member is cut short; stuck
             * with a full input buffer never happens in a valid stream: zlib judges */
            if (eof || avail >= IN_BYTES) {
                bad = eof ? 1 : ISAL_INVALID_BLOCK;
                break;
            }
            want = avail + 1;
        }
        if (o->used == src->chunk && out_next(src, o) < 0) {
            ret = -1;
            break;
        }
    }
    free(st);
    if (!bad || ret < 0) return ret;

    /* zlib judges the member from its first byte. ISA-L's text not yet handed out is
     * taken back (it may end in a few bytes zlib rejects); zlib's output is dropped up
     * to OUT_POS and handed out from there. */
    if (lseek(src->fd, (off_t)member_in, SEEK_SET) == (off_t)member_in) {
        int64_t keep = member_out > o->produced ? member_out - o->produced : 0;
        if ((int64_t)o->used > keep) o->used = (size_t)keep;
        return gz_zlib(src, o, 0, member_in > 0, member_out);
    }
    if (bad == 1)
        tsql_src_fail(&src->perr, TSQL_EFORMAT, 1, OUT_POS(o),
                      between ? "gzip stream has trailing data that is not a gzip member"
                              : "gzip stream is truncated");
    else
        tsql_src_fail(&src->perr, TSQL_EFORMAT, 1, OUT_POS(o), "gzip stream is corrupt (%s)",
                      isal_why(bad));
    return 0;
}
#endif

void tsql_src_produce_gzip(tsql_source *src)
{
    struct gz_out o = {.slot = tsql_src_ring_acquire(src)};
    if (!o.slot) return;
#ifdef TSQL_HAVE_ISAL
    int rc = gz_isal(src, &o);
#else
    memcpy(src->inbuf, src->sniff, src->nsniff);
    int rc = gz_zlib(src, &o, src->nsniff, 0, 0);
#endif
    /* Text before an error is still delivered, so the parser reaches the error's offset. */
    if (rc == 0 && o.used) tsql_src_ring_publish(src, o.used);
}
