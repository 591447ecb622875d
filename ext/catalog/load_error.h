/*
 * load_error.h — a core load error as an SQL error message (load_error.c).
 */
#ifndef TSQL_LOAD_ERROR_H
#define TSQL_LOAD_ERROR_H

#include "util/error.h"

/* Formats a core error as "tracesql: <path>: byte N: msg". sqlite3_malloc'd. */
char *tsql_format_error(const char *path, const tsql_error *err);

#endif
