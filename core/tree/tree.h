/*
 * tree.h — the call tree: CPU nesting, Python frames, and GPU work tied to launches.
 *
 * Builds, on a loaded store, exactly TraceLens's Trace2Tree (see
 * docs/differences.md for where the native columns say more than TraceLens):
 *  - CPU nesting per (pid, tid) by time containment (stable sort by ts, ">=" closes,
 *    the 1 µs overrun rule); events TraceLens drops get TSQL_F_TL_DROPPED and keep
 *    their true parent;
 *  - Python frames by "Python parent id";
 *  - each GPU event's launching runtime/driver call (ac2g flows, graph launches,
 *    correlation id), its innermost and outermost cpu_op, and TraceLens's launcher.
 * Also pairs B/E phases into spans and b/e async events.
 */
#ifndef TSQL_TREE_H
#define TSQL_TREE_H

#include "store/trace.h"

/* Builds everything above. Returns 0 or -1 with err set (only on OOM). */
/* TraceLens's launcher of a kernel whose runtime call is r (the nearest cpu_op above r,
 * skipping Python frames and cpu_ops named "execute"; else r). Shared by the tree build
 * and the graph-capture merge. */
uint32_t tsql_tl_launcher(const tsql_trace *t, uint32_t r);

int tsql_tree_build(tsql_trace *t, tsql_error *err);
/* The same, using up to threads threads (same result). */
int tsql_tree_build_threads(tsql_trace *t, tsql_error *err, int threads);

/* Row of GPU event uid in t->kernels (rows are in uid order), or TSQL_NONE. */
uint32_t tsql_kernel_row(const tsql_trace *t, uint32_t uid);

/* 1 if a GPU event name is a communication kernel (nccl, rccl, cross_device_reduce,
 * case-insensitive substring). */
int tsql_is_comm_name(const char *name);

#endif
