/*
 * perf_ops.c — the `perf_ops` table: one row per op instance with a perf model
 * and direction, the rows behind the perf-model sheets (GEMM, CONV_fwd, SDPA_bwd, ...;
 * docs/schema.md, perf_ops): kernel time of the op's GPU work, FLOPs, bytes, the
 * derived throughput metrics (docs/perf-models.md, Derived metrics and roofline) and the model's
 * parameters.
 *
 *   SELECT name, gflops, kernel_time_us, tflops_s FROM perf_ops(1) WHERE sheet = 'GEMM';
 *
 * Summaries per sheet are the views of sql/perf/perf_sheet_summary.sql. Units: docs/schema.md.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/attribution.h"
#include "analysis/perf_ops.h"
#include "catalog/registration.h"
#include "vtab/table.h"

#define PERF_COLUMNS(X)                                                                 \
    X(P_TRACE_ID, "trace_id INTEGER")                                                   \
    X(P_ROW, "row INTEGER")                                                             \
    X(P_UID, "uid INTEGER")                                                             \
    X(P_SHEET, "sheet TEXT")                                                            \
    X(P_DIRECTION, "direction TEXT")                                                    \
    X(P_APPENDED, "appended INTEGER")                                                   \
    X(P_NAME, "name TEXT")                                                              \
    X(P_CAT, "cat TEXT")                                                                \
    X(P_PID, "pid")                                                                     \
    X(P_TID, "tid")                                                                     \
    X(P_TS, "ts REAL")                                                                  \
    X(P_DUR, "dur REAL")                                                                \
    X(P_PROCESS_NAME, "process_name TEXT")                                              \
    X(P_PROCESS_LABEL, "process_label TEXT")                                            \
    X(P_THREAD_NAME, "thread_name TEXT")                                                \
    X(P_EXTERNAL_ID, "external_id INTEGER")                                             \
    X(P_INPUT_DIMS, "input_dims TEXT")                                                  \
    X(P_INPUT_TYPE, "input_type TEXT")                                                  \
    X(P_INPUT_STRIDES, "input_strides TEXT")                                            \
    X(P_CONCRETE_INPUTS, "concrete_inputs TEXT")                                        \
    X(P_GFLOPS, "gflops REAL")                                                          \
    X(P_KERNEL_TIME, "kernel_time_us REAL")                                             \
    X(P_TFLOPS_S, "tflops_s REAL")                                                      \
    X(P_DATA_MOVED, "data_moved_mb REAL")                                               \
    X(P_FLOPS_PER_BYTE, "flops_per_byte REAL")                                          \
    X(P_TB_S, "tb_s REAL")                                                              \
    X(P_COMPUTE_SPEC, "compute_spec TEXT")                                              \
    X(P_FLOPS, "flops REAL")                                                            \
    X(P_BYTES, "bytes REAL")                                                            \
    X(P_PARAMS, "params TEXT")                                                          \
    X(P_KERNEL_DETAILS, "kernel_details TEXT")                                          \
    X(P_NUM_KERNELS, "num_kernels INTEGER")                                             \
    X(P_SHEET_PARAMS, "sheet_params TEXT")                                              \
    X(P_SHEET_KERNEL_TIME_INT, "sheet_kernel_time_int INTEGER")                         \
    X(P_SHEET_RL_SPECS, "sheet_roofline_specs TEXT")                                    \
    X(P_SHEET_MOVED_RL_SPECS, "sheet_moved_roofline_specs TEXT")

enum { PERF_COLUMNS(TSQL_COL_ENUM) P_TRACE };

static int perf_prepare(tsql_trace *t)
{
    return tsql_attrib_get(t) && tsql_perf_ops_get(t) ? 0 : -1;
}

static uint32_t perf_nrows(const tsql_trace *t)
{
    const tsql_perf_ops *p = tsql_perf_ops_peek(t);
    return p ? p->n : 0;
}

static uint32_t perf_uid_of_row(const tsql_trace *t, uint32_t row)
{
    return tsql_perf_ops_peek(t)->rows[row].uid;
}
static int64_t perf_uid(const tsql_trace *t, uint32_t row) { return perf_uid_of_row(t, row); }
static void *build_uid_index(tsql_trace *t)
{
    const tsql_perf_ops *p = tsql_perf_ops_get(t);
    return p ? tsql_key_index_build(t, p->n, perf_uid) : NULL;
}
static const tsql_cache_kind uid_index = {"perf_ops.uid", build_uid_index, tsql_key_index_free};


static int perf_column(tsql_cursor *cur, sqlite3_context *ctx, int col)
{
    tsql_trace *t = cur->e->trace;
    const tsql_perf_ops *p = tsql_perf_ops_peek(t);
    const tsql_perf_op *r = &p->rows[cur->row];
    const tsql_perf_result *res = &p->results[r->result];
    uint32_t u = r->uid;
    tsql_perf_metrics m;
    if (col >= P_GFLOPS && col <= P_TB_S)
        tsql_perf_derive(res->perf.flops, res->perf.has_bytes ? res->perf.bytes : NAN, r->kernel_us, &m);
    switch (col) {
    case P_ROW: sqlite3_result_int64(ctx, cur->row); break;
    case P_UID: sqlite3_result_int64(ctx, u); break;
    case P_SHEET: sqlite3_result_text(ctx, p->sheets[r->sheet], -1, SQLITE_STATIC); break;
    case P_DIRECTION: sqlite3_result_text(ctx, r->bwd ? "bwd" : "fwd", -1, SQLITE_STATIC); break;
    case P_APPENDED: sqlite3_result_int(ctx, r->appended); break;
    case P_GFLOPS: tsql_result_real(ctx, m.gflops); break;
    case P_KERNEL_TIME: sqlite3_result_double(ctx, r->kernel_us); break;
    case P_TFLOPS_S: tsql_result_real(ctx, m.tflops_s); break;
    case P_DATA_MOVED: tsql_result_real(ctx, m.data_moved_mb); break;
    case P_FLOPS_PER_BYTE: tsql_result_real(ctx, m.flops_per_byte); break;
    case P_TB_S: tsql_result_real(ctx, m.tb_s); break;
    case P_COMPUTE_SPEC: sqlite3_result_text(ctx, res->perf.compute_spec, -1, SQLITE_STATIC); break;
    case P_FLOPS: sqlite3_result_double(ctx, res->perf.flops); break;
    case P_BYTES:
        if (res->perf.has_bytes) tsql_result_real(ctx, res->perf.bytes);
        break;
    case P_PARAMS:
        if (res->params_json) sqlite3_result_text(ctx, res->params_json, -1, SQLITE_STATIC);
        break;
    case P_KERNEL_DETAILS:
        if (tsql_kernel_details_json(t, p->gpu + r->gpu_at, r->ngpu, 1, &cur->buf)) return SQLITE_NOMEM;
        sqlite3_result_text(ctx, cur->buf.p, (int)cur->buf.n, SQLITE_TRANSIENT);
        break;
    case P_NUM_KERNELS: sqlite3_result_int64(ctx, r->ngpu); break;
    case P_SHEET_PARAMS:
        if (res->sheet_params_json) sqlite3_result_text(ctx, res->sheet_params_json, -1, SQLITE_STATIC);
        break;
    case P_SHEET_KERNEL_TIME_INT: sqlite3_result_int(ctx, p->sheet_int_kernel_time[r->sheet]); break;
    case P_SHEET_RL_SPECS: sqlite3_result_text(ctx, p->sheet_rl_specs[r->sheet], -1, SQLITE_STATIC); break;
    case P_SHEET_MOVED_RL_SPECS:
        sqlite3_result_text(ctx, p->sheet_moved_rl_specs[r->sheet], -1, SQLITE_STATIC);
        break;
    default: break;
    }
    return SQLITE_OK;
}

static const uint8_t perf_event_fields[P_TRACE] = {
    [P_NAME] = TSQL_EV_NAME, [P_CAT] = TSQL_EV_CAT, [P_PID] = TSQL_EV_PID,
    [P_TID] = TSQL_EV_TID, [P_TS] = TSQL_EV_TS, [P_DUR] = TSQL_EV_DUR,
    [P_PROCESS_NAME] = TSQL_EV_PROCESS_NAME, [P_PROCESS_LABEL] = TSQL_EV_PROCESS_LABEL,
    [P_THREAD_NAME] = TSQL_EV_THREAD_NAME, [P_EXTERNAL_ID] = TSQL_EV_EXTERNAL_ID,
    [P_INPUT_DIMS] = TSQL_EV_INPUT_DIMS, [P_INPUT_TYPE] = TSQL_EV_INPUT_TYPE,
    [P_INPUT_STRIDES] = TSQL_EV_INPUT_STRIDES, [P_CONCRETE_INPUTS] = TSQL_EV_CONCRETE_INPUTS,
};

static const tsql_table tsql_table_perf_ops = {
    .name = "perf_ops",
    .risk = TSQL_TOP_LEVEL, /* its trace argument may be a path */
    .schema = "CREATE TABLE x(" PERF_COLUMNS(TSQL_COL_DECL) "trace HIDDEN)",
    .col_trace = P_TRACE,
    .col_trace_id = P_TRACE_ID,
    .col_uid = P_UID,
    .nrows = perf_nrows,
    .column = perf_column,
    .prepare = perf_prepare,
    .uid_of_row = perf_uid_of_row,
    .keys = {{P_UID, &uid_index}},
    .event_fields = perf_event_fields,
};

const tsql_registration tsql_reg_perf_ops = {.what = "perf_ops", TSQL_TABLES(&tsql_table_perf_ops)};
