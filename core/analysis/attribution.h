/*
 * attribution.h — which CPU op each GPU event's time is charged to, TraceLens's way
 * (docs/schema.md, kernel_launchers): the "kernel launchers" and their direct and subtree
 * busy times, the input of the ops_summary, ops_summary_by_category and ops_unique_args
 * views (sql/).
 *
 * Built once per trace on first use (tsql_attrib_get) and kept with the trace.
 * Everything here uses TraceLens's tree: ac2g / graph links only (kernels.tl_runtime),
 * CPU nodes it keeps (no TSQL_F_TL_DROPPED ancestors), python frames not in the tree.
 */
#ifndef TSQL_ATTRIBUTION_H
#define TSQL_ATTRIBUTION_H

#include <stddef.h>
#include <stdint.h>

#include "store/trace.h"
#include "util/u32vec.h"

typedef struct tsql_attrib {
    /* launchers, in TraceLens's order: by ts (stable), ties in first-met order */
    uint32_t nl;
    uint32_t *uid;           /* the launcher: a cpu_op, or the runtime call itself */
    double *direct_us;       /* busy time of its direct GPU events */
    double *subtree_us;      /* busy time of every GPU event in its subtree (comm included) */
    uint32_t *direct_at;     /* direct GPU events of launcher i: direct[direct_at[i] ..
                                direct_at[i+1]), sorted by ts (stable, file order) */
    uint32_t *direct;        /* GPU event uids */
    uint32_t *by_uid;        /* launcher indexes sorted by uid (for uid lookups) */

    const char **category;   /* op category of each launcher (static strings;
                                docs/perf-models.md, Op categories) */
} tsql_attrib;

/* The trace's attribution, built on first call; NULL on OOM. */
const tsql_attrib *tsql_attrib_get(tsql_trace *t);
/* The same when already built, else NULL (never builds). */
const tsql_attrib *tsql_attrib_peek(const tsql_trace *t);
void tsql_attrib_free(tsql_attrib *a);

/* Launcher index of uid, or UINT32_MAX if uid is not a launcher. */
uint32_t tsql_attrib_find(const tsql_attrib *a, uint32_t uid);

/* Busy time (µs) of a set of GPU events: length of the union of the closed intervals
 * [ts, ts + dur] (touching ones merge), in TraceLens's double arithmetic. scratch must
 * hold 2 * n doubles. */
double tsql_busy_us(const tsql_trace *t, const uint32_t *uids, size_t n, double *scratch);

/* GPU events of uid's TraceLens subtree (uid itself if it is a linked runtime call),
 * in linking order (runtime calls in file order; graph launches in file order of the
 * GPU events), appended to *out. Returns how many, or -1 on OOM. */
long tsql_tl_subtree_gpu(const tsql_trace *t, uint32_t uid, u32vec *out);

#endif
