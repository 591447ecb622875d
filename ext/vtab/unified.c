/*
 * unified.c — the `unified_ops` table: the op instances of TraceLens's
 * unified_perf_summary (docs/schema.md, unified_ops and unified_perf_summary), in its collection
 * order: the highest op with a perf model on each path to GPU work, leaf launchers elsewhere, and
 * synthetic "op->kernel (Synthetic Op)" rows for GPU work no collected op covers.
 *
 *   SELECT name, op_category, kernel_time_us, tflops_s FROM unified_ops(1);
 *
 * The summary is the view unified_perf_summary (sql/perf/unified_perf_summary.sql).
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/attribution.h"
#include "analysis/unified.h"
#include "catalog/registration.h"
#include "vtab/table.h"

#define UNIFIED_COLUMNS(X)                                                              \
    X(U_TRACE_ID, "trace_id INTEGER")                                                   \
    X(U_ROW, "row INTEGER")                                                             \
    X(U_UID, "uid INTEGER")                                                             \
    X(U_NODE_UID, "node_uid INTEGER")                                                   \
    X(U_SYNTHETIC, "synthetic INTEGER")                                                 \
    X(U_NAME, "name TEXT")                                                              \
    X(U_OP_CATEGORY, "op_category TEXT")                                                \
    X(U_PID, "pid")                                                                     \
    X(U_TID, "tid")                                                                     \
    X(U_PROCESS_NAME, "process_name TEXT")                                              \
    X(U_PROCESS_LABEL, "process_label TEXT")                                            \
    X(U_THREAD_NAME, "thread_name TEXT")                                                \
    X(U_EXTERNAL_ID, "external_id INTEGER")                                             \
    X(U_INPUT_DIMS, "input_dims TEXT")                                                  \
    X(U_INPUT_TYPE, "input_type TEXT")                                                  \
    X(U_INPUT_STRIDES, "input_strides TEXT")                                            \
    X(U_CONCRETE_INPUTS, "concrete_inputs TEXT")                                        \
    X(U_DURATION, "duration_us REAL")                                                   \
    X(U_HAS_MODEL, "has_perf_model INTEGER")                                            \
    X(U_GFLOPS, "gflops REAL")                                                          \
    X(U_KERNEL_TIME, "kernel_time_us REAL")                                             \
    X(U_TFLOPS_S, "tflops_s REAL")                                                      \
    X(U_DATA_MOVED, "data_moved_mb REAL")                                               \
    X(U_FLOPS_PER_BYTE, "flops_per_byte REAL")                                          \
    X(U_TB_S, "tb_s REAL")                                                              \
    X(U_COMPUTE_SPEC, "compute_spec TEXT")                                              \
    X(U_PERF_PARAMS, "perf_params TEXT")                                                \
    X(U_KERNEL_DETAILS, "kernel_details TEXT")                                          \
    X(U_FLOPS, "flops REAL")                                                            \
    X(U_BYTES, "bytes REAL")                                                            \
    X(U_INT_DURATIONS, "int_durations INTEGER")                                         \
    X(U_INT_KERNEL_TIMES, "int_kernel_times INTEGER")

enum { UNIFIED_COLUMNS(TSQL_COL_ENUM) U_TRACE };

static int unified_prepare(tsql_trace *t)
{
    return tsql_unified_get(t) ? 0 : -1;
}

static uint32_t unified_nrows(const tsql_trace *t)
{
    const tsql_unified *U = tsql_unified_peek(t);
    return U ? U->n : 0;
}

/* the event whose fields the row shows (a synthetic row shows its parent's) */
static uint32_t unified_node_of_row(const tsql_trace *t, uint32_t row)
{
    return tsql_unified_peek(t)->rows[row].node;
}

static uint32_t unified_uid_of_row(const tsql_trace *t, uint32_t row)
{
    return tsql_unified_peek(t)->rows[row].uid;
}
static int64_t unified_uid(const tsql_trace *t, uint32_t row) { return unified_uid_of_row(t, row); }
static void *build_uid_index(tsql_trace *t)
{
    const tsql_unified *U = tsql_unified_get(t);
    return U ? tsql_key_index_build(t, U->n, unified_uid) : NULL;
}
static const tsql_cache_kind uid_index = {"unified_ops.uid", build_uid_index, tsql_key_index_free};


