/*
 * table.h — what every per-trace virtual table shares.
 *
 * Each table is eponymous and is also a table-valued function: its HIDDEN `trace`
 * column takes a trace id, label or path (`SELECT * FROM kernels('run.json.gz')`) and
 * reads back as the trace id. Without it the table covers every open trace, in
 * trace_id order.
 *
 * Plans: the TSQL_PLAN_* bits of idxNum, one argv slot per bit, in bit order. A key
 * compares like an INTEGER column: 5, 5.0 and '5' find uid 5; 5.5 or 'x' find nothing.
 * Anything else is a scan; SQLite applies the remaining constraints itself.
 */
#ifndef TSQL_VTAB_TABLE_H
#define TSQL_VTAB_TABLE_H

#include <sqlite3ext.h>

#include "store/names.h"
#include "text/jsonout.h"
#include "catalog/catalog.h"
#include "catalog/risk.h"

#define TSQL_COL_ENUM(id, decl) id,
#define TSQL_COL_DECL(id, decl) decl ", "

enum {
    TSQL_PLAN_TRACE = 0x01,     /* trace = ? (the table-valued function argument) */
    TSQL_PLAN_TRACE_ID = 0x02,  /* trace_id = ? */
    TSQL_PLAN_UID = 0x04,       /* uid = ?: one row, by row_of_uid */
    TSQL_PLAN_PARENT = 0x08,    /* parent_uid = ?: children of one node (CSR index) */
    TSQL_PLAN_CORR = 0x10,      /* correlation = ? (sorted index built on first use) */
    TSQL_PLAN_KEY = 0x20,       /* keys[k].col = ?, k in idxNum >> TSQL_PLAN_KEY_SHIFT */
    TSQL_PLAN_UID_MIN = 0x40,   /* uid > ? or uid >= ? (SQLite re-checks the bound) */
    TSQL_PLAN_UID_MAX = 0x80,   /* uid < ? or uid <= ? (the same) */
    TSQL_PLAN_UID_SAME = 0x100, /* uid = ?: the lower bound's value is the upper one too */
    TSQL_PLAN_PARAM = 0x200,    /* params[0] = ?; params[i] = ? is TSQL_PLAN_PARAM << i */
};
#define TSQL_PLAN_KEY_SHIFT 16
#define TSQL_TABLE_KEYS 3
#define TSQL_TABLE_PARAMS 4

/* The columns every table that shows an event has, read one way for all of them. */
enum tsql_event_field {
    TSQL_EV_NONE = 0,
    TSQL_EV_NAME, TSQL_EV_CAT, TSQL_EV_KIND, TSQL_EV_PID, TSQL_EV_TID,
    TSQL_EV_TS, TSQL_EV_DUR, TSQL_EV_TS_NS, TSQL_EV_DUR_NS,     /* µs (REAL), ns (INTEGER) */
    TSQL_EV_STREAM, TSQL_EV_DEVICE, TSQL_EV_CORRELATION, TSQL_EV_EXTERNAL_ID,
    TSQL_EV_INPUT_DIMS, TSQL_EV_INPUT_TYPE, TSQL_EV_INPUT_STRIDES, TSQL_EV_CONCRETE_INPUTS,
    TSQL_EV_PROCESS_NAME, TSQL_EV_PROCESS_LABEL, TSQL_EV_THREAD_NAME,
};

typedef struct tsql_vtab {
    sqlite3_vtab base;
    tsql_catalog *catalog;
    const struct tsql_table *table;
    void *data;                /* tsql_register_table_data's data */
} tsql_vtab;

typedef struct tsql_cursor tsql_cursor;

/* What a per-trace table tells the shared machinery. */
typedef struct tsql_table {
    const char *name;          /* the module (eponymous table) name */
    const char *schema;        /* CREATE TABLE x(...), ending with "trace HIDDEN" */
    tsql_risk risk;            /* catalog/risk.h: TSQL_TOP_LEVEL with a trace column (it
                                  opens paths), TSQL_TRUSTED if writable or showing paths */
    int col_trace;             /* index of the hidden trace column; -1: none (the table
                                  then reads no file) */
    int col_trace_id;          /* -1 if none */
    int col_uid, col_parent, col_corr; /* columns with index support; 0 = none */
    uint32_t (*nrows)(const tsql_trace *t);
    /* row of event uid, or UINT32_MAX if the table has no row for it */
    uint32_t (*row_of_uid)(const tsql_trace *t, uint32_t uid);
    int (*column)(tsql_cursor *cur, sqlite3_context *ctx, int col);
    /* optional: 1 if a scan should skip this row (rows are dense otherwise) */
    int (*skip_row)(const tsql_trace *t, uint32_t row);
    /* optional: builds what the table reads (an analysis) before the first row;
     * non-zero means out of memory */
    int (*prepare)(tsql_trace *t);
    /* optional: the uid of a row, for uid ranges (and uid = ? without row_of_uid) */
    uint32_t (*uid_of_row)(const tsql_trace *t, uint32_t row);
    int rows_by_uid;           /* rows ascend by uid: a uid range is a row range */
    /* optional: integer columns with an index (rows by value, see tsql_key_index) */
    struct tsql_table_key {
        int col;
        const tsql_cache_kind *index; /* builds a tsql_key_index of the trace */
    } keys[TSQL_TABLE_KEYS];   /* col = 0 ends the list (column 0 is never a key) */
    /* optional: further HIDDEN arguments after trace (`t(trace, a, b)`), by column;
     * their values reach the table in cur->param (NULL when not given) */
    int params[TSQL_TABLE_PARAMS];
    int nparams;
    /* optional: rows computed when a scan reaches a trace (from the arguments), instead
     * of nrows: sets cur->mat (sqlite3_malloc'd, freed by the machinery) and returns the
     * row count, or -1 with an error message in *err (sqlite3_mprintf'd, NULL = OOM) */
    long (*materialize)(tsql_cursor *cur, tsql_trace *t, char **err);
    /* optional: releases cur->mat (default sqlite3_free), e.g. references it holds */
    void (*mat_free)(void *mat);
    int col_seq;               /* 0 or a column that ascends with the row within a trace:
                                  ORDER BY trace_id, col_seq needs no sort */
    /* optional: columns that show a field of the row's event (TSQL_EV_*, 0 = not such a
     * column), answered by the machinery, and the event of a row (default: uid_of_row) */
    const uint8_t *event_fields;
    uint32_t (*event_of_row)(const tsql_trace *t, uint32_t row);
    /* optional: a table of rows of its own, not of traces (gpu_specs): their count. A
     * scan then reads rows 0 .. n-1 once, with cur->e NULL; col_trace and col_trace_id
     * are -1. The data it was registered with is tsql_table_data(cur). */
    uint32_t (*own_nrows)(tsql_cursor *cur);
    sqlite3_int64 (*rowid)(tsql_cursor *cur); /* optional, default: row number */
    /* optional: makes the table writable (sqlite3_module.xUpdate; vt is a tsql_vtab) */
    int (*update)(sqlite3_vtab *vt, int argc, sqlite3_value **argv, sqlite3_int64 *rowid);
} tsql_table;

