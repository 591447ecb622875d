/*
 * tree_diff.h — a pair of open traces and their TraceDiff (core/analysis/tree_diff.h),
 * for the tree_diff tables (ext/vtab/tree_diff.c) and functions (ext/func/tree_diff.c).
 */
#ifndef TSQL_VTAB_TREE_DIFF_H
#define TSQL_VTAB_TREE_DIFF_H

#include <sqlite3ext.h>

#include "analysis/tree_diff.h"
#include "catalog/catalog.h"

typedef struct tsql_diff_pair {
    tsql_entry *base, *var;  /* referenced */
    tsql_tree_diff *d;       /* kept with the baseline trace */
} tsql_diff_pair;

/* Resolves the variant (id, label or path; a path not open yet is loaded) and the diff
 * of base with it; the pair takes references of its own on both. 0, or -1 with *err
 * (sqlite3_mprintf'd; NULL means out of memory). who names the caller in messages. */
int tsql_diff_pair_open(tsql_catalog *c, tsql_entry *base, sqlite3_value *variant, const char *who,
                        tsql_diff_pair *p, char **err);
/* Drops the references. */
void tsql_diff_pair_close(tsql_diff_pair *p);

#endif
