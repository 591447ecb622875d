/*
 * catalog.h — the traces open on one database connection.
 *
 * Each connection that loads tracesql gets one catalog. A trace is parsed once by
 * trace_open() (or on first use of a path in a table-valued function) and shared by
 * every query until trace_close(). Cursors hold a reference, so closing a trace while
 * a query still reads it is safe: memory is released when the last reader is done.
 */
#ifndef TSQL_CATALOG_H
#define TSQL_CATALOG_H

#include <sqlite3ext.h>
#include <stdint.h>

#include "store/trace.h"

typedef struct tsql_entry {
    int64_t id;             /* trace_id, stable for the connection's life */
    char *label;
    tsql_trace *trace;
    int refs;               /* catalog (1 while open) + open cursors */
    int64_t dev, ino, size, mtime_ns; /* identity of the file when it was loaded */
} tsql_entry;

typedef struct tsql_catalog {
    char *init_error;       /* a registration step's own message (sqlite3_malloc'd) */
    tsql_entry **open;      /* open traces, in trace_id order */
    int nopen, capopen;
    int64_t next_id;
    size_t mem_limit;       /* per-trace memory ceiling in bytes, 0 = none */
    int progress;           /* print load progress to stderr: 1 / 0, -1 = as TSQL_PROGRESS */
    sqlite3 *db;
    /* the kernel_op rules (kernel_op_rules.h), read on first use by kernel_op() and
     * the comparison tables; owned here, so they live as long as the connection */
    struct tsql_kop_cache *kernel_op;
} tsql_catalog;

tsql_catalog *tsql_catalog_new(sqlite3 *db);
void tsql_catalog_free(void *catalog);

/* Takes a reference / drops one (frees the trace when the last one goes). */
void tsql_entry_ref(tsql_entry *e);
void tsql_entry_unref(tsql_entry *e);

/* Finds an open trace by id (integer value), label or path (text value). With
 * may_open, a path that is not open yet is loaded. Returns a referenced entry or NULL
 * with *pzErr set (sqlite3_malloc'd). */
tsql_entry *tsql_catalog_resolve(tsql_catalog *c, sqlite3_value *spec, int may_open, char **pzErr);

/* Opens (or finds, if unchanged) path. Returns the entry (not referenced) or NULL. */
tsql_entry *tsql_catalog_open(tsql_catalog *c, const char *path, const char *label, char **pzErr);

/* The entry of a file that is open and unchanged since it was loaded, or NULL. */
tsql_entry *tsql_catalog_find_file(tsql_catalog *c, const char *path);

/* Adds a trace loaded elsewhere (a loader thread of trace_open_dir) as an open entry,
 * taking ownership of t (freed on failure). Returns the entry (not referenced) or NULL. */
tsql_entry *tsql_catalog_adopt(tsql_catalog *c, const char *path, const char *label, tsql_trace *t,
                               char **pzErr);

/* Closes an open entry: drops the catalog's reference (readers keep theirs). */
void tsql_catalog_remove(tsql_catalog *c, tsql_entry *e);

#endif
