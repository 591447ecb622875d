/*
 * risk.h — the one rule of what SQL stored in a database file may reach.
 *
 * A view, trigger, CHECK or generated column of a database someone else wrote runs
 * when the user reads it. Every function and table of the extension declares what it
 * can do, and its SQLite flags follow from that class alone (docs/reliability.md):
 *
 *   TSQL_PURE        a function of its arguments only: DETERMINISTIC | INNOCUOUS;
 *   TSQL_STATE       reads the connection's own harmless state (gpu_specs peaks, the
 *                    kernel_op rules, an open trace's frames): INNOCUOUS;
 *   TSQL_TRUSTED     writable, or shows where the user's files are: neither flag, so a
 *                    schema runs it only while trusted_schema is ON;
 *   TSQL_TOP_LEVEL   compiles SQL text, opens or writes a file, changes the
 *                    connection's state or reads another trace by path: DIRECTONLY,
 *                    never from a schema (our own TEMP views still may).
 *
 * Zero is no class: registration refuses it, so nothing is added without one.
 */
#ifndef TSQL_RISK_H
#define TSQL_RISK_H

#include <sqlite3ext.h>
#include <stddef.h>

typedef enum tsql_risk {
    TSQL_RISK_UNSET = 0,
    TSQL_PURE,
    TSQL_STATE,
    TSQL_TRUSTED,
    TSQL_TOP_LEVEL,
} tsql_risk;

/* The sqlite3_create_function flags of a class (SQLITE_UTF8 included). */
int tsql_fn_flags(tsql_risk risk);

/* Declares a virtual table's class from its xConnect (sqlite3_vtab_config). */
void tsql_vtab_risk(sqlite3 *db, tsql_risk risk);

/* One family's functions, registered together with one user-data pointer. A row with
 * step and final is an aggregate; one with func a scalar. */
typedef struct tsql_fn_def {
    const char *name;
    int nargs;
    tsql_risk risk;
    void (*func)(sqlite3_context *, int, sqlite3_value **);
    void (*step)(sqlite3_context *, int, sqlite3_value **);
    void (*final)(sqlite3_context *);
} tsql_fn_def;

/* Registers n definitions; SQLITE_MISUSE for a row without a class. */
int tsql_register_fns(sqlite3 *db, const tsql_fn_def *defs, size_t n, void *data);

#endif
