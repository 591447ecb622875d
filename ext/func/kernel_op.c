/*
 * kernel_op.c — kernel_op(kernel_name [, cpu_op_name]): the operation a GPU kernel
 * performs, by the rules in the TEMP table kernel_op_rules (docs/compare.md).
 *
 * The rules are the connection's, kept by its catalog (ext/catalog/kernel_op_rules.h),
 * which reads them again whenever the connection has changed any row since.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include "analysis/kernel_op.h"
#include "catalog/kernel_op_rules.h"
#include "catalog/registration.h"

static void fn_kernel_op(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    tsql_catalog *c = sqlite3_user_data(ctx);
    tsql_kop_rules *rules = NULL;
    uint64_t key = 0;
    char *err = NULL;
    int rc = tsql_catalog_kop_rules(c, &rules, &key, &err);
    if (rc != SQLITE_OK) {
        if (err) sqlite3_result_error(ctx, err, -1);
        else if (rc == SQLITE_NOMEM) sqlite3_result_error_nomem(ctx);
        else sqlite3_result_error(ctx, "kernel_op: cannot read the rules", -1);
        sqlite3_free(err);
        return;
    }
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
    const char *name = (const char *)sqlite3_value_text(argv[0]);
    const char *cpu = argc > 1 ? (const char *)sqlite3_value_text(argv[1]) : NULL;
    if (!name) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    sqlite3_result_text(ctx, tsql_kop_classify_memo(rules, name, cpu), -1, SQLITE_STATIC);
}

static const tsql_fn_def kernel_op_fns[] = {
    {"kernel_op", 2, TSQL_STATE, fn_kernel_op, NULL, NULL},
    {"kernel_op", 1, TSQL_STATE, fn_kernel_op, NULL, NULL},
};

const tsql_registration tsql_reg_kernel_op = {.what = "kernel_op", TSQL_FNS(kernel_op_fns)};
