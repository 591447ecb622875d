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

#include <stdatomic.h>
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

/* ---- several readers of one source (the pipelined parse, reader_stream.h) ----
 *
 * The text comes as numbered chunks (0, 1, ... in text order); any published chunk
 * may be read by any thread until the readers release it. */

/* Called on the producer thread with chunk k (its text offset and bytes) before it is
 * published; what it returns is handed out with the chunk (e.g. where a piece of the
 * parse may start, -1 for none). */
typedef int64_t (*tsql_source_mark_fn)(void *ctx, int64_t k, int64_t off, const char *text,
                                       size_t len);

typedef struct tsql_source_cfg {
    size_t chunk_bytes;        /* 0: the default (4 MiB) */
    int slots;                 /* chunks in memory at once; 0: the default (4) */
    tsql_source_mark_fn mark;  /* may be NULL */
    void *mark_ctx;
} tsql_source_cfg;

/* tsql_source_open_regular with a ring of cfg's shape. Returns as that. */
tsql_source *tsql_source_open_cfg(const char *path, const tsql_source_cfg *cfg, tsql_error *err);

/* Waits for chunk k (not yet released). Returns 1 with its text, text offset and
 * mark; 0 when the text ended before k; -1 when the stream failed before k (err
 * filled: the error tsql_source_next would give there); -2 when *cancel (may be
 * NULL) became non-zero while waiting: see tsql_source_wake. Not to be mixed with
 * tsql_source_next on one source. */
int tsql_source_chunk(tsql_source *src, int64_t k, const atomic_int *cancel, const char **data,
                      size_t *len, int64_t *off, int64_t *mark, tsql_error *err);

/* Chunks below lo are no longer needed by any reader (lo only rises). */
void tsql_source_release(tsql_source *src, int64_t lo);

/* Wakes the readers waiting in tsql_source_chunk, to look at their cancel flags. */
void tsql_source_wake(tsql_source *src);

#endif
