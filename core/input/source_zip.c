/* source_zip.c — a zip archive of one member: the central directory, then the
 * member's data, stored or deflated, checked against its CRC and sizes. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "input/source_zip.h"

enum {
    ZIP_EOCD_BYTES = 22,       /* end of central directory record without comment */
    ZIP_MAX_COMMENT = 65535,
};
#include "util/crc32.h"

void tsql_src_produce_zip(tsql_source *src)
{
    const struct tsql_zip_member *m = src->zip;
    z_stream zs = {.zalloc = Z_NULL, .zfree = Z_NULL, .opaque = Z_NULL};
    int deflated = m->method == 8;
    int64_t pos = m->data_off;
    uint64_t in_left = m->csize;
    int64_t produced = 0;
    uLong crc = crc32(0L, Z_NULL, 0);
    int end = 0;
    int pending = 0;           /* the last inflate filled its output: it may hold more */

    if (deflated && inflateInit2(&zs, -15) != Z_OK) {
        tsql_src_fail(&src->perr, TSQL_ENOMEM, 1, 0, "out of memory starting zip inflate");
        return;
    }
    unsigned char *out = tsql_src_ring_acquire(src);
    if (!out) goto stopped;
    zs.next_out = out;
    zs.avail_out = (uInt)src->chunk;
    while (!end) {
        int64_t at = produced + (int64_t)(src->chunk - zs.avail_out);
        if (deflated) {
            if (zs.avail_in == 0 && in_left > 0) {
                size_t want = in_left < IN_BYTES ? (size_t)in_left : IN_BYTES;
                ssize_t n = tsql_src_pread_full(src->fd, src->inbuf, want, pos);
                if (n < 0) {
                    tsql_src_fail(&src->perr, TSQL_EIO, 1, at, "read error: %s", strerror(errno));
                    break;
                }
                pos += n;
                in_left = (size_t)n < want ? 0 : in_left - want; /* short: file shrank */
                zs.next_in = src->inbuf;
                zs.avail_in = (uInt)n;
            }
            if (zs.avail_in == 0 && !pending) {
                tsql_src_fail(&src->perr, TSQL_EFORMAT, 1, at, "zip member is truncated");
                break;
            }
            int rc = inflate(&zs, Z_NO_FLUSH);
            pending = zs.avail_out == 0; /* the output was full: zlib may hold more */
            if (rc == Z_STREAM_END) {
                end = 1;
            } else if (rc == Z_MEM_ERROR) {
                tsql_src_fail(&src->perr, TSQL_ENOMEM, 1, produced + (int64_t)(src->chunk - zs.avail_out),
                     "out of memory inflating zip member");
                break;
            } else if (rc == Z_BUF_ERROR && zs.avail_in == 0) { /* flushed, and no input left */
                tsql_src_fail(&src->perr, TSQL_EFORMAT, 1, at, "zip member is truncated");
                break;
            } else if (rc != Z_OK) {
                tsql_src_fail(&src->perr, TSQL_EFORMAT, 1, produced + (int64_t)(src->chunk - zs.avail_out),
                     "zip member is corrupt (%s)", zs.msg ? zs.msg : "inflate made no progress");
                break;
            }
        } else if (in_left == 0) {
            end = 1;
        } else {
            size_t want = in_left < zs.avail_out ? (size_t)in_left : zs.avail_out;
            ssize_t n = tsql_src_pread_full(src->fd, zs.next_out, want, pos);
            if (n < 0) {
                tsql_src_fail(&src->perr, TSQL_EIO, 1, at, "read error: %s", strerror(errno));
                break;
            }
            if (n == 0) {
                tsql_src_fail(&src->perr, TSQL_EFORMAT, 1, at, "zip member is truncated");
                break;
            }
            pos += n;
            in_left -= (uint64_t)n;
            zs.next_out += n;
            zs.avail_out -= (uInt)n;
        }
        if (zs.avail_out == 0 || end) {
            size_t len = src->chunk - zs.avail_out;
            if (len == 0) break;
            crc = tsql_crc32((uint32_t)crc, out, len);
            tsql_src_ring_publish(src, len);
            produced += (int64_t)len;
            zs.avail_out = (uInt)src->chunk; /* nothing pending if we stop below */
            if (end) break;
            if (!(out = tsql_src_ring_acquire(src))) goto stopped;
            zs.next_out = out;
        }
    }
    if (end) {
        if ((uint64_t)produced != m->usize)
            tsql_src_fail(&src->perr, TSQL_EFORMAT, 1, produced,
                 "zip member has %lld bytes but the directory says %llu",
                 (long long)produced, (unsigned long long)m->usize);
        else if ((uint32_t)crc != m->crc)
            tsql_src_fail(&src->perr, TSQL_EFORMAT, 1, produced,
                 "zip member CRC mismatch (directory %08x, data %08x)",
                 (unsigned)m->crc, (unsigned)crc);
    } else if (zs.avail_out < src->chunk) {
        tsql_src_ring_publish(src, src->chunk - zs.avail_out);
    }
stopped:
    if (deflated) inflateEnd(&zs);
}

