/* risk.c — a class's SQLite flags; see risk.h. */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include "catalog/risk.h"

int tsql_fn_flags(tsql_risk risk)
{
    switch (risk) {
    case TSQL_PURE: return SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
    case TSQL_STATE: return SQLITE_UTF8 | SQLITE_INNOCUOUS;
    case TSQL_TRUSTED: return SQLITE_UTF8;
    case TSQL_TOP_LEVEL: return SQLITE_UTF8 | SQLITE_DIRECTONLY;
    case TSQL_RISK_UNSET: break;
    }
    /* no class: the strictest, and registration through tsql_register_fns fails */
    return SQLITE_UTF8 | SQLITE_DIRECTONLY;
}

void tsql_vtab_risk(sqlite3 *db, tsql_risk risk)
{
    switch (risk) {
    case TSQL_PURE:
    case TSQL_STATE: sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS); break;
    case TSQL_TRUSTED: break; /* neither: allowed from a schema only while trusted_schema is ON */
    case TSQL_TOP_LEVEL:
    case TSQL_RISK_UNSET: sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY); break;
    }
}

int tsql_register_fns(sqlite3 *db, const tsql_fn_def *defs, size_t n, void *data)
{
    for (size_t i = 0; i < n; i++) {
        if (defs[i].risk == TSQL_RISK_UNSET) return SQLITE_MISUSE;
        int rc = sqlite3_create_function(db, defs[i].name, defs[i].nargs, tsql_fn_flags(defs[i].risk), data,
                                         defs[i].func, defs[i].step, defs[i].final);
        if (rc != SQLITE_OK) return rc;
    }
    return SQLITE_OK;
}