static int unified_column(tsql_cursor *cur, sqlite3_context *ctx, int col)
{
    tsql_trace *t = cur->e->trace;
    const tsql_unified *U = tsql_unified_peek(t);
    const tsql_unified_op *o = &U->rows[cur->row];
    uint32_t u = o->node;
    tsql_perf_metrics m = {NAN, NAN, NAN, NAN, NAN};
    if (o->has_metrics) tsql_perf_derive(o->flops, o->bytes, o->kernel_us, &m);
    switch (col) {
    case U_ROW: sqlite3_result_int64(ctx, cur->row); break;
    case U_UID: sqlite3_result_int64(ctx, o->uid); break;
    case U_NODE_UID: sqlite3_result_int64(ctx, u); break;
    case U_SYNTHETIC: sqlite3_result_int(ctx, o->name != NULL); break;
    case U_NAME:
        if (o->name) sqlite3_result_text(ctx, o->name, -1, SQLITE_STATIC);
        else tsql_result_str(ctx, t, t->name[u]);
        break;
    case U_OP_CATEGORY:
        if (o->category) sqlite3_result_text(ctx, o->category, -1, SQLITE_STATIC);
        break;
    case U_DURATION:
        if (t->dur_ns[u] != TSQL_NULL) sqlite3_result_double(ctx, tsql_trace_dur_us(t, u));
        break;
    case U_HAS_MODEL: sqlite3_result_int(ctx, o->has_model); break;
    case U_GFLOPS: tsql_result_real(ctx, m.gflops); break;
    case U_KERNEL_TIME: sqlite3_result_double(ctx, o->kernel_us); break;
    case U_TFLOPS_S: tsql_result_real(ctx, m.tflops_s); break;
    case U_DATA_MOVED: tsql_result_real(ctx, m.data_moved_mb); break;
    case U_FLOPS_PER_BYTE: tsql_result_real(ctx, m.flops_per_byte); break;
    case U_TB_S: tsql_result_real(ctx, m.tb_s); break;
    case U_COMPUTE_SPEC:
        if (o->has_metrics) sqlite3_result_text(ctx, o->compute_spec, -1, SQLITE_TRANSIENT);
        break;
    case U_PERF_PARAMS:
        if (o->perf_params) sqlite3_result_text(ctx, o->perf_params, -1, SQLITE_STATIC);
        break;
    case U_KERNEL_DETAILS:
        if (!o->ngpu) break;
        if (tsql_kernel_details_json(t, U->gpu + o->gpu_at, o->ngpu, 1, &cur->buf)) return SQLITE_NOMEM;
        sqlite3_result_text(ctx, cur->buf.p, (int)cur->buf.n, SQLITE_TRANSIENT);
        break;
    case U_FLOPS:
        if (o->has_metrics) sqlite3_result_double(ctx, o->flops);
        break;
    case U_BYTES:
        if (o->has_metrics) tsql_result_real(ctx, o->bytes);
        break;
    case U_INT_DURATIONS: sqlite3_result_int(ctx, U->int_durations); break;
    case U_INT_KERNEL_TIMES: sqlite3_result_int(ctx, U->int_kernel_times); break;
    default: break;
    }
    return SQLITE_OK;
}

static const uint8_t unified_event_fields[U_TRACE] = {
    [U_PID] = TSQL_EV_PID, [U_TID] = TSQL_EV_TID, [U_PROCESS_NAME] = TSQL_EV_PROCESS_NAME,
    [U_PROCESS_LABEL] = TSQL_EV_PROCESS_LABEL, [U_THREAD_NAME] = TSQL_EV_THREAD_NAME,
    [U_EXTERNAL_ID] = TSQL_EV_EXTERNAL_ID, [U_INPUT_DIMS] = TSQL_EV_INPUT_DIMS,
    [U_INPUT_TYPE] = TSQL_EV_INPUT_TYPE, [U_INPUT_STRIDES] = TSQL_EV_INPUT_STRIDES,
    [U_CONCRETE_INPUTS] = TSQL_EV_CONCRETE_INPUTS,
};

static const tsql_table tsql_table_unified_ops = {
    .name = "unified_ops",
    .risk = TSQL_TOP_LEVEL, /* its trace argument may be a path */
    .schema = "CREATE TABLE x(" UNIFIED_COLUMNS(TSQL_COL_DECL) "trace HIDDEN)",
    .col_trace = U_TRACE,
    .col_trace_id = U_TRACE_ID,
    .col_uid = U_UID,
    .nrows = unified_nrows,
    .column = unified_column,
    .prepare = unified_prepare,
    .uid_of_row = unified_uid_of_row,
    .keys = {{U_UID, &uid_index}},
    .event_fields = unified_event_fields,
    .event_of_row = unified_node_of_row,
};

const tsql_registration tsql_reg_unified = {.what = "unified_ops", TSQL_TABLES(&tsql_table_unified_ops)};
