/*
 * tracesql.c — the extension's entry point: `.load build/tracesql`.
 *
 * Creates the connection's catalog and registers every family of functions and
 * tables (each file's `tsql_reg_<family>`, ext/catalog/registration.h), in the order
 * of the list below; stops at the first failure and names it. The catalog is freed
 * with the connection. The layers of ext/ and their direction: docs/architecture.md.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1

#include "catalog/registration.h"
#include "vtab/table.h"

/* The families, in registration order: the catalog's first (its trace_open owns the
 * catalog), the views last (over everything else). */
#define TSQL_FAMILIES(X)                                                                   \
    X(catalog) X(export) X(sums) X(basic) X(stats) X(perf) X(pytext) X(gpu_specs)         \
    X(replay) X(tree_diff_functions) X(pdcell) X(query_cells) X(kernel_op) X(compare)      \
    X(python_frame) X(open_dir) X(numpy) X(csv_write) X(markdown) X(hta) X(capture)        \
    X(inference)                                                                            \
    X(traces) X(events) X(kernels) X(tree_edges) X(warnings) X(timeline) X(launchers)      \
    X(perf_ops) X(unified) X(collectives) X(tree_diff) X(module_tree)                      \
    X(views)

#define TSQL_DECLARE(f) extern const tsql_registration tsql_reg_##f;
#define TSQL_ADDRESS(f) &tsql_reg_##f,
TSQL_FAMILIES(TSQL_DECLARE)

/* One family: its functions, whatever else it sets up, its tables. On failure *what
 * names the part that failed. */
static int register_family(sqlite3 *db, tsql_catalog *c, const tsql_registration *r, const char **what)
{
    *what = r->what;
    int rc = r->nfns ? tsql_register_fns(db, r->fns, r->nfns, c) : SQLITE_OK;
    if (rc == SQLITE_OK && r->add) rc = r->add(db, c);
    for (const struct tsql_table *const *t = r->tables; rc == SQLITE_OK && t && *t; t++) {
        *what = (*t)->name;
        rc = tsql_register_table(db, (*t)->name, *t, c);
    }
    return rc;
}

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
    static const tsql_registration *const families[] = {TSQL_FAMILIES(TSQL_ADDRESS)};
    for (size_t i = 0; i < sizeof families / sizeof *families; i++) {
        const char *what = NULL;
        int rc = register_family(db, c, families[i], &what);
        if (rc != SQLITE_OK) {
            *pzErrMsg = sqlite3_mprintf("tracesql: registering %s failed: %s", what,
                                        c->init_error ? c->init_error : sqlite3_errmsg(db));
            sqlite3_free(c->init_error);
            c->init_error = NULL;
            /* until the catalog's family registered trace_open, nothing owns it */
            if (i == 0) tsql_catalog_free(c);
            return rc;
        }
    }
    return SQLITE_OK;
}
