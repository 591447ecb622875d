/*
 * vtab_util.h — what every per-trace virtual table shares.
 *
 * Each table is eponymous and is also a table-valued function: its HIDDEN `trace`
 * column takes a trace id, label or path (`SELECT * FROM kernels('run.json.gz')`).
 * Without it the table covers every open trace, in trace_id order.
 *
 * Plans (idxNum bits, one argv slot per bit, in bit order):
 *   0x01 trace = ?        (the table-valued function argument)
 *   0x02 trace_id = ?
 *   0x04 uid = ?          row lookup, O(1) or O(log n)
 *   0x08 parent_uid = ?   children of one node (CSR index)
 *   0x10 correlation = ?  (sorted index built on first use)
 * Anything else is a scan; SQLite applies the remaining constraints itself.
 */
#ifndef TSQL_VTAB_UTIL_H
#define TSQL_VTAB_UTIL_H

#include <sqlite3ext.h>

#include "store/names.h"
#include "text/jsonout.h"
#include "catalog/catalog.h"

#define TSQL_COL_ENUM(id, decl) id,
#define TSQL_COL_DECL(id, decl) decl ", "

typedef struct tsql_vtab {
    sqlite3_vtab base;
    tsql_catalog *catalog;
    const struct tsql_table *table;
} tsql_vtab;

typedef struct tsql_cursor tsql_cursor;

/* What a per-trace table tells the shared machinery. */
typedef struct tsql_table {
    const char *schema;        /* CREATE TABLE x(...), ending with "trace HIDDEN" */
    int col_trace;             /* index of the hidden trace column */
    int col_trace_id;          /* -1 if none */
    int col_uid, col_parent, col_corr; /* columns with index support, or -1 */
    uint32_t (*nrows)(const tsql_trace *t);
    /* row of event uid, or UINT32_MAX if the table has no row for it */
    uint32_t (*row_of_uid)(const tsql_trace *t, uint32_t uid);
    int (*column)(tsql_cursor *cur, sqlite3_context *ctx, int col);
    /* optional: 1 if a scan should skip this row (rows are dense otherwise) */
    int (*skip_row)(const tsql_trace *t, uint32_t row);
    /* optional: builds what the table reads (an analysis) before the first row;
     * non-zero means out of memory */
    int (*prepare)(tsql_trace *t);
} tsql_table;

struct tsql_cursor {
    sqlite3_vtab_cursor base;
    const tsql_table *table;
    tsql_entry **entries;      /* traces this scan covers (referenced) */
    int nentries, ientry;
    tsql_entry *e;             /* current trace */
    const uint32_t *cand;      /* candidate uids (index lookups), or NULL for a scan */
    uint32_t ncand, icand;
    uint32_t one;              /* storage for a single candidate */
    uint32_t row, nrows;       /* current row / rows of the trace (scan) */
    int idxNum;
    int64_t key_parent, key_corr; /* for re-running lookups on the next trace */
    int64_t key_uid;
    tsql_buf buf;              /* scratch for columns built on the fly */
};

int tsql_vtab_disconnect(sqlite3_vtab *vt);

/* Registers an eponymous per-trace module. */
int tsql_register_table(sqlite3 *db, const char *name, const tsql_table *tab, tsql_catalog *c);

/* Column helpers */
void tsql_result_str(sqlite3_context *ctx, const tsql_trace *t, uint32_t id);
void tsql_result_i64(sqlite3_context *ctx, int64_t v);
void tsql_result_uid(sqlite3_context *ctx, uint32_t uid);
void tsql_result_pidtid(tsql_cursor *cur, sqlite3_context *ctx, uint32_t id);
void tsql_result_arg(sqlite3_context *ctx, const tsql_trace *t, uint32_t uid, const char *key);
/* process_name / process_label / thread_name (TSQL_META_*) of event uid, from the M
 * events (store/names.h). */
void tsql_result_meta(tsql_cursor *cur, sqlite3_context *ctx, uint32_t uid, int which);
/* kernel_details JSON of the GPU events g[0..n): [{"name", "dur" (µs), "stream"
 * [, "gpu_op_uid"]}, ...], written into b from its start. 0, or -1 on OOM. */
int tsql_kernel_details_json(const tsql_trace *t, const uint32_t *g, uint32_t n, int with_uid, tsql_buf *b);


#endif
