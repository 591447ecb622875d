/*
 * pdcell.h — what pandas' read_csv makes of one CSV cell (docs/compare-reports.md:
 * TraceLens's perf-report comparison reads every sheet with read_csv's defaults).
 *
 * A column's dtype is the first of int64, float64, bool that every non-missing cell
 * parses as, else object (text kept as written); a column with a missing cell cannot be
 * int64. Floats are parsed by pandas' default converter, which is not correctly
 * rounded: it keeps at most 17 significant digits (leading zeros after the decimal
 * point count) as a double accumulated digit by digit, then multiplies or divides by a
 * power of ten — so "31.905483154296874" reads as 31.905483154296878.
 */
#ifndef TSQL_PDCELL_H
#define TSQL_PDCELL_H

#include <stddef.h>

/* The narrowest reading of one cell. */
typedef enum {
    TSQL_PD_NA,    /* a missing value: empty, "NaN", "null", "None", "N/A", ... */
    TSQL_PD_INT,   /* an int64 (an integer beyond int64 counts as text) */
    TSQL_PD_FLOAT, /* a float64 (and not an int64) */
    TSQL_PD_BOOL,  /* "True" "TRUE" "true" "False" "FALSE" "false" */
    TSQL_PD_STR    /* anything else */
} tsql_pd_kind;

/* Classifies s[0..n). */
tsql_pd_kind tsql_pd_cell_kind(const char *s, size_t n);

/* 1 if s[0..n) is one of read_csv's default missing-value spellings (pandas >= 2). */
int tsql_pd_is_na(const char *s, size_t n);

/* Parses s[0..n) as an int64 (ASCII blanks around it allowed); 1 on success. */
int tsql_pd_parse_int(const char *s, size_t n, long long *out);

/* Parses s[0..n) as pandas' float converter does (blanks around it allowed; "inf",
 * "+inf", "-inf", "infinity" in any case); 1 on success, 0 if the cell is not a float
 * to pandas (then its column is not numeric). */
int tsql_pd_parse_float(const char *s, size_t n, double *out);

/* 1 / 0 for the bool spellings above, -1 for anything else. */
int tsql_pd_parse_bool(const char *s, size_t n);

#endif
