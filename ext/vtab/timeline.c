/*
 * timeline.c — the `gpu_timeline_raw` table: TraceLens's gpu_timeline rows per
 * trace, in µs, computed by core/analysis/timeline.c.
 *
 *   SELECT * FROM gpu_timeline_raw;                  -- every open trace, TraceLens's way
 *   SELECT * FROM gpu_timeline_raw(1, 0);            -- all GPU work, linked or not
 *   SELECT * FROM gpu_timeline_raw('run.json.gz', 1, 50);  -- idle split at 50 µs
 *
 * Columns: trace_id, seq (row order, 0-based), type, time_us, events (GPU events that
 * went in). HIDDEN arguments, in order: trace (id, label or path), linked_only
 * (1 = only GPU events TraceLens links to a launch, its default; 0 = every GPU event;
 * NULL = 1), micro_idle_thresh_us (NULL = one idle_time row; a value splits idle into
 * micro_idle_time / macro_idle_time). The rows are computed when the scan starts.
 *
 * The summation aggregates (pd_sum, np_sum, ...) are in ext/func/sums.c.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/timeline.h"
#include "catalog/registration.h"
#include "vtab/table.h"

#define TIMELINE_COLUMNS(X)                                                             \
    X(C_TRACE_ID, "trace_id INTEGER")                                                   \
    X(C_SEQ, "seq INTEGER")                                                             \
    X(C_TYPE, "type TEXT")                                                              \
    X(C_TIME_US, "time_us REAL")                                                        \
    X(C_EVENTS, "events INTEGER")

enum { TIMELINE_COLUMNS(TSQL_COL_ENUM) C_TRACE, C_LINKED, C_MICRO };

/* The arguments: linked_only (NULL = 1) and micro_idle_thresh_us (NULL = NaN, off).
 * 0, or -1 with *err set. */
static int timeline_args(const tsql_cursor *cur, int *linked_only, double *micro, char **err)
{
    sqlite3_value *v_linked = cur->param[0], *v_micro = cur->param[1];
    *linked_only = 1;
    if (v_linked && sqlite3_value_type(v_linked) != SQLITE_NULL) {
        int t = sqlite3_value_numeric_type(v_linked);
        if (t != SQLITE_INTEGER && t != SQLITE_FLOAT) {
            *err = sqlite3_mprintf("gpu_timeline_raw: linked_only must be 0 or 1");
            return -1;
        }
        *linked_only = sqlite3_value_double(v_linked) != 0;
    }
    *micro = NAN;
    if (v_micro && sqlite3_value_type(v_micro) != SQLITE_NULL) {
        int t = sqlite3_value_numeric_type(v_micro);
        double m = sqlite3_value_double(v_micro);
        if ((t != SQLITE_INTEGER && t != SQLITE_FLOAT) || !(m >= 0)) {
            *err = sqlite3_mprintf("gpu_timeline_raw: micro_idle_thresh_us must be a number >= 0 (µs) or NULL");
            return -1;
        }
        *micro = m;
    }
    return 0;
}

/* the rows of one trace: its timeline under the arguments */
static long timeline_materialize(tsql_cursor *cur, tsql_trace *t, char **err)
{
    int linked_only;
    double micro;
    if (timeline_args(cur, &linked_only, &micro, err)) return -1;
    tsql_timeline *tl = sqlite3_malloc(sizeof *tl);
    if (!tl || tsql_timeline_of_trace(t, linked_only, micro, tl)) {
        sqlite3_free(tl);
        return -1;
    }
    cur->mat = tl;
    return tl->nrows;
}

static int timeline_column(tsql_cursor *cur, sqlite3_context *ctx, int col)
{
    const tsql_timeline *tl = cur->mat;
    uint32_t r = cur->row;
    int linked_only;
    double micro;
    char *err = NULL;
    switch (col) {
    case C_SEQ: sqlite3_result_int64(ctx, r); break;
    case C_TYPE: sqlite3_result_text(ctx, tsql_timeline_row_names[tl->kind[r]], -1, SQLITE_STATIC); break;
    case C_TIME_US: sqlite3_result_double(ctx, tl->us[r]); break;
    case C_EVENTS: sqlite3_result_int64(ctx, tl->nevents); break;
    case C_LINKED:
    case C_MICRO:
        if (timeline_args(cur, &linked_only, &micro, &err)) { /* checked by materialize */
            sqlite3_free(err);
            break;
        }
        if (col == C_LINKED) sqlite3_result_int(ctx, linked_only);
        else if (!isnan(micro)) sqlite3_result_double(ctx, micro);
        break;
    default: break;
    }
    return SQLITE_OK;
}

static const tsql_table tsql_table_gpu_timeline_raw = {
    .name = "gpu_timeline_raw",
    .risk = TSQL_TOP_LEVEL, /* its trace argument may be a path */
    .schema = "CREATE TABLE x(" TIMELINE_COLUMNS(TSQL_COL_DECL)
              "trace HIDDEN, linked_only HIDDEN, micro_idle_thresh_us HIDDEN)",
    .col_trace = C_TRACE,
    .col_trace_id = C_TRACE_ID,
    .column = timeline_column,
    .params = {C_LINKED, C_MICRO},
    .nparams = 2,
    .materialize = timeline_materialize,
    .col_seq = C_SEQ,
};

const tsql_registration tsql_reg_timeline = {.what = "gpu_timeline_raw", TSQL_TABLES(&tsql_table_gpu_timeline_raw)};
