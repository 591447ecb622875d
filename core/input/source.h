/*
 * source.h — a trace file as a stream of text chunks: plain JSON, gzip or zip.
 *
 * The format is sniffed from the first bytes, not the file name:
 *   1f 8b        gzip; multi-member files (concatenated gzip streams) are read through
 *   50 4b 03 04  zip with exactly one member (stored or deflated; data descriptors ok)
 *   otherwise    plain text
 * Compressed inputs are inflated on a second thread into a small ring of buffers so
 * that inflating and parsing overlap; plain files are read with read(2) into the same
 * ring. Memory is bounded by the ring (a few MiB), never by the file size.
 *
 * Chunks are zero-copy: tsql_source_next() hands out a pointer into the ring that is
 * valid until the next call to tsql_source_next() or tsql_source_close().
 * Offsets are positions in the uncompressed text, counted from 0.
 */
#ifndef TSQL_SOURCE_H
#define TSQL_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

enum tsql_source_kind { TSQL_SOURCE_PLAIN = 0, TSQL_SOURCE_GZIP = 1, TSQL_SOURCE_ZIP = 2 };

typedef struct tsql_source tsql_source;

/* Opens path and sniffs its format. Returns NULL on failure with err filled
 * (TSQL_EIO for open/read failures, TSQL_EFORMAT for a bad zip directory etc.).
 * Any readable file, FIFOs included (a FIFO without a writer blocks the open). */
tsql_source *tsql_source_open(const char *path, tsql_error *err);

/* The same for regular files only: the open never blocks, and a FIFO, character
 * device (/dev/stdin), socket or block device fails with TSQL_EIO and a message that
 * says so. What trace_open uses: a file swapped for a FIFO after a check cannot hang it. */
tsql_source *tsql_source_open_regular(const char *path, tsql_error *err);

/* The message of that refusal. */
#define TSQL_NOT_REGULAR_MSG                                                                   \
    "is not a regular file (a FIFO, device or socket): tracesql reads trace files only; save " \
    "the stream to a file first"

/* A plain file's text from byte start to its end, read with pread(2) on the caller's
 * thread (no read-ahead thread, no sniffing): for parsing pieces of one file on
 * several threads. Offsets still count from the start of the file. With expect, the
 * file must still be the one expect describes (device, inode, size, mtime): pieces
 * open it separately and must not read a file replaced in between. */
struct stat;
tsql_source *tsql_source_open_range(const char *path, int64_t start, const struct stat *expect,
                                    tsql_error *err);

/* The format (enum tsql_source_kind) that the first n bytes of a file announce. */
int tsql_source_sniff(const unsigned char *head, size_t n);

/* Which format was detected (enum tsql_source_kind). */
int tsql_source_kind(const tsql_source *src);

/* Size of the file on disk, in bytes. */
int64_t tsql_source_file_bytes(const tsql_source *src);

/* Next chunk of uncompressed text. Returns 1 with data and len set (len > 0),
 * 0 at the clean end of the stream, -1 on error with err filled: a corrupt or
 * truncated gzip/zip stream is TSQL_EFORMAT with err->offset = the uncompressed
 * offset reached and err->compressed = 1. */
int tsql_source_next(tsql_source *src, const char **data, size_t *len, tsql_error *err);

/* Uncompressed bytes handed out so far. */
int64_t tsql_source_offset(const tsql_source *src);

/* Stops the inflate thread (if any) and frees everything. Accepts NULL. */
void tsql_source_close(tsql_source *src);

#endif
