/*
 * hta.h — the HTA analyses' glue (docs/hta.md): the per-trace tables hta_rows and
 * hta_trace_info (ext/vtab/hta_rows.c), and the hta_<analysis> table-valued functions
 * over the views of sql/hta/ with hta_arg() and np_quantile() (ext/vtab/hta.c).
 */
#ifndef TSQL_VTAB_HTA_H
#define TSQL_VTAB_HTA_H

#include "vtab/table.h"

extern const tsql_table tsql_table_hta_rows;
extern const tsql_table tsql_table_hta_trace_info;
extern const tsql_table tsql_table_hta_aten_launches;
extern const tsql_table tsql_table_hta_call_graph;
extern const tsql_table tsql_table_hta_cp_path; /* hta_critical_path.c */


#endif
