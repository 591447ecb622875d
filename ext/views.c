/*
 * views.c — creates the views of the .sql files of sql/ (embedded at build time by sql/embed.awk)
 * in the connection's temp schema, in file-name order.
 *
 * Views are TEMP so that loading the extension never writes to the user's database
 * file; trace_export writes its own copies into the exported file.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include "catalog.h"

struct tsql_sql_file { const char *name; const char *text; };
extern const struct tsql_sql_file tsql_sql_files[];

int tsql_register_views(sqlite3 *db, tsql_catalog *c)
{
    (void)c;
    for (const struct tsql_sql_file *f = tsql_sql_files; f->name; f++) {
        char *err = NULL;
        int rc = sqlite3_exec(db, f->text, NULL, NULL, &err);
        if (rc != SQLITE_OK) {
            /* surface which file failed through the connection's error message */
            sqlite3_free(err);
            return rc;
        }
    }
    return SQLITE_OK;
}
