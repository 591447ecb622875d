/* load_error.c — a core load error as an SQL error message; see load_error.h. */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include "catalog/load_error.h"

char *tsql_format_error(const char *path, const tsql_error *err)
{
    if (err->offset >= 0)
        return sqlite3_mprintf("tracesql: %s: %sbyte %lld: %s", path,
                               err->compressed ? "uncompressed " : "", (long long)err->offset,
                               err->msg);
    return sqlite3_mprintf("tracesql: %s: %s", path, err->msg);
}
