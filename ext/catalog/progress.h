/*
 * progress.h — one trace load's progress and interrupt check (progress.c).
 *
 * The callback of tsql_load_opts checks for an interrupt and, when enabled, prints
 * bytes, events and the rate to stderr.
 */
#ifndef TSQL_PROGRESS_H
#define TSQL_PROGRESS_H

#include <sqlite3ext.h>
#include <stdint.h>

#include "catalog/catalog.h"

typedef struct tsql_load_watch {
    sqlite3 *db;
    const char *path;
    int show;
    int64_t file_bytes;     /* of a plain file: the whole JSON text; else 0 */
    double t0;              /* monotonic seconds at the start */
    sqlite3_stmt *probe;    /* the interrupt / progress-handler probe, kept for the load */
} tsql_load_watch;
void tsql_load_watch_start(tsql_load_watch *w, tsql_catalog *c, const char *path, int64_t plain_bytes);
int tsql_load_watch_progress(void *watch, int64_t bytes, int64_t events);
void tsql_load_watch_done(tsql_load_watch *w, const tsql_trace *t);
/* Releases the probe statement (after the last tsql_load_watch_progress). */
void tsql_load_watch_end(tsql_load_watch *w);

#endif
