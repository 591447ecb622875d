/*
 * tree_diff_result.h — what a TraceDiff build produces (docs/diff.md): the merged tree of
 * a baseline (TraceLens's trace1) and a variant (trace2), its points of difference and
 * lowest common ancestors, the diff_stats rows, and the lookups on them. The bottom of
 * the TraceDiff files: the build (tree_diff.h) fills it, the writers
 * (core/output/tree_diff_text.c, tree_diff_json.c) and ext/ read it.
 *
 * Merged ids are TraceLens's merged_id: pre-order, roots paired by position.
 */
#ifndef TSQL_TREE_DIFF_RESULT_H
#define TSQL_TREE_DIFF_RESULT_H

#include <stdint.h>

#include "store/intern.h"
#include "store/trace.h"
#include "util/u64map.h"

enum { TSQL_DIFF_BOTH = 0, TSQL_DIFF_BASELINE = 1, TSQL_DIFF_VARIANT = 2 };

/* The uid map's value for a node merged alone (no other side). */
#define TSQL_DIFF_ALONE (UINT32_MAX - 1)

/* One row of TraceLens's diff_stats: a GPU event under a difference. */
typedef struct tsql_diff_row {
    uint8_t side;            /* 1 baseline (trace1), 2 variant (trace2) */
    uint32_t gpu;            /* the GPU event (gpu_op_uid) */
    uint32_t op;             /* its nearest cpu_op ancestor (cpu_op_uid) */
    uint32_t lca;            /* merged id of the lowest common ancestor, TSQL_NONE if none */
    double busy_us;          /* busy time of the side's GPU set at the LCA, to 3 decimals */
    uint32_t lca_name;       /* text id in names, 0 = none */
    uint32_t op_name;        /* text id of the op's name (its uid when it has none) */
    uint32_t op_map_name;    /* cpu_op_map's name of the op (renamed or its own), text id */
} tsql_diff_row;

typedef struct tsql_tree_diff {
    tsql_trace *t[2];        /* baseline, variant (not owned) */
    uint32_t n;              /* merged nodes, ids 0 .. n-1 in TraceLens's merged order */
    uint32_t *uid1, *uid2;   /* the node on each side, TSQL_NONE when absent */
    uint8_t *type;           /* TSQL_DIFF_* */
    uint8_t *pod;            /* 1: a point of difference (names differ, or one side only) */
    uint8_t *is_lca;         /* 1: a diff_stats lowest common ancestor */
    uint32_t *parent;        /* merged parent that first reached it, TSQL_NONE for roots */
    uint32_t *depth;         /* 0 for roots */
    uint32_t *kid_at, *kid_n, *kids; /* children: kids[kid_at[m] .. + kid_n[m]) */
    uint32_t nroots, *roots;
    uint32_t nrows;
    tsql_diff_row *rows;     /* diff_stats rows in TraceLens's order */
    int identical;           /* the baseline rows equal the variant rows
                                (docs/diff.md, diff_stats) */
    int whole_kernel_time;   /* every GPU duration of both traces is a whole number of µs:
                                Python reads them as ints, and pandas keeps the column int */
    tsql_intern names;       /* texts: normalised names, LCA names, renamed op names */
    tsql_u64map uidmap;      /* (side, uid) -> the other side's uid, TSQL_DIFF_ALONE when
                                merged alone; key uid (baseline) or 1 << 32 | uid (variant) */
    tsql_u64map find[2];     /* uid -> merged id (the last such), per side */
} tsql_tree_diff;

void tsql_tree_diff_free(tsql_tree_diff *d);

/* TraceLens's get_corresponding_uid: the uid of the other side merged with uid of side
 * (1 or 2); -1 for a node merged alone; -2 when uid is not in the merged tree. */
int64_t tsql_tree_diff_corresponding(const tsql_tree_diff *d, int side, uint32_t uid);

/* Merged id whose side (1 or 2) node is uid (the last such), or TSQL_NONE. */
uint32_t tsql_tree_diff_find(const tsql_tree_diff *d, int side, uint32_t uid);

/* Busy time (µs) of the GPU events of merged node m's subtree on side (1 or 2) — the
 * node itself when it is a GPU event; NaN when the side is absent. */
double tsql_tree_diff_gpu_us(const tsql_tree_diff *d, uint32_t m, int side);

#endif
