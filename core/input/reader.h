/*
 * reader.h — JSON trace text into the event store, serially (reader.c) or in pieces
 * on several threads (reader_parallel.h). The tree is built afterwards (load/load.c).
 */
#ifndef TSQL_READER_H
#define TSQL_READER_H

#include <stdint.h>

#include "store/trace.h"

/* Load options; zero-initialise for defaults. */
typedef struct tsql_load_opts {
    size_t mem_limit;                                  /* bytes, 0 = unlimited */
    /* every 16 MiB of text: bytes and events parsed so far (all pieces of a parallel
     * load together); a non-zero return interrupts */
    int (*progress)(void *ctx, int64_t bytes_done, int64_t events_done);
    void *progress_ctx;
    int threads;                                       /* 0 = auto (up to 2) */
} tsql_load_opts;

/* Parses path on this thread into a new store. Returns 0 with *out (rows, no tree)
 * and meta (the top-level members other than traceEvents) filled, or -1 with err set
 * (*out may then hold a partial store for the caller to free). */
int tsql_reader_parse(const char *path, const tsql_load_opts *opts, tsql_trace **out,
                      tsql_buf *meta, tsql_error *err);

/* Reads the metadata members (compact JSON members, without the braces) into t:
 * rank, world size, devices, base time, GPU name. 0, or -1 on OOM. */
int tsql_reader_metadata(tsql_trace *t, tsql_buf *meta);

#endif
