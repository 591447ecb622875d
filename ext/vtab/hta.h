/*
 * hta.h — the HTA analyses' glue (docs/hta.md): the per-trace tables hta_rows,
 * hta_trace_info, hta_aten_launches, hta_call_graph, hta_kernel_sequence_roots
 * (ext/vtab/hta_rows.c) and hta_cp_path (ext/vtab/hta_critical_path.c), all of one
 * shape (ext/vtab/hta_table.c), and the hta_<analysis> table-valued functions over
 * the views of sql/hta/ with hta_arg() and np_quantile() (ext/vtab/hta.c).
 */
#ifndef TSQL_VTAB_HTA_H
#define TSQL_VTAB_HTA_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/hta.h"
#include "vtab/table.h"

/* ---------- the shape of the per-trace HTA tables ----------
 *
 * Each table's arguments are trace, time_rounding (1 = HTA's rounding, NULL = 1;
 * 0 = none), then its own, each of a kind below, checked and read once per trace by
 * the shared materialize. The table gives its columns, a fill function that builds
 * one trace's rows into the scan and returns their count, and a column function for
 * its own columns; the hidden argument columns read back the values in effect. */
enum tsql_hta_arg {
    TSQL_HTA_ARG_SUBSET = 1, /* subset: 'all' (NULL), 'device', 'launch', 'steps' */
    TSQL_HTA_ARG_KEPT,       /* kept_only: 1 = rows the last-step cut keeps, 0 (NULL) = all */
    TSQL_HTA_ARG_ANNOTATION, /* annotation: text, NULL = 'ProfilerStep' */
    TSQL_HTA_ARG_INSTANCE,   /* instance_id: a whole number >= 0, NULL = 0 */
    TSQL_HTA_ARG_OPERATOR,   /* operator_name: text; NULL = none (no rows) */
    TSQL_HTA_ARG_MIN_KERNELS,/* min_pattern_len: a whole number >= 0, NULL = 3 */
};

enum { TSQL_HTA_SUB_ALL, TSQL_HTA_SUB_DEVICE, TSQL_HTA_SUB_LAUNCH, TSQL_HTA_SUB_STEPS };

/* One trace's scan: the arguments in effect, and what fill built. */
typedef struct tsql_hta_scan {
    tsql_trace *t;
    const tsql_hta_rows *r;  /* HTA's event table, rounded or not */
    int rounded_table;       /* r is the table with HTA's rounding rule */
    int subset, kept;        /* TSQL_HTA_SUB_*, kept_only */
    const char *text;        /* annotation or operator_name (NULL: none) */
    size_t text_len;
    int64_t number;          /* instance_id or min_pattern_len */
    const uint32_t *rows;    /* optional: the rows of r the table's rows are */
    void *data;              /* fill's result, released by free_data */
    void (*free_data)(void *data);
} tsql_hta_scan;

typedef struct tsql_hta_table {
    tsql_table base;         /* first: the shared machinery reads it (cur->table) */
    uint8_t args[TSQL_TABLE_PARAMS - 1]; /* kinds of the arguments after time_rounding */
    /* builds the rows; their count, or -1 (OOM, or *err set: sqlite3_mprintf'd) */
    long (*fill)(tsql_hta_scan *s, char **err);
    /* one of the table's own columns of row (cur->row) */
    int (*column)(tsql_cursor *cur, const tsql_hta_scan *s, sqlite3_context *ctx, int col);
} tsql_hta_table;

/* The tsql_table members every HTA table shares. */
long tsql_hta_materialize(tsql_cursor *cur, tsql_trace *t, char **err);
void tsql_hta_scan_free(void *scan);
int tsql_hta_column(tsql_cursor *cur, sqlite3_context *ctx, int col);
#define TSQL_HTA_TABLE_SHAPE                                                                    \
    .risk = TSQL_TOP_LEVEL, /* the trace argument may be a path */                             \
    .column = tsql_hta_column, .materialize = tsql_hta_materialize, .mat_free = tsql_hta_scan_free

/* The row of r a table row is (scan->rows, else the same number). */
static inline uint32_t tsql_hta_row(const tsql_cursor *cur, const tsql_hta_scan *s)
{
    return s->rows ? s->rows[cur->row] : cur->row;
}

/* Text built by the caller into a sqlite3_malloc'd block of len bytes, handed to
 * SQLite without a copy. */
void tsql_hta_result_owned(sqlite3_context *ctx, char *text, size_t len);

extern const tsql_hta_table tsql_table_hta_rows;
extern const tsql_hta_table tsql_table_hta_trace_info;
extern const tsql_hta_table tsql_table_hta_aten_launches;
extern const tsql_hta_table tsql_table_hta_call_graph;
extern const tsql_hta_table tsql_table_hta_kernel_sequence_roots;
extern const tsql_hta_table tsql_table_hta_cp_path; /* hta_critical_path.c */

#endif
