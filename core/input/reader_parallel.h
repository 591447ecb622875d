/*
 * reader_parallel.h — parsing a plain JSON trace in pieces on several threads.
 *
 * The traceEvents array is cut at guessed element starts ("bounds", found by a byte
 * pattern near evenly spaced offsets). Piece i is parsed from bounds[i] into its own
 * partial store (own string table, rows numbered from 0) until it reaches a later
 * bound at an element start of traceEvents, or the end of the document. A guess is
 * only trusted when the piece before it stops exactly there: that piece's parser
 * started in a known state, so reaching the bound between two elements of the array
 * proves the guess. A piece whose start was not proven is discarded and its text is
 * parsed by the piece before it, which simply runs on (see tsql_load_parallel).
 * The proven pieces are then appended in file order (tsql_store_append), which gives
 * the store the serial parse would have built: same rows, uids, string ids, warnings.
 */
#ifndef TSQL_READER_PARALLEL_H
#define TSQL_READER_PARALLEL_H

#include "input/reader.h"
#include "store/trace.h"
#include "util/buf.h"

/* reader_parallel.c: loads path in pieces when it pays (a plain file of some size,
 * opts->threads != 1). Returns 1 when it does not apply (the caller parses serially),
 * 0 with *out (rows parsed and merged; no tree yet) and meta filled, or -1 with err.
 * A compressed file goes to tsql_load_stream (reader_stream.h). */
int tsql_load_parallel(const char *path, const tsql_load_opts *opts, tsql_trace **out,
                       tsql_buf *meta, tsql_error *err);

#endif
