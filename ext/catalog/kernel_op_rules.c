/* kernel_op_rules.c — the connection's kernel_op rules; see kernel_op_rules.h. */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include "analysis/kernel_op.h"
#include "catalog/kernel_op_rules.h"

struct tsql_kop_cache {
    tsql_kop_rules *rules;
    sqlite3_int64 changes; /* total_changes64 when the rules were read */
};

void tsql_kop_cache_free(struct tsql_kop_cache *k)
{
    if (k) tsql_kop_rules_free(k->rules);
    sqlite3_free(k);
}

/* Reads the rules into k->rules; on failure sets *err (sqlite3_malloc'd). */
static int kop_load(sqlite3 *db, struct tsql_kop_cache *k, char **err)
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
    tsql_kop_rules_free(k->rules);
    k->rules = r;
    k->changes = sqlite3_total_changes64(db);
    return SQLITE_OK;
}

int tsql_catalog_kop_rules(tsql_catalog *c, struct tsql_kop_rules **rules, uint64_t *key, char **err)
{
    *err = NULL;
    if (!c->kernel_op) {
        c->kernel_op = sqlite3_malloc(sizeof *c->kernel_op);
        if (!c->kernel_op) return SQLITE_NOMEM;
        c->kernel_op->rules = NULL;
        c->kernel_op->changes = 0;
    }
    struct tsql_kop_cache *k = c->kernel_op;
    if (!k->rules || k->changes != sqlite3_total_changes64(c->db)) {
        int rc = kop_load(c->db, k, err);
        if (rc != SQLITE_OK) return rc;
    }
    *rules = k->rules;
    *key = tsql_kop_rules_key(k->rules);
    return SQLITE_OK;
}
