/*
 * query_cells.c — query_cells(sql): any query's result as cells, the way a CSV holds it.
 *
 *   SELECT row, col, cell FROM query_cells('SELECT * FROM report_gpu_timeline');
 *
 * Row 0 holds the column names; data rows count from 1 in the query's order. A cell is
 * the text the perf report's CSVs write: REAL as Python's repr (py_float), INTEGER in
 * decimal, TEXT and BLOB as their bytes, NULL as NULL. The perf-report comparison reads
 * the report views of open traces through it (sql/report_compare/,
 * docs/compare-reports.md). The query runs on the same connection when the table is scanned; it
 * must be one statement. An error in it is this table's error, with the query's message.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <stdlib.h>
#include <string.h>

#include "catalog/registration.h"
#include "catalog/risk.h"
#include "text/pyrepr.h"

enum { COL_ROW, COL_COL, COL_CELL, COL_SQL };

typedef struct {
    sqlite3_vtab base;
    sqlite3 *db;
} qc_vtab;

typedef struct {
    sqlite3_vtab_cursor base;
    sqlite3_stmt *stmt; /* NULL when there is no query */
    int ncol;
    sqlite3_int64 row;  /* 0 = header */
    int col;
    int eof;
} qc_cursor;

static int qc_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
                      char **err)
{
    (void)aux;
    (void)argc;
    (void)argv;
    (void)err;
    int rc = sqlite3_declare_vtab(db, "CREATE TABLE x(row INTEGER, col INTEGER, cell TEXT, sql HIDDEN)");
    if (rc != SQLITE_OK) return rc;
    /* it compiles its argument as top-level SQL: from a view or trigger of a database
     * someone else wrote, it would reach every function DIRECTONLY fences off */
    tsql_vtab_risk(db, TSQL_TOP_LEVEL);
    qc_vtab *v = sqlite3_malloc(sizeof *v);
    if (!v) return SQLITE_NOMEM;
    memset(v, 0, sizeof *v);
    v->db = db;
    *out = &v->base;
    return SQLITE_OK;
}

static int qc_disconnect(sqlite3_vtab *v)
{
    sqlite3_free(v);
    return SQLITE_OK;
}

static int qc_best_index(sqlite3_vtab *v, sqlite3_index_info *info)
{
    (void)v;
    int found = -1;
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *c = &info->aConstraint[i];
        if (c->iColumn != COL_SQL) continue;
        if (!c->usable || c->op != SQLITE_INDEX_CONSTRAINT_EQ) return SQLITE_CONSTRAINT;
        found = i;
    }
    if (found < 0) {
        /* without a query the table is empty; make that plan the expensive one */
        info->idxNum = 0;
        info->estimatedCost = 1e12;
        return SQLITE_OK;
    }
    info->aConstraintUsage[found].argvIndex = 1;
    info->aConstraintUsage[found].omit = 1;
    info->idxNum = 1;
    info->estimatedCost = 1000;
    return SQLITE_OK;
}

static int qc_open(sqlite3_vtab *v, sqlite3_vtab_cursor **out)
{
    (void)v;
    qc_cursor *c = sqlite3_malloc(sizeof *c);
    if (!c) return SQLITE_NOMEM;
    memset(c, 0, sizeof *c);
    c->eof = 1;
    *out = &c->base;
    return SQLITE_OK;
}

static int qc_close(sqlite3_vtab_cursor *cur)
{
    qc_cursor *c = (qc_cursor *)cur;
    sqlite3_finalize(c->stmt);
    sqlite3_free(c);
    return SQLITE_OK;
}

static int set_error(qc_cursor *c, const char *msg)
{
    sqlite3_free(c->base.pVtab->zErrMsg);
    c->base.pVtab->zErrMsg = sqlite3_mprintf("query_cells: %s", msg);
    return SQLITE_ERROR;
}

/* moves to the next data row of the query; eof at its end */
static int step_row(qc_cursor *c)
{
    int rc = sqlite3_step(c->stmt);
    if (rc == SQLITE_ROW) {
        c->row++;
        return SQLITE_OK;
    }
    c->eof = 1;
    if (rc == SQLITE_DONE) return SQLITE_OK;
    return set_error(c, sqlite3_errmsg(((qc_vtab *)c->base.pVtab)->db));
}

