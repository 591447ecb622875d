/*
 * kernel_op.c — kernel_op(kernel_name [, cpu_op_name]): the operation a GPU kernel
 * performs, by the rules in the TEMP table kernel_op_rules (docs/compare.md).
 *
 * The rules are read once into core/analysis/kernel_op.c's matcher and read again
 * whenever the connection has changed any row since (sqlite3_total_changes64), so a
 * rule a user inserts applies to the next call without any other step.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <stdlib.h>

#include "analysis/kernel_op.h"
#include "catalog/catalog.h"

typedef struct kop_state {
    sqlite3 *db;
    tsql_kop_rules *rules;
    sqlite3_int64 changes; /* total_changes64 when the rules were read */
} kop_state;

static void kop_state_free(kop_state *s)
{
    if (s) tsql_kop_rules_free(s->rules);
    free(s);
}

/* Reads the rules into s->rules; on failure sets *err (sqlite3_malloc'd). */
static int kop_load(sqlite3 *db, kop_state *s, char **err)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db,
                                "SELECT pattern, cpu_op, label FROM temp.kernel_op_rules "
                                "ORDER BY priority, rowid",
                                -1, &st, NULL);
    if (rc != SQLITE_OK) {
        *err = sqlite3_mprintf("kernel_op: cannot read temp.kernel_op_rules: %s",
                               sqlite3_errmsg(db));
        return rc;
    }
    tsql_kop_rules *r = tsql_kop_rules_new();
    if (!r) {
        sqlite3_finalize(st);
        return SQLITE_NOMEM;
    }
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *pat = (const char *)sqlite3_column_text(st, 0);
        const char *cpu = (const char *)sqlite3_column_text(st, 1);
        const char *lab = (const char *)sqlite3_column_text(st, 2);
        if (!pat || !tsql_kop_label(lab)) {
            *err = sqlite3_mprintf("kernel_op: rule '%s' has label '%s', which is not one of "
                                   "the operation labels (docs/compare.md)",
                                   pat ? pat : "(null)", lab ? lab : "(null)");
            rc = SQLITE_ERROR;
            break;
        }
        if (tsql_kop_rules_add(r, pat, cpu, lab) != 0) {
            rc = SQLITE_NOMEM;
            break;
        }
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        tsql_kop_rules_free(r);
        return rc == SQLITE_ROW ? SQLITE_ERROR : rc;
    }
    tsql_kop_rules_free(s->rules);
    s->rules = r;
    s->changes = sqlite3_total_changes64(db);
    return SQLITE_OK;
}

/* Reads the rules again when the connection changed any row since. */
static int kop_current(sqlite3 *db, kop_state *s, char **err)
{
    if (s->rules && s->changes == sqlite3_total_changes64(db)) return SQLITE_OK;
    return kop_load(db, s, err);
}

int tsql_kernel_op_rules(tsql_catalog *c, struct tsql_kop_rules **rules, uint64_t *key, char **err)
{
    *err = NULL;
    kop_state *s = c->kernel_op;
    if (!s) return SQLITE_ERROR;
    int rc = kop_current(s->db, s, err);
    if (rc == SQLITE_OK) {
        *rules = s->rules;
        *key = tsql_kop_rules_key(s->rules);
    }
    return rc;
}

static void fn_kernel_op(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    kop_state *s = sqlite3_user_data(ctx);
    sqlite3 *db = sqlite3_context_db_handle(ctx);
    char *err = NULL;
    int rc = kop_current(db, s, &err);
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
    sqlite3_result_text(ctx, tsql_kop_classify_memo(s->rules, name, cpu), -1, SQLITE_STATIC);
}

int tsql_register_kernel_op(sqlite3 *db, tsql_catalog *c)
{
    kop_state *s = calloc(1, sizeof *s);
    if (!s) return SQLITE_NOMEM;
    s->db = db;
    c->kernel_op = s;
    c->kernel_op_free = kop_state_free;
    /* one state shared by both arities, owned by the catalog */
    int rc = sqlite3_create_function_v2(db, "kernel_op", 2, tsql_fn_flags(TSQL_STATE), s,
                                        fn_kernel_op, NULL, NULL, NULL);
    if (rc != SQLITE_OK) return rc;
    return sqlite3_create_function_v2(db, "kernel_op", 1, tsql_fn_flags(TSQL_STATE), s,
                                      fn_kernel_op, NULL, NULL, NULL);
}
