/*
 * tree_diff_json.h — TraceDiff's cpu-op maps as JSON text, the way TraceLens writes
 * cpu_op_map.json, cpu_op_map_trace1.json and cpu_op_map_trace2.json (docs/diff.md,
 * "tree_diff_cpu_op_map()").
 */
#ifndef TSQL_TREE_DIFF_JSON_H
#define TSQL_TREE_DIFF_JSON_H

#include "analysis/tree_diff_result.h"
#include "util/buf.h"

/* The cpu-op maps as JSON text: which 0 = cpu_op_map.json, 1 = cpu_op_map_trace1.json,
 * 2 = cpu_op_map_trace2.json. Appended to out; 0 or -1 on OOM. */
int tsql_tree_diff_op_map_json(const tsql_tree_diff *d, int which, tsql_buf *out);

#endif
