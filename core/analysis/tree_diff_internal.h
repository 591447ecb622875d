/*
 * tree_diff_internal.h — Private to core/: what the files of TraceDiff share
 * (tree_diff.c, tree_diff_side.c, tree_diff_align.c, tree_diff_pyset.c,
 * tree_diff_merge.c, tree_diff_stats.c, tree_diff_rename.c). ext/ uses tree_diff.h.
 */
#ifndef TSQL_TREE_DIFF_INTERNAL_H
#define TSQL_TREE_DIFF_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/tree_diff.h"
#include "store/store.h"
#include "util/buf.h"
#include "util/sort.h"
#include "util/u32vec.h"
#include "util/u64map.h"
#include "util/vec.h"

#define NONE TSQL_NONE
#define NOT_YET UINT32_MAX
#define MINUS_ONE (UINT32_MAX - 1) /* uid map: merged alone */

/* One side: TraceLens's tree of a trace without Python frames. */
typedef struct side {
    tsql_trace *t;
    uint32_t *ch_at, *ch;   /* raw children: CPU children by (ts, uid), then GPU children */
    uint32_t *par;          /* TraceLens's parent */
    uint8_t *gp;            /* on the GPU path (not non_gpu_path) */
    uint8_t *pod;           /* in the point-of-difference set */
    uint32_t *nm[2];        /* normalised name id per name string id (non-strip, strip) */
    uint32_t *roots, nroots;
} side;

typedef struct dop { uint8_t op; int32_t i, j; } dop; /* match, delete, insert */
enum { OP_MATCH = 0, OP_DEL = 1, OP_INS = 2 };
TSQL_VEC(dopvec, dop, 64)

/* The state of one build: both sides, the merged names, scratch text. */
typedef struct ctx {
    side s[2];
    tsql_intern *names;
    tsql_buf tmp, tmp2;
    const char *why;
} ctx;

/* The lookups a built diff keeps (tsql_tree_diff.priv). */
typedef struct priv {
    tsql_u64map memo;       /* (uid1, uid2) -> merged id */
    tsql_u64map uidmap;     /* (side, uid) -> the other uid, MINUS_ONE when alone */
    tsql_u64map find[2];    /* uid -> merged id, per side */
} priv;

TSQL_VEC(rowvec, tsql_diff_row, 256)

/* ---- tree_diff_side.c ---- */
static inline uint32_t nkids(const side *sd, uint32_t u) { return sd->ch_at[u + 1] - sd->ch_at[u]; }
static inline const uint32_t *kids(const side *sd, uint32_t u) { return sd->ch + sd->ch_at[u]; }
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

/* ---- tree_diff_pyset.c ---- */
/* v[0..n) (distinct pairs, in insertion order) reordered as Python iterates the set */
int td_pyset_order(dop *v, size_t n);

/* ---- tree_diff_align.c ---- */
/* Wagner-Fischer with TraceLens's backtrack, then the same-name disambiguation: ops
 * over a[0..m) (baseline uids) and b[0..n) (variant uids), names compared in strip mode
 * when strip. */
int td_aligned_wf(ctx *c, const uint32_t *a, size_t m, const uint32_t *b, size_t n, int strip, dopvec *ops);
/* positional pairing when the lengths agree and no dispatch node is among them, else
 * the edit distance and its disambiguation */
int td_align(ctx *c, const uint32_t *a, size_t m, const uint32_t *b, size_t n, dopvec *ops);

/* ---- tree_diff_merge.c ---- */
int td_merge_all(ctx *c, tsql_tree_diff *d, priv *pv);

/* ---- tree_diff_stats.c ---- */
int td_diff_stats(ctx *c, tsql_tree_diff *d, rowvec *rows);
/* the trace1 rows equal the trace2 rows, column by column (DataFrame.equals) */
int td_rows_identical(ctx *c, const tsql_tree_diff *d);

/* ---- tree_diff_rename.c ---- */
int td_rename_ops(ctx *c, tsql_tree_diff *d);

/* last index of uid in v, or -1 */
static inline long find_last(const u32vec *v, uint32_t uid)
{
    for (size_t i = v->n; i-- > 0;)
        if (v->v[i] == uid) return (long)i;
    return -1;
}

#endif