/* Reads n bytes at off of the archive into buf; a short read means the directory
 * points outside the file. Returns 0, or -1 with err filled. */
static int zip_read(tsql_source *src, void *buf, size_t n, int64_t off, const char *what,
                    tsql_error *err)
{
    if (off < 0 || off > src->file_bytes || (int64_t)n > src->file_bytes - off) {
        /* the offset is where the record starts, or the end of the file if it starts past it */
        tsql_src_fail(err, TSQL_EFORMAT, 0, off < 0 ? -1 : off > src->file_bytes ? src->file_bytes : off,
             "%s lies outside the file", what);
        return -1;
    }
    ssize_t r = tsql_src_pread_full(src->fd, buf, n, off);
    if (r < 0) {
        tsql_src_fail(err, TSQL_EIO, 0, -1, "read error: %s", strerror(errno));
        return -1;
    }
    if ((size_t)r < n) {
        tsql_src_fail(err, TSQL_EFORMAT, 0, off, "%s is truncated", what);
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
        tsql_src_fail(err, TSQL_ENOMEM, 0, -1, "out of memory reading zip directory");
        return -1;
    }
    int rc = -1;
    if (zip_read(src, buf, tail, size - (int64_t)tail, "zip end record", err) < 0) goto out;

    /* Search backwards: the record is last, followed only by its comment. */
    int64_t at = -1;
    for (int64_t i = (int64_t)tail - ZIP_EOCD_BYTES; i >= 0; i--) {
        const unsigned char *p = buf + i;
        if (tsql_src_le32(p) == 0x06054b50 && i + ZIP_EOCD_BYTES + tsql_src_le16(p + 20) <= (int64_t)tail) {
            at = i;
            break;
        }
    }
    if (at < 0) {
        tsql_src_fail(err, TSQL_EFORMAT, 0, size,
             "zip archive has no end of central directory record (truncated file?)");
        goto out;
    }
    const unsigned char *e = buf + at;
    int64_t eocd_pos = size - (int64_t)tail + at;
    uint32_t disk = tsql_src_le16(e + 4), cd_disk = tsql_src_le16(e + 6);
    uint64_t n = tsql_src_le16(e + 10);
    uint64_t off = tsql_src_le32(e + 16);
    if (n == 0xffff || off == 0xffffffffu || tsql_src_le32(e + 12) == 0xffffffffu) {
        unsigned char loc[20], z[56];
        if (eocd_pos < 20 || zip_read(src, loc, sizeof loc, eocd_pos - 20, "zip64 locator", err) < 0)
            goto missing64;
        if (tsql_src_le32(loc) != 0x07064b50) goto missing64;
        uint64_t zoff = tsql_src_le64(loc + 8);
        if (zoff > (uint64_t)size) goto missing64;
        if (zip_read(src, z, sizeof z, (int64_t)zoff, "zip64 end of central directory record", err) < 0) goto out;
        if (tsql_src_le32(z) != 0x06064b50) goto missing64;
        disk = tsql_src_le32(z + 16);
        cd_disk = tsql_src_le32(z + 20);
        n = tsql_src_le64(z + 32);
        off = tsql_src_le64(z + 48);
    }
    if (disk != 0 || cd_disk != 0) {
        tsql_src_fail(err, TSQL_EFORMAT, 0, eocd_pos, "multi-disk zip archives are not supported");
        goto out;
    }
    if (n != 1) {
        tsql_src_fail(err, TSQL_EFORMAT, 0, eocd_pos, "zip archive has %llu entries; expected one trace",
             (unsigned long long)n);
        goto out;
    }
    if (off >= (uint64_t)size) {
        tsql_src_fail(err, TSQL_EFORMAT, 0, eocd_pos, "zip central directory lies outside the file");
        goto out;
    }
    *cd_off = (int64_t)off;
    rc = 0;
    goto out;
missing64:
    tsql_src_fail(err, TSQL_EFORMAT, 0, eocd_pos, "zip64 end of central directory record is missing or corrupt");
out:
    free(buf);
    return rc;
}

