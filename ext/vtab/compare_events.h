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

typedef struct tsql_cmp_sides tsql_cmp_sides;

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
 * compare_kernel_groups; they read *current (the running
 * call's sides, NULL outside a call) when a query starts reading them. */
int tsql_register_compare_tables(sqlite3 *db, tsql_cmp_sides **current);

#endif
