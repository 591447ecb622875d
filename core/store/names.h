/*
 * names.h — process and thread names from the M (metadata) events, as TraceLens reads
 * them (docs/schema.md, kernel_launchers (process_name)): process_name and process_labels of (pid,
 * tid 0), thread_name of (pid, tid); the last such event wins; "Unknown" when absent.
 */
#ifndef TSQL_NAMES_H
#define TSQL_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "store/trace.h"

enum { TSQL_META_PROCESS_NAME = 0, TSQL_META_PROCESS_LABEL = 1, TSQL_META_THREAD_NAME = 2 };
typedef struct tsql_meta_names {
    const char *s[3];        /* by TSQL_META_* */
    size_t len[3];
    int stable;              /* 1: the texts live as long as the trace */
} tsql_meta_names;

/* The three names of uid's (pid, tid). Names are cached per (pid, tid) with the trace,
 * so they normally live as long as it (stable = 1); only when the cache cannot grow
 * do they point into scratch (stable = 0). 0, or -1 on OOM. */
int tsql_meta_lookup(tsql_trace *t, uint32_t uid, tsql_meta_names *out, tsql_buf *scratch);

#endif
