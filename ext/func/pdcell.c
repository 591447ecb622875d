/*
 * pdcell.c — SQL functions that read CSV cells as pandas' read_csv does (core/text/pdcell.h),
 * for the perf-report comparison (sql/report_compare/, docs/compare-reports.md):
 *
 *   pd_cell_kind(cell)        'na', 'int', 'float', 'bool' or 'str': the narrowest reading
 *                             of one cell (NULL is 'na')
 *   pd_column_dtype(cell)     aggregate: the dtype read_csv gives the column of these
 *                             cells: 'int64', 'float64', 'bool' or 'object' (no cells:
 *                             'object'; only missing cells: 'float64')
 *   pd_cell(cell, dtype)      the cell's value in a column of that dtype: NULL when
 *                             missing; int64 → INTEGER, float64 → REAL (pandas' float
 *                             parser), bool → 'True' / 'False', object → the text
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <string.h>

#include "catalog/registration.h"
#include "text/pdcell.h"

static const char *const kind_name[] = {"na", "int", "float", "bool", "str"};

static tsql_pd_kind kind_of(sqlite3_value *v)
{
    if (sqlite3_value_type(v) == SQLITE_NULL) return TSQL_PD_NA;
    const char *s = (const char *)sqlite3_value_text(v);
    return s ? tsql_pd_cell_kind(s, (size_t)sqlite3_value_bytes(v)) : TSQL_PD_NA;
}

static void fn_kind(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    sqlite3_result_text(ctx, kind_name[kind_of(argv[0])], -1, SQLITE_STATIC);
}

/* which kinds the column's cells took */
typedef struct {
    unsigned seen; /* bit per tsql_pd_kind */
    int any;
} dtype_acc;

static void dtype_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    dtype_acc *a = sqlite3_aggregate_context(ctx, sizeof *a);
    if (!a) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    a->any = 1;
    a->seen |= 1u << kind_of(argv[0]);
}

static void dtype_final(sqlite3_context *ctx)
{
    dtype_acc *a = sqlite3_aggregate_context(ctx, 0);
    const char *d;
    unsigned s = a ? a->seen : 0;
    unsigned num = (1u << TSQL_PD_INT) | (1u << TSQL_PD_FLOAT);
    if (!a || !a->any) d = "object";
    else if (s & (1u << TSQL_PD_STR)) d = "object";
    else if (s & (1u << TSQL_PD_BOOL)) d = (s & num) || (s & (1u << TSQL_PD_NA)) ? "object" : "bool";
    else if (s == (1u << TSQL_PD_INT)) d = "int64";
    else d = "float64"; /* floats, or ints with a missing cell, or only missing cells */
    sqlite3_result_text(ctx, d, -1, SQLITE_STATIC);
}

static void fn_cell(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const char *dtype = (const char *)sqlite3_value_text(argv[1]);
    if (!dtype) {
        sqlite3_result_error(ctx, "pd_cell: dtype is NULL", -1);
        return;
    }
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
    const char *s = (const char *)sqlite3_value_text(argv[0]);
    if (!s) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    size_t n = (size_t)sqlite3_value_bytes(argv[0]);
    if (tsql_pd_is_na(s, n)) return;
    if (!strcmp(dtype, "int64")) {
        long long v;
        if (tsql_pd_parse_int(s, n, &v)) sqlite3_result_int64(ctx, v);
        else {
            char *m = sqlite3_mprintf("pd_cell: '%.40s' is not an int64", s);
            sqlite3_result_error(ctx, m ? m : "pd_cell: not an int64", -1);
            sqlite3_free(m);
        }
    } else if (!strcmp(dtype, "float64")) {
        double v;
        if (tsql_pd_parse_float(s, n, &v)) sqlite3_result_double(ctx, v);
        else {
            char *m = sqlite3_mprintf("pd_cell: '%.40s' is not a float64", s);
            sqlite3_result_error(ctx, m ? m : "pd_cell: not a float64", -1);
            sqlite3_free(m);
        }
    } else if (!strcmp(dtype, "bool")) {
        int b = tsql_pd_parse_bool(s, n);
        if (b >= 0) sqlite3_result_text(ctx, b ? "True" : "False", -1, SQLITE_STATIC);
        else {
            char *m = sqlite3_mprintf("pd_cell: '%.40s' is not a bool", s);
            sqlite3_result_error(ctx, m ? m : "pd_cell: not a bool", -1);
            sqlite3_free(m);
        }
    } else if (!strcmp(dtype, "object")) {
        sqlite3_result_text(ctx, s, (int)n, SQLITE_TRANSIENT);
    } else {
        char *m = sqlite3_mprintf("pd_cell: unknown dtype '%.20s' (int64, float64, bool or object)", dtype);
        sqlite3_result_error(ctx, m ? m : "pd_cell: unknown dtype", -1);
        sqlite3_free(m);
    }
}

static const tsql_fn_def pdcell_fns[] = {
    {"pd_cell_kind", 1, TSQL_PURE, fn_kind, NULL, NULL},
    {"pd_cell", 2, TSQL_PURE, fn_cell, NULL, NULL},
    {"pd_column_dtype", 1, TSQL_PURE, NULL, dtype_step, dtype_final},
};

const tsql_registration tsql_reg_pdcell = {.what = "pandas CSV cell functions", TSQL_FNS(pdcell_fns)};