int tsql_src_zip_open_member(tsql_source *src, tsql_error *err)
{
    int64_t cd_off;
    if (zip_find_directory(src, &cd_off, err) < 0) return -1;

    unsigned char c[46];
    if (zip_read(src, c, sizeof c, cd_off, "zip central directory", err) < 0) return -1;
    if (tsql_src_le32(c) != 0x02014b50) {
        tsql_src_fail(err, TSQL_EFORMAT, 0, cd_off, "zip central directory is corrupt (bad signature)");
        return -1;
    }
    unsigned flags = tsql_src_le16(c + 8), method = tsql_src_le16(c + 10);
    uint64_t csize = tsql_src_le32(c + 20), usize = tsql_src_le32(c + 24), lho = tsql_src_le32(c + 42);
    unsigned nlen = tsql_src_le16(c + 28), xlen = tsql_src_le16(c + 30);

    if (usize == 0xffffffffu || csize == 0xffffffffu || lho == 0xffffffffu) {
        /* Zip64 extra field: only the saturated fields are present, in this order. */
        unsigned char *x = malloc(xlen ? xlen : 1);
        if (!x) {
            tsql_src_fail(err, TSQL_ENOMEM, 0, -1, "out of memory reading zip directory");
            return -1;
        }
        if (zip_read(src, x, xlen, cd_off + 46 + nlen, "zip central directory", err) < 0) {
            free(x);
            return -1;
        }
        size_t i = 0;
        int found = 0;
        while (i + 4 <= xlen) {
            unsigned id = tsql_src_le16(x + i), len = tsql_src_le16(x + i + 2);
            if (i + 4 + len > xlen) break;
            if (id == 0x0001) {
                uint64_t *want[3] = {&usize, &csize, &lho};
                size_t used = 0;
                found = 1;
                for (int k = 0; k < 3; k++) {
                    if (*want[k] != 0xffffffffu) continue;
                    if (used + 8 > len) found = 0;
                    else *want[k] = tsql_src_le64(x + i + 4 + used);
                    used += 8;
                }
                break;
            }
            i += 4 + len;
        }
        free(x);
        if (!found) {
            tsql_src_fail(err, TSQL_EFORMAT, 0, cd_off, "zip64 extra field is missing or too short");
            return -1;
        }
    }
    if (flags & 1) {
        tsql_src_fail(err, TSQL_EFORMAT, 0, cd_off, "zip member is encrypted");
        return -1;
    }
    if (method != 0 && method != 8) {
        tsql_src_fail(err, TSQL_EFORMAT, 0, cd_off,
             "zip member uses compression method %u; only stored (0) and deflate (8) are supported",
             method);
        return -1;
    }
    if (method == 0 && csize != usize) {
        tsql_src_fail(err, TSQL_EFORMAT, 0, cd_off, "stored zip member has different compressed and uncompressed sizes");
        return -1;
    }

    unsigned char l[30];
    if (lho > INT64_MAX || zip_read(src, l, sizeof l, (int64_t)lho, "zip local header", err) < 0) {
        tsql_src_fail(err, TSQL_EFORMAT, 0, cd_off, "zip local header lies outside the file");
        return -1;
    }
    if (tsql_src_le32(l) != 0x04034b50) {
        tsql_src_fail(err, TSQL_EFORMAT, 0, (int64_t)lho, "zip local header is corrupt (bad signature)");
        return -1;
    }
    int64_t data_off = (int64_t)lho + 30 + tsql_src_le16(l + 26) + tsql_src_le16(l + 28);
    if (data_off > src->file_bytes || csize > (uint64_t)(src->file_bytes - data_off)) {
        tsql_src_fail(err, TSQL_EFORMAT, 0, (int64_t)lho, "zip member extends past the end of the file");
        return -1;
    }
    if (!(src->zip = malloc(sizeof *src->zip))) {
        tsql_src_fail(err, TSQL_ENOMEM, 0, -1, "out of memory reading zip directory");
        return -1;
    }
    *src->zip = (struct tsql_zip_member){
        .method = (int)method, .crc = tsql_src_le32(c + 16), .csize = csize, .usize = usize,
        .data_off = data_off,
    };
    return 0;
}