/* uid_of_row of tables whose row number is the uid (events, tree_edges). */
uint32_t tsql_row_is_uid(const tsql_trace *t, uint32_t row);

/* An index of one integer column: the rows in order of (value, row). */
typedef struct tsql_key_index {
    uint32_t n;
    int64_t *key;
    uint32_t *row;
} tsql_key_index;
/* Builds the index of nrows rows whose value is key_of(t, row) (rows whose value is
 * TSQL_NULL are left out); NULL on OOM. For a tsql_cache_kind's build. */
tsql_key_index *tsql_key_index_build(tsql_trace *t, uint32_t nrows,
                                     int64_t (*key_of)(const tsql_trace *t, uint32_t row));
void tsql_key_index_free(void *index);

struct tsql_cursor {
    sqlite3_vtab_cursor base;
    const tsql_table *table;
    tsql_entry **entries;      /* traces this scan covers (referenced) */
    int nentries, ientry;
    tsql_entry *e;             /* current trace */
    const uint32_t *cand;      /* candidate uids (index lookups), or NULL for a scan */
    uint32_t ncand, icand;
    int cand_rows;             /* cand holds rows, not uids (a key index) */
    uint32_t one;              /* storage for a single candidate */
    uint32_t row, nrows;       /* current row / end of the scanned rows */
    int idxNum;
    int nomatch;               /* a key no integer equals: no rows */
    int64_t key_uid, key_parent, key_corr, key_col; /* for re-running lookups per trace */
    int64_t uid_lo, uid_hi;    /* scan only rows whose uid is in [uid_lo, uid_hi] */
    tsql_buf buf;              /* scratch for columns built on the fly */
    sqlite3_value *param[TSQL_TABLE_PARAMS]; /* the table's further arguments */
    void *mat;                 /* materialised rows of the current trace */
};

int tsql_vtab_disconnect(sqlite3_vtab *vt);

/* Registers an eponymous per-trace module. */
int tsql_register_table(sqlite3 *db, const char *name, const tsql_table *tab, tsql_catalog *c);
/* The same for a table that reads data of its own (freed by destroy with the module,
 * also when registration fails). */
int tsql_register_table_data(sqlite3 *db, const tsql_table *tab, tsql_catalog *c, void *data,
                             void (*destroy)(void *));
#define tsql_table_data(cur) (((tsql_vtab *)(cur)->base.pVtab)->data)

/* Column helpers */
void tsql_result_str(sqlite3_context *ctx, const tsql_trace *t, uint32_t id);
void tsql_result_i64(sqlite3_context *ctx, int64_t v);    /* NULL for TSQL_NULL */
void tsql_result_real(sqlite3_context *ctx, double x);    /* NULL for NaN */
void tsql_result_text(sqlite3_context *ctx, const char *s); /* NULL for NULL; copied */
void tsql_result_uid(sqlite3_context *ctx, uint32_t uid);
void tsql_result_pidtid(tsql_cursor *cur, sqlite3_context *ctx, uint32_t id);
void tsql_result_arg(sqlite3_context *ctx, const tsql_trace *t, uint32_t uid, const char *key);
/* process_name / process_label / thread_name (TSQL_META_*) of event uid, from the M
 * events (store/names.h). */
void tsql_result_meta(tsql_cursor *cur, sqlite3_context *ctx, uint32_t uid, int which);
/* Field f (TSQL_EV_*) of event uid. SQLITE_OK, or SQLITE_NOMEM. */
int tsql_result_event(tsql_cursor *cur, sqlite3_context *ctx, uint32_t uid, int f);
/* The same for the fields read from the trace alone (every one but pid, tid and the
 * metadata names, which need a cursor's buffer): 1 if f is one of them and was set, 0
 * otherwise. For tables whose cursors are not tsql_cursors. */
int tsql_result_event_field(sqlite3_context *ctx, const tsql_trace *t, uint32_t uid, int f);
/* kernel_details JSON of the GPU events g[0..n): [{"name", "dur" (µs), "stream"
 * [, "gpu_op_uid"]}, ...], written into b from its start. 0, or -1 on OOM. */
int tsql_kernel_details_json(tsql_trace *t, const uint32_t *g, uint32_t n, int with_uid, tsql_buf *b);


#endif
