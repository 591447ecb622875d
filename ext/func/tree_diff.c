/*
 * tree_diff.c — TraceDiff functions over a pair of traces (docs/diff.md):
 *
 *   tree_diff_uid(baseline, variant, uid, side)   the uid merged with uid of side 1
 *       (baseline) or 2 (variant) on the other side; NULL when it was merged alone or
 *       is not in the merged tree (TraceLens's get_corresponding_uid)
 *   tree_diff_text(baseline, variant [, root_uid [, prune_non_gpu]])   TraceLens's
 *       merged_tree_output.txt; with root_uid (a baseline uid) that node's merged
 *       subtree (print_merged_subtree)
 *   tree_diff_cpu_op_map(baseline, variant [, which])   the cpu-op maps as JSON text:
 *       which 0 (default) cpu_op_map.json, 1 cpu_op_map_trace1.json, 2 _trace2.json
 *
 * Traces are ids, labels or paths (a path not open yet is loaded, so the functions are
 * SQLITE_DIRECTONLY). The merge is computed once per pair (kept with the baseline).
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <stdlib.h>
#include <string.h>

#include "catalog/registration.h"
#include "output/tree_diff_json.h"
#include "output/tree_diff_text.h"
#include "vtab/tree_diff.h"

/* both traces and their diff, or an error reported on ctx */
static int open_pair(sqlite3_context *ctx, sqlite3_value **argv, const char *who, tsql_diff_pair *p)
{
    tsql_catalog *c = sqlite3_user_data(ctx);
    char *zErr = NULL;
    tsql_entry *b = tsql_catalog_resolve(c, argv[0], 1, &zErr);
    if (!b) {
        if (zErr) sqlite3_result_error(ctx, zErr, -1);
        else sqlite3_result_error_nomem(ctx);
        sqlite3_free(zErr);
        return -1;
    }
    int rc = tsql_diff_pair_open(c, b, argv[1], who, p, &zErr);
    tsql_entry_unref(b);
    if (rc) {
        if (zErr) sqlite3_result_error(ctx, zErr, -1);
        else sqlite3_result_error_nomem(ctx);
        sqlite3_free(zErr);
        return -1;
    }
    return 0;
}

static int int_arg(sqlite3_context *ctx, sqlite3_value *v, const char *what, sqlite3_int64 *out)
{
    if (sqlite3_value_numeric_type(v) != SQLITE_INTEGER) {
        char *m = sqlite3_mprintf("%s must be an integer", what);
        sqlite3_result_error(ctx, m ? m : "bad argument", -1);
        sqlite3_free(m);
        return -1;
    }
    *out = sqlite3_value_int64(v);
    return 0;
}

static void fn_uid(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    if (sqlite3_value_type(argv[2]) == SQLITE_NULL) return;
    sqlite3_int64 uid, side;
    if (int_arg(ctx, argv[2], "tree_diff_uid: uid", &uid) || int_arg(ctx, argv[3], "tree_diff_uid: side", &side))
        return;
    if (side != 1 && side != 2) {
        sqlite3_result_error(ctx, "tree_diff_uid: side must be 1 (baseline) or 2 (variant)", -1);
        return;
    }
    tsql_diff_pair p;
    if (open_pair(ctx, argv, "tree_diff_uid", &p)) return;
    if (uid >= 0 && uid < UINT32_MAX) {
        int64_t o = tsql_tree_diff_corresponding(p.d, (int)side, (uint32_t)uid);
        if (o >= 0) sqlite3_result_int64(ctx, o);
    }
    tsql_diff_pair_close(&p);
}

static void fn_text(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    uint32_t root = TSQL_NONE;
    sqlite3_int64 prune = 0;
    if (argc > 3 && sqlite3_value_type(argv[3]) != SQLITE_NULL &&
        int_arg(ctx, argv[3], "tree_diff_text: prune_non_gpu", &prune))
        return;
    tsql_diff_pair p;
    sqlite3_int64 uid = -1;
    if (argc > 2 && sqlite3_value_type(argv[2]) != SQLITE_NULL && int_arg(ctx, argv[2], "tree_diff_text: root_uid", &uid))
        return;
    if (open_pair(ctx, argv, "tree_diff_text", &p)) return;
    if (uid >= 0) {
        root = uid < UINT32_MAX ? tsql_tree_diff_find(p.d, 1, (uint32_t)uid) : TSQL_NONE;
        if (root == TSQL_NONE) {
            char *m = sqlite3_mprintf("tree_diff_text: baseline uid %lld is not in the merged tree", (long long)uid);
            sqlite3_result_error(ctx, m ? m : "tree_diff_text: uid not in the merged tree", -1);
            sqlite3_free(m);
            tsql_diff_pair_close(&p);
            return;
        }
    }
    tsql_buf out = {0};
    if (tsql_tree_diff_text(p.d, root, prune != 0, &out)) sqlite3_result_error_nomem(ctx);
    else {
        sqlite3_result_text64(ctx, out.p, out.n, free, SQLITE_UTF8);
        out.p = NULL;
    }
    free(out.p);
    tsql_diff_pair_close(&p);
}

static void fn_op_map(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    sqlite3_int64 which = 0;
    if (argc > 2 && sqlite3_value_type(argv[2]) != SQLITE_NULL &&
        int_arg(ctx, argv[2], "tree_diff_cpu_op_map: which", &which))
        return;
    if (which < 0 || which > 2) {
        sqlite3_result_error(ctx, "tree_diff_cpu_op_map: which must be 0 (cpu_op_map), 1 (trace1) or 2 (trace2)", -1);
        return;
    }
    tsql_diff_pair p;
    if (open_pair(ctx, argv, "tree_diff_cpu_op_map", &p)) return;
    tsql_buf out = {0};
    if (tsql_tree_diff_op_map_json(p.d, (int)which, &out)) sqlite3_result_error_nomem(ctx);
    else {
        sqlite3_result_text64(ctx, out.p, out.n, free, SQLITE_UTF8);
        out.p = NULL;
    }
    free(out.p);
    tsql_diff_pair_close(&p);
}

/* they open both traces by path if need be: top-level only */
static const tsql_fn_def tree_diff_functions_fns[] = {
    {"tree_diff_uid", 4, TSQL_TOP_LEVEL, fn_uid, NULL, NULL},
    {"tree_diff_text", 2, TSQL_TOP_LEVEL, fn_text, NULL, NULL},
    {"tree_diff_text", 3, TSQL_TOP_LEVEL, fn_text, NULL, NULL},
    {"tree_diff_text", 4, TSQL_TOP_LEVEL, fn_text, NULL, NULL},
    {"tree_diff_cpu_op_map", 2, TSQL_TOP_LEVEL, fn_op_map, NULL, NULL},
    {"tree_diff_cpu_op_map", 3, TSQL_TOP_LEVEL, fn_op_map, NULL, NULL},
};

const tsql_registration tsql_reg_tree_diff_functions = {.what = "tree_diff functions", TSQL_FNS(tree_diff_functions_fns)};
