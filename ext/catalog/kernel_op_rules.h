/*
 * kernel_op_rules.h — the connection's kernel_op rules, kept by its catalog.
 *
 * The rules are the rows of the TEMP table kernel_op_rules (docs/compare.md), read
 * into core/analysis/kernel_op.c's matcher on first use and read again whenever the
 * connection has changed any row since (sqlite3_total_changes64), so a rule a user
 * inserts applies to the next call without any other step. kernel_op() and the
 * comparison tables read the same rules through here.
 */
#ifndef TSQL_KERNEL_OP_RULES_H
#define TSQL_KERNEL_OP_RULES_H

#include <stdint.h>

#include "catalog/catalog.h"

struct tsql_kop_rules;
struct tsql_kop_cache;

/* The current rules, read again when any row changed since they were read; *key
 * identifies their content (equal keys, equal rules). SQLITE_OK, or an error code
 * with *err set (sqlite3_malloc'd) or left NULL (out of memory). */
int tsql_catalog_kop_rules(tsql_catalog *c, struct tsql_kop_rules **rules, uint64_t *key, char **err);

/* Frees the cache (with the catalog). */
void tsql_kop_cache_free(struct tsql_kop_cache *k);

#endif
