/*
 * replay.c — event replay from SQL (core/output/replay.h; docs/replay.md):
 *
 *   replay_script(trace, uid)   TEXT: a self-contained PyTorch script that re-creates
 *                               the op call of event uid from its recorded shapes,
 *                               dtypes, strides and scalar values, and times it
 *
 *   SELECT replay_script('run.json.gz', uid) FROM events('run.json.gz')
 *   WHERE name = 'aten::mm' LIMIT 1;
 *
 * trace is a trace id, label or path (a path not open yet is loaded, so the function
 * is SQLITE_DIRECTONLY: a view or trigger in a database someone else wrote cannot call
 * it). uid may be a cpu_op, a GPU event (its launching op is replayed: TraceLens's
 * launcher, else the innermost cpu_op around the launch) or a runtime call (the cpu_op
 * around it). For a given trace and uid the text is always the same.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/attribution.h"
#include "output/replay.h"
#include "tree/tree.h"
#include "catalog/registration.h"

/* The cpu_op to replay for event u, or TSQL_NONE. */
static uint32_t op_of(const tsql_trace *t, uint32_t u)
{
    int k = t->kind[u];
    if (k == TSQL_K_CPU_OP) return u;
    if (tsql_kind_is_gpu(k)) {
        uint32_t r = tsql_kernel_row(t, u);
        if (r == TSQL_NONE) return TSQL_NONE;
        uint32_t l = t->kernels.tl_launcher[r];
        if (l != TSQL_NONE && t->kind[l] == TSQL_K_CPU_OP) return l;
        return t->kernels.op[r];
    }
    if (tsql_kind_is_launch(k)) {
        for (uint32_t p = t->parent[u], guard = 0; p != TSQL_NONE && guard < 65536; p = t->parent[p], guard++)
            if (t->kind[p] == TSQL_K_CPU_OP) return p;
    }
    return TSQL_NONE;
}

static void fn_replay(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    tsql_catalog *c = sqlite3_user_data(ctx);
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL) return;
    if (sqlite3_value_numeric_type(argv[1]) != SQLITE_INTEGER) {
        sqlite3_result_error(ctx, "replay_script: uid must be an integer (an event's uid)", -1);
        return;
    }
    sqlite3_int64 uid = sqlite3_value_int64(argv[1]);
    char *zErr = NULL;
    tsql_entry *e = tsql_catalog_resolve(c, argv[0], 1, &zErr);
    if (!e) {
        sqlite3_result_error(ctx, zErr ? zErr : "replay_script: no such trace", -1);
        sqlite3_free(zErr);
        return;
    }
    tsql_trace *t = e->trace;
    tsql_buf args = {0}, out = {0};
    u32vec gpu = {0};
    double *scratch = NULL;
    char *msg = NULL;
    if (uid < 0 || uid >= (sqlite3_int64)t->n) {
        msg = sqlite3_mprintf("replay_script: no event with uid %lld in trace %lld (uids are 0..%u)",
                              (long long)uid, (long long)e->id, t->n ? t->n - 1 : 0);
        goto done;
    }
    uint32_t u = (uint32_t)uid, op = op_of(t, u);
    if (op == TSQL_NONE) {
        const char *nm = t->name[u] ? tsql_intern_str(&t->strings, t->name[u]) : "";
        msg = sqlite3_mprintf("replay_script: uid %lld ('%s') is a %s event with no cpu_op to replay; "
                              "pass the uid of a cpu_op with recorded shapes",
                              (long long)uid, nm, tsql_kind_names[t->kind[u]]);
        goto done;
    }
    const char *name = t->name[op] ? tsql_intern_str(&t->strings, t->name[op]) : "";
    if (tsql_trace_args_json(t, op, &args) < 0 || tsql_buf_reserve(&args, 1)) goto nomem;
    args.p[args.n] = 0;

    tsql_replay_ctx rc = {.label = e->label, .uid = op, .cpu_dur_us = NAN, .kernel_us = NAN, .nkernels = -1};
    if (t->dur_ns[op] != TSQL_NULL) rc.cpu_dur_us = tsql_trace_dur_us(t, op);
    long ng = tsql_tl_subtree_gpu(t, op, &gpu);
    if (ng < 0) goto nomem;
    rc.nkernels = ng;
    if (ng > 0) {
        scratch = malloc(2 * (size_t)ng * sizeof *scratch);
        if (!scratch) goto nomem;
        rc.kernel_us = tsql_busy_us(t, gpu.v, (size_t)ng, scratch);
    }
    char err[300];
    int r = tsql_replay_script(name, args.n ? args.p : NULL, &rc, &out, err, sizeof err);
    if (r == -1) goto nomem;
    if (r == -2) {
        msg = sqlite3_mprintf("replay_script: uid %lld: %s", (long long)op, err);
        goto done;
    }
    sqlite3_result_text64(ctx, out.p, out.n, free, SQLITE_UTF8);
    out.p = NULL;
    goto done;
nomem:
    sqlite3_result_error_nomem(ctx);
done:
    if (msg) {
        sqlite3_result_error(ctx, msg, -1);
        sqlite3_free(msg);
    }
    free(args.p);
    free(out.p);
    free(gpu.v);
    free(scratch);
    tsql_entry_unref(e);
}

static const tsql_fn_def replay_fns[] = {{"replay_script", 2, TSQL_TOP_LEVEL, fn_replay, NULL, NULL}};

const tsql_registration tsql_reg_replay = {.what = "replay_script", TSQL_FNS(replay_fns)};
