/*
 * views.c — creates the views of the .sql files of sql/ (embedded at build time by sql/embed.awk)
 * in the connection's temp schema, in the load order sql/order.awk derives from the files'
 * headers (layer, then declared requires; docs/architecture.md, "sql/: the views").
 *
 * Views are TEMP so that loading the extension never writes to the user's database
 * file; trace_export writes its own copies into the exported file.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include "catalog/registration.h"
#include "views/view_cache.h"

struct tsql_sql_file { const char *name; const char *text; };
extern const struct tsql_sql_file tsql_sql_files[];

static int register_views(sqlite3 *db, tsql_catalog *c)
{
    /* the tables that keep a heavy view's rows (CREATE VIRTUAL TABLE ... USING view_cache) */
    int rc = tsql_register_view_cache(db, c);
    if (rc != SQLITE_OK) return rc;
    /* all or nothing: a failing file leaves no view behind */
    rc = sqlite3_exec(db, "SAVEPOINT tracesql_views", NULL, NULL, NULL);
    for (const struct tsql_sql_file *f = tsql_sql_files; rc == SQLITE_OK && f->name; f++) {
        char *err = NULL;
        rc = sqlite3_exec(db, f->text, NULL, NULL, &err);
        if (rc != SQLITE_OK) {
            /* keep the message (the caller reads sqlite3_errmsg) and name the file */
            char *msg = sqlite3_mprintf("%s: %s", f->name, err ? err : sqlite3_errstr(rc));
            sqlite3_free(err);
            sqlite3_exec(db, "ROLLBACK TO tracesql_views; RELEASE tracesql_views", NULL, NULL, NULL);
            c->init_error = msg;
            return rc;
        }
    }
    if (rc == SQLITE_OK) rc = sqlite3_exec(db, "RELEASE tracesql_views", NULL, NULL, NULL);
    return rc;
}

const tsql_registration tsql_reg_views = {.what = "views (sql/)", .add = register_views};