static int qc_filter(sqlite3_vtab_cursor *cur, int idxNum, const char *idxStr, int argc, sqlite3_value **argv)
{
    (void)idxStr;
    qc_cursor *c = (qc_cursor *)cur;
    sqlite3_finalize(c->stmt);
    c->stmt = NULL;
    c->eof = 1;
    c->row = 0;
    c->col = 0;
    if (idxNum == 0 || argc < 1 || sqlite3_value_type(argv[0]) == SQLITE_NULL) return SQLITE_OK;
    const char *sql = (const char *)sqlite3_value_text(argv[0]);
    if (!sql) return SQLITE_NOMEM;
    const char *tail = NULL;
    sqlite3 *db = ((qc_vtab *)cur->pVtab)->db;
    if (sqlite3_prepare_v2(db, sql, -1, &c->stmt, &tail) != SQLITE_OK) return set_error(c, sqlite3_errmsg(db));
    if (!c->stmt) return set_error(c, "the query is empty");
    while (tail && (*tail == ' ' || *tail == '\n' || *tail == '\t' || *tail == '\r' || *tail == ';')) tail++;
    if (tail && *tail) return set_error(c, "the query must be one statement");
    if (!sqlite3_stmt_readonly(c->stmt)) return set_error(c, "the query must only read");
    c->ncol = sqlite3_column_count(c->stmt);
    c->eof = c->ncol == 0;
    return SQLITE_OK;
}

static int qc_next(sqlite3_vtab_cursor *cur)
{
    qc_cursor *c = (qc_cursor *)cur;
    if (++c->col < c->ncol) return SQLITE_OK;
    c->col = 0;
    return step_row(c);
}

static int qc_eof(sqlite3_vtab_cursor *cur) { return ((qc_cursor *)cur)->eof; }

static int qc_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int i)
{
    qc_cursor *c = (qc_cursor *)cur;
    switch (i) {
    case COL_ROW: sqlite3_result_int64(ctx, c->row); break;
    case COL_COL: sqlite3_result_int(ctx, c->col); break;
    case COL_CELL:
        if (c->row == 0) {
            const char *name = sqlite3_column_name(c->stmt, c->col);
            if (!name) return SQLITE_NOMEM;
            sqlite3_result_text(ctx, name, -1, SQLITE_TRANSIENT);
        } else if (sqlite3_column_type(c->stmt, c->col) == SQLITE_FLOAT) {
            char buf[TSQL_PY_FLOAT_BUFSZ];
            int n = tsql_py_float(sqlite3_column_double(c->stmt, c->col), buf);
            sqlite3_result_text(ctx, buf, n, SQLITE_TRANSIENT);
        } else if (sqlite3_column_type(c->stmt, c->col) == SQLITE_NULL) {
            sqlite3_result_null(ctx);
        } else {
            const unsigned char *s = sqlite3_column_text(c->stmt, c->col);
            if (!s) return SQLITE_NOMEM;
            sqlite3_result_text(ctx, (const char *)s, sqlite3_column_bytes(c->stmt, c->col), SQLITE_TRANSIENT);
        }
        break;
    default: sqlite3_result_null(ctx); break;
    }
    return SQLITE_OK;
}

static int qc_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
    qc_cursor *c = (qc_cursor *)cur;
    *rowid = c->row * (c->ncol ? c->ncol : 1) + c->col;
    return SQLITE_OK;
}

static sqlite3_module qc_module = {
    .iVersion = 0,
    .xConnect = qc_connect,
    .xBestIndex = qc_best_index,
    .xDisconnect = qc_disconnect,
    .xOpen = qc_open,
    .xClose = qc_close,
    .xFilter = qc_filter,
    .xNext = qc_next,
    .xEof = qc_eof,
    .xColumn = qc_column,
    .xRowid = qc_rowid,
};

static int register_query_cells(sqlite3 *db, tsql_catalog *c)
{
    (void)c;
    return sqlite3_create_module(db, "query_cells", &qc_module, NULL);
}

const tsql_registration tsql_reg_query_cells = {.what = "query_cells", .add = register_query_cells};
