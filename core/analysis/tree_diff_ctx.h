/*
 * tree_diff_ctx.h — Private to core/: the data the steps of a TraceDiff build share, at
 * the bottom of them (types only, no step): one side (a trace's tree without Python
 * frames), the alignment ops, the build state. The steps include it and the headers of
 * the steps below them, one way:
 *
 *   tree_diff_ctx.h  <  tree_diff_side  <  tree_diff_align  <  tree_diff_merge
 *                                       <  tree_diff_stats, tree_diff_rename
 *   tree_diff.c (the build) over all of them; the result (tree_diff_result.h) below all.
 */
#ifndef TSQL_TREE_DIFF_CTX_H
#define TSQL_TREE_DIFF_CTX_H

#include <stddef.h>
#include <stdint.h>

#include "store/intern.h"
#include "store/trace.h"
#include "util/buf.h"
#include "util/u32vec.h"
#include "util/vec.h"

#define NONE TSQL_NONE
#define NOT_YET UINT32_MAX

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

static inline uint32_t nkids(const side *sd, uint32_t u) { return sd->ch_at[u + 1] - sd->ch_at[u]; }
static inline const uint32_t *kids(const side *sd, uint32_t u) { return sd->ch + sd->ch_at[u]; }

/* An alignment op over two sibling lists: match i with j, delete i, insert j. */
typedef struct dop { uint8_t op; int32_t i, j; } dop;
enum { OP_MATCH = 0, OP_DEL = 1, OP_INS = 2 };
TSQL_VEC(dopvec, dop, 64)

/* The state of one build: both sides, the merged names, scratch text. */
typedef struct ctx {
    side s[2];
    tsql_intern *names;
    tsql_buf tmp, tmp2;
    const char *why;
} ctx;

/* last index of uid in v, or -1 */
static inline long find_last(const u32vec *v, uint32_t uid)
{
    for (size_t i = v->n; i-- > 0;)
        if (v->v[i] == uid) return (long)i;
    return -1;
}

#endif
