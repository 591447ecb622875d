/*
 * view_runner.h — table-valued functions whose rows are a view's, run under the
 * call's arguments (the comparison functions, ext/func/compare.c; the HTA analyses,
 * ext/vtab/hta.c).
 *
 * Each function is an eponymous virtual table: the view's columns, then one HIDDEN
 * column per argument. A call checks its arguments and makes a frame of them (the
 * family's begin); the runner then steps the view's statement one row per xNext,
 * with the frame current (enter ... leave) around each step, so the views read the
 * call's arguments and calls may nest or interleave. Rows are not copied: a column
 * is read from the statement.
 */
#ifndef TSQL_VIEW_RUNNER_H
#define TSQL_VIEW_RUNNER_H

#include <sqlite3ext.h>

#define TSQL_VIEW_MAX_ARGS 8

typedef struct tsql_view_fn {
    const char *name;                       /* the function (module) */
    const char *view;                       /* the TEMP view whose rows it returns */
    int nargs;
    const char *args[TSQL_VIEW_MAX_ARGS];  /* the arguments' names */
    const void *spec;                       /* the family's own description */
} tsql_view_fn;

typedef struct tsql_view_family {
    void *state;             /* the family's state: its stack of running calls */
    double cost, rows;       /* the plan's estimates of one call */
    int name_errors;         /* prefix an error of the view with the function's name */
    /* The call's frame from its arguments (argv[a] NULL: not given; valid only during
     * the call, so the frame keeps copies). SQLITE_OK with *frame; SQLITE_DONE: no rows;
     * else an error code with *err (sqlite3_malloc'd) or NULL. */
    int (*begin)(void *state, const tsql_view_fn *fn, sqlite3_value **argv, void **frame, char **err);
    void (*enter)(void *state, void *frame); /* makes the frame current */
    void (*leave)(void *state, void *frame); /* restores the one before */
    void (*end)(void *frame);                /* frees it */
} tsql_view_family;

/* Registers fn as an eponymous module run by family; both are copied (the view's name
 * too), the argument names and spec must outlive the connection (static). */
int tsql_view_fn_register(sqlite3 *db, const tsql_view_fn *fn, const tsql_view_family *family);

#endif
