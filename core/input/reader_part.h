/*
 * reader_part.h — one piece of a load in pieces: what the plain parallel parse
 * (reader_parallel.c) and the pipelined parse of a compressed file (reader_stream.c)
 * share with the parser (reader.c): the piece's description, the guess of an element
 * start, and the joining of the top-level members the pieces read.
 */
#ifndef TSQL_READER_PART_H
#define TSQL_READER_PART_H

#include <stdatomic.h>
#include <stdint.h>
#include <sys/stat.h>

#include "input/reader.h"
#include "store/trace.h"
#include "util/buf.h"

typedef struct tsql_part {
    /* in */
    const char *path;
    const struct stat *st;      /* the file as first opened: every piece must see it */
    int index;                  /* starts at bounds[index]; 0 = the document start */
    const int64_t *bounds;      /* ascending; bounds[0] = 0 */
    int nbounds;
    int bare_array;             /* the document is a bare array (known from its first byte) */
    const tsql_load_opts *opts; /* progress callback: only on the caller's thread, else NULL */
    size_t mem_limit;
    atomic_int *abort;          /* set when the load is interrupted: every piece stops */
    atomic_llong *done_bytes;   /* text and events parsed by all pieces (progress) */
    atomic_llong *done_events;
    /* a piece of a pipelined load (reader_stream.c) in place of the file from
     * bounds[index] (bounds unused; index 0 = the document start, else 1): its text
     * from start, chunk by chunk, from feed (1 with a chunk and its mark, 0 at the
     * end, -1 with err); it stops at the mark of the chunk it is in when it reaches
     * it between two elements of traceEvents */
    int (*feed)(void *ctx, const char **data, size_t *len, int64_t *mark, tsql_error *err);
    void *feed_ctx;
    int64_t start;
    int64_t reserve;            /* bytes of text its store is sized for */
    /* out */
    tsql_trace *t;              /* rows of this piece, in file order */
    tsql_buf meta;              /* top-level members other than traceEvents it read */
    tsql_error err;
    int rc;                     /* 0, or -1 with err set */
    int end_bound;              /* index of the bound it stopped at, -1 = end of document;
                                 * a fed piece: 0 = stopped at a chunk's mark */
    int64_t json_bytes;         /* when it reached the end: the size of the JSON text */
} tsql_part;

/* reader.c: parses one piece. Returns p->rc. */
int tsql_reader_parse_part(tsql_part *p);

/* Offset in w[0..n) of the first guessed element start (a '{' after "}," that opens
 * an object whose first member is a usual event key), or -1. */
int64_t tsql_find_bound_in(const unsigned char *w, size_t n);

/* The metadata text of a load in pieces: the members before traceEvents (first,
 * moved into meta) and after it (last, NULL when first's piece was the last one).
 * Returns 0, or -1 on OOM. */
int tsql_join_meta(tsql_buf *meta, tsql_buf *first, tsql_buf *last);

#endif
