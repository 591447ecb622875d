/*
 * tracesql.c — the extension's entry point: `.load build/tracesql`.
 *
 * Creates the connection's catalog and registers every function and table; stops at
 * the first failure and names it. The catalog is freed with the connection.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1

#include "catalog/catalog.h"
#include "vtab/table.h"
#include "vtab/hta.h"

/* Everything else is built with -fvisibility=hidden: this is the one exported symbol. */
int sqlite3_tracesql_init(sqlite3 *db, char **pzErrMsg, const sqlite3_api_routines *pApi);
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
        {"trace_export", tsql_register_export},
        {"summation functions", tsql_register_sum_functions},
        {"functions", tsql_register_functions},
        {"statistics functions", tsql_register_stats_functions},
        {"perf-model functions", tsql_register_perf_functions},
        {"gpu_specs", tsql_register_gpu_specs},
        {"replay_script", tsql_register_replay_functions},
        {"tree_diff functions", tsql_register_diff_functions},
        {"pandas CSV cell functions", tsql_register_pdcell_functions},
        {"query_cells", tsql_register_query_cells},
        {"kernel_op", tsql_register_kernel_op},
        {"comparison functions", tsql_register_compare},
        {"python_frame_at", tsql_register_python_frame},
        {"trace_open_dir", tsql_register_open_dir},
        {"np_round", tsql_register_np_round},
        {"csv_write", tsql_register_csv_write},
        {"md_row", tsql_register_markdown},
        {"HTA analyses (hta_rows, hta_*)", tsql_register_hta},
        {"capture_merge_plan", tsql_register_capture_functions},
        {"inference report functions", tsql_register_inference_functions},
    };
    /* the per-trace tables: one shape, ext/vtab/table.h */
    static const tsql_table *const tables[] = {
        &tsql_table_events, &tsql_table_kernels, &tsql_table_tree_edges,
        &tsql_table_trace_warnings, &tsql_table_gpu_timeline_raw, &tsql_table_kernel_launchers,
        &tsql_table_perf_ops, &tsql_table_unified_ops, &tsql_table_collectives,
        &tsql_table_tree_diff, &tsql_table_tree_diff_stats,
        &tsql_table_module_tree,
    };
    size_t nsteps = sizeof steps / sizeof *steps, ntables = sizeof tables / sizeof *tables;
    /* the catalog's first registration owns it: it is freed when the connection closes;
     * the views come last, over everything else */
    for (size_t i = 0; i < nsteps + ntables + 1; i++) {
        const char *what = i < nsteps ? steps[i].what : i < nsteps + ntables ? tables[i - nsteps]->name
                                                                              : "views (sql/)";
        int rc = i < nsteps ? steps[i].fn(db, c)
               : i < nsteps + ntables ? tsql_register_table(db, tables[i - nsteps]->name, tables[i - nsteps], c)
                                      : tsql_register_views(db, c);
        if (rc != SQLITE_OK) {
            *pzErrMsg = sqlite3_mprintf("tracesql: registering %s failed: %s", what,
                                        c->init_error ? c->init_error : sqlite3_errmsg(db));
            sqlite3_free(c->init_error);
            c->init_error = NULL;
            if (i == 0) tsql_catalog_free(c);
            return rc;
        }
    }
    return SQLITE_OK;
}
