/*
 * compare_events.h — the traces of the comparison call running now, with each trace's
 * GPU events classified (core/analysis/compare_events.h), as the tables
 * compare_events (one row per GPU event) and compare_event_groups (the events summed per
 * operation, phase, layer, kernel and CPU op) that the views of sql/compare/ read.
 *
 * ext/func/compare.c builds the sides of each call and makes them current while the
 * call's view runs; outside a call both tables are empty.
 */
#ifndef TSQL_VTAB_COMPARE_EVENTS_H
#define TSQL_VTAB_COMPARE_EVENTS_H

#include <sqlite3ext.h>

#include "catalog/catalog.h"
#include "catalog/risk.h"

typedef struct tsql_cmp_sides tsql_cmp_sides;

/* What the tables read: the connection's catalog and the running call's sides (NULL
 * outside a call), kept by ext/func/compare.c. */
typedef struct tsql_cmp_current {
    tsql_catalog *catalog;
    tsql_cmp_sides *sides;
} tsql_cmp_current;

/* The sides of one call: names[i] ("baseline", "variant", "trace") is the trace
 * specs[i] (an id, label or path; NULL or an SQL NULL: the side is absent); phase is
 * the call's phase argument (NULL: none), which compare_kernel_groups applies. Each
 * trace's events are computed on first use with the connection's kernel_op rules and
 * kept with the trace until the rules change. SQLITE_OK with *out referenced, or an
 * error code with *err set (sqlite3_malloc'd; NULL when out of memory). */
int tsql_cmp_sides_build(tsql_catalog *c, const char *const *names, sqlite3_value *const *specs, int n,
                         sqlite3_value *phase, tsql_cmp_sides **out, char **err);
void tsql_cmp_sides_ref(tsql_cmp_sides *s);
void tsql_cmp_sides_unref(tsql_cmp_sides *s);

/* Registers compare_events, compare_event_groups, compare_pass_groups and
 * compare_kernel_groups, which read current->sides when a query starts reading them,
 * and gpu_ops(trace), which classifies its own trace argument and streams its rows. */
int tsql_register_compare_tables(sqlite3 *db, tsql_cmp_current *current);

#endif
