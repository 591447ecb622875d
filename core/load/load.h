/*
 * load.h — the whole load of one trace file: parse (input/), then the tree (tree/).
 * The analyses are built later, on first use, and kept in the trace's cache slots.
 */
#ifndef TSQL_LOAD_H
#define TSQL_LOAD_H

#include "input/reader.h"
#include "store/trace.h"

/* Loads a trace file. Returns NULL with err filled on failure (nothing is kept). */
tsql_trace *tsql_trace_load(const char *path, const tsql_load_opts *opts, tsql_error *err);

#endif
