/*
 * reader_stream.h — a compressed trace (gzip, zip) parsed in pieces on several threads
 * while a third inflates it: the pipelined load.
 *
 * The inflated text arrives as numbered chunks of a ring (source.h, several
 * readers). As each chunk is published, the inflating thread guesses an element
 * start of traceEvents in it (the byte pattern of the plain parallel parse,
 * reader_parallel.h) and marks the chunk with it. Workers take the chunks in order;
 * a marked chunk starts a piece, parsed from its mark into its own partial store
 * through the chunks that follow until it reaches the mark of a later chunk between
 * two elements, or the end of the document. Piece 0 starts at the document's first
 * byte and is the caller's (the progress callback runs on the caller's thread only).
 *
 * As with the plain parallel parse, a mark is trusted only when the piece on the
 * proven chain before it (piece 0, then the piece each proven piece stopped at)
 * stops exactly there; the pieces it runs past are discarded. The chain's pieces
 * are appended to piece 0's store in text order as they finish (tsql_store_append),
 * which gives the store the serial parse builds: same rows, uids, string ids,
 * warnings, and the same first error with its offset, whatever the threads' timing.
 *
 * Memory: the text in memory is the ring (slots x chunk), never the file: the
 * inflater waits while the lowest chunk a piece still needs is slots chunks behind.
 * The chain's current piece can always go on (the chunk after its own is within the
 * ring), and when it reads past a later chunk's mark the piece that starts there is
 * known wrong and stopped, so a wrong guess cannot hold the ring.
 */
#ifndef TSQL_READER_STREAM_H
#define TSQL_READER_STREAM_H

#include <stdint.h>

#include "input/reader.h"

/* Loads the compressed file path (file_bytes on disk) in pieces when it pays (a file
 * of some size, opts->threads != 1, no memory ceiling). Returns 1 when it does not
 * apply (the caller parses serially), 0 with *out (rows parsed and appended; no tree
 * yet) and meta filled, or -1 with err (err->compressed set past the open).
 * TSQL_TEST_STREAM (tests only) forces it whatever the size: "CHUNK" or
 * "CHUNK,SLOTS", the ring's chunk bytes and slots. */
int tsql_load_stream(const char *path, const tsql_load_opts *opts, int64_t file_bytes,
                     tsql_trace **out, tsql_buf *meta, tsql_error *err);

#endif
