/*
 * tree_diff_side.h — Private to core/: one side of TraceDiff (tree_diff_side.c): TraceLens's
 * tree of a trace without Python frames, its nodes' kinds and names, Collapse.
 */
#ifndef TSQL_TREE_DIFF_SIDE_H
#define TSQL_TREE_DIFF_SIDE_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/tree_diff_ctx.h"

int td_side_build(side *sd, tsql_trace *t);
void td_side_free(side *sd);
/* a cudaGraphLaunch / hipGraphLaunch call */
int td_graph_launch(const tsql_trace *t, uint32_t u);
/* a dispatch node: runtime or driver call other than a graph launch */
int td_dispatch(const side *sd, uint32_t u);
/* TraceLens's _is_kernel: kernel or memcpy */
int td_kernelish(const side *sd, uint32_t u);
/* Stable sort of uids by ts (TraceLens's sorted(key=ts)). 0 or -1 on OOM. */
int td_sort_by_ts(const side *sd, uint32_t *v, size_t n);
/* _get_name_node: normalised name id, 0 for a missing or empty name. NOT_YET on OOM. */
uint32_t td_name_id(ctx *c, const side *sd, uint32_t u, int strip);
/* the name compared by the edit distance: the node's name, or its uid as text */
uint32_t td_wf_name(ctx *c, const side *sd, uint32_t u, int strip);
/* raw name or the uid as text (TraceLens's _get_op_name) */
const char *td_op_name(const side *sd, uint32_t u, char num[16]);
/* GPU-path children of u in raw order, appended to v */
int td_gpu_kids(const side *sd, uint32_t u, u32vec *v);
/* Collapse(n): the node reached; its GPU-path children in *deeper when it stopped on a
 * count other than one. */
int td_collapse(const side *sd, uint32_t u, uint32_t *out, u32vec *deeper);

#endif
