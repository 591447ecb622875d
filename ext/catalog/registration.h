/*
 * registration.h — what one family of functions and tables tells the entry point.
 *
 * Each file of ext/func/ and ext/vtab/ that adds names to SQL exports one
 * `const tsql_registration tsql_reg_<family>`; ext/tracesql.c walks its list of
 * families, in order, and stops at the first failure, naming the family's `what`.
 * Each part is optional: definitions of plain functions (registered with the catalog
 * as user data), a function for whatever else the family sets up (modules, state),
 * and per-trace tables (ext/vtab/table.h, registered by the entry point through the
 * table framework, which this layer does not know).
 */
#ifndef TSQL_REGISTRATION_H
#define TSQL_REGISTRATION_H

#include <stddef.h>

#include "catalog/catalog.h"
#include "catalog/risk.h"

struct tsql_table;

typedef struct tsql_registration {
    const char *what;                        /* named when registering it fails */
    const tsql_fn_def *fns;                  /* plain functions, user data: the catalog */
    size_t nfns;
    int (*add)(sqlite3 *db, tsql_catalog *c); /* anything else; SQLite's result code */
    const struct tsql_table *const *tables;  /* per-trace tables, NULL-terminated */
} tsql_registration;

/* the parts, in a registration's initialiser */
#define TSQL_FNS(defs) .fns = (defs), .nfns = sizeof(defs) / sizeof *(defs)
#define TSQL_TABLES(...) .tables = (const struct tsql_table *const[]){__VA_ARGS__, NULL}

#endif
