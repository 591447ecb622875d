/*
 * tree_diff_names.h — TraceDiff's name normalisation (docs/diff.md, "How the trees are
 * merged"): the names its edit distance compares.
 */
#ifndef TSQL_TREE_DIFF_NAMES_H
#define TSQL_TREE_DIFF_NAMES_H

#include <stddef.h>

#include "util/buf.h"

/* norm() of docs/diff.md, How the trees are merged (Names) on s[0..n) (strip mode when strip), into
 * out (replacing its text). 0 or -1 on OOM. */
int tsql_diff_norm_name(const char *s, size_t n, int strip, tsql_buf *out);

#endif
