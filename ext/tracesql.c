/*
 * tracesql.c — the extension's entry point: `.load build/tracesql`.
 *
 * Creates the connection's catalog and registers every function and table; stops at
 * the first failure and names it. The catalog is freed with the connection.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1

#include "catalog/catalog.h"

/* Everything else is built with -fvisibility=hidden: this is the one exported symbol. */
#ifdef _WIN32
__declspec(dllexport)
#else
__attribute__((visibility("default")))
#endif
int sqlite3_tracesql_init(sqlite3 *db, char **pzErrMsg, const sqlite3_api_routines *pApi)
{
    SQLITE_EXTENSION_INIT2(pApi);
    if (sqlite3_libversion_number() < 3040000) {
        *pzErrMsg = sqlite3_mprintf("tracesql needs SQLite 3.40 or newer (this is %s)",
                                    sqlite3_libversion());
        return SQLITE_ERROR;
    }
    tsql_catalog *c = tsql_catalog_new(db);
    if (!c) return SQLITE_NOMEM;
    static const struct {
        const char *what;
        int (*fn)(sqlite3 *, tsql_catalog *);
    } steps[] = {
        {"catalog (trace_open, trace_close, traces)", tsql_register_catalog},
        {"events", tsql_register_events},
        {"kernels", tsql_register_kernels},
        {"tree_edges", tsql_register_tree_edges},
        {"trace_warnings", tsql_register_warnings},
        {"trace_export", tsql_register_export},
        {"gpu_timeline_raw", tsql_register_timeline},
        {"kernel_launchers", tsql_register_kernel_launchers},
        {"perf_ops", tsql_register_perf_ops},
        {"unified_ops", tsql_register_unified_ops},
        {"functions", tsql_register_functions},
        {"statistics functions", tsql_register_stats_functions},
        {"perf-model functions", tsql_register_perf_functions},
        {"gpu_specs", tsql_register_gpu_specs},
        {"replay_script", tsql_register_replay_functions},
        {"collectives", tsql_register_collectives},
        {"views (sql/*.sql)", tsql_register_views},
    };
    /* the catalog's first registration owns it: it is freed when the connection closes */
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
        int rc = steps[i].fn(db, c);
        if (rc != SQLITE_OK) {
            *pzErrMsg = sqlite3_mprintf("tracesql: registering %s failed: %s", steps[i].what,
                                        c->init_error ? c->init_error : sqlite3_errmsg(db));
            sqlite3_free(c->init_error);
            c->init_error = NULL;
            if (i == 0) tsql_catalog_free(c);
            return rc;
        }
    }
    return SQLITE_OK;
}
