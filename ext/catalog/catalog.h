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

#include "catalog/risk.h"
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
    /* kernel_op's rules (ext/func/kernel_op.c), shared with the comparison functions;
     * owned here, so they live exactly as long as the connection's catalog */
    struct kop_state *kernel_op;
    void (*kernel_op_free)(struct kop_state *);
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

/* One load's progress (progress.c): the callback of tsql_load_opts checks for an
 * interrupt and, when enabled, prints bytes, events and the rate to stderr. */
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
/* The entry of a file that is open and unchanged since it was loaded, or NULL. */
tsql_entry *tsql_catalog_find_file(tsql_catalog *c, const char *path);

/* Adds a trace loaded elsewhere (a loader thread of trace_open_dir) as an open entry,
 * taking ownership of t (freed on failure). Returns the entry (not referenced) or NULL. */
tsql_entry *tsql_catalog_adopt(tsql_catalog *c, const char *path, const char *label, tsql_trace *t,
                               char **pzErr);

/* Closes an open entry: drops the catalog's reference (readers keep theirs). */
void tsql_catalog_remove(tsql_catalog *c, tsql_entry *e);

/* Formats a core error as "tracesql: <path>: byte N: msg". sqlite3_malloc'd. */
char *tsql_format_error(const char *path, const tsql_error *err);

int tsql_register_catalog(sqlite3 *db, tsql_catalog *c);
int tsql_register_export(sqlite3 *db, tsql_catalog *c);
int tsql_register_sum_functions(sqlite3 *db, tsql_catalog *c);
int tsql_register_functions(sqlite3 *db, tsql_catalog *c);
int tsql_register_views(sqlite3 *db, tsql_catalog *c);
int tsql_register_stats_functions(sqlite3 *db, tsql_catalog *c);
int tsql_register_perf_functions(sqlite3 *db, tsql_catalog *c);
int tsql_register_gpu_specs(sqlite3 *db, tsql_catalog *c);
int tsql_register_replay_functions(sqlite3 *db, tsql_catalog *c);
int tsql_register_diff_functions(sqlite3 *db, tsql_catalog *c);
int tsql_register_pdcell_functions(sqlite3 *db, tsql_catalog *c);
int tsql_register_query_cells(sqlite3 *db, tsql_catalog *c);
int tsql_register_kernel_op(sqlite3 *db, tsql_catalog *c);
/* The connection's kernel_op rules, read again when any row changed since they were
 * read; *key identifies their content (equal keys, equal rules). SQLITE_OK, or an
 * error code with *err set (sqlite3_malloc'd) or left NULL (out of memory). */
struct tsql_kop_rules;
int tsql_kernel_op_rules(tsql_catalog *c, struct tsql_kop_rules **rules, uint64_t *key, char **err);
int tsql_register_compare(sqlite3 *db, tsql_catalog *c);
int tsql_register_python_frame(sqlite3 *db, tsql_catalog *c);
int tsql_register_inference_functions(sqlite3 *db, tsql_catalog *c);
int tsql_register_open_dir(sqlite3 *db, tsql_catalog *c);
int tsql_register_np_round(sqlite3 *db, tsql_catalog *c);
int tsql_register_csv_write(sqlite3 *db, tsql_catalog *c);
int tsql_register_markdown(sqlite3 *db, tsql_catalog *c);
int tsql_register_capture_functions(sqlite3 *db, tsql_catalog *c);

#endif
