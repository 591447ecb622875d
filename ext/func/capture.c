/*
 * capture.c — capture_merge_plan(trace, capture_folder): what merging a folder of
 * CUDA/HIP-graph capture traces into a graph-replay serving trace would do, per graph
 * launch of every engine step (core/load/capture_plan.c; docs/inference.md).
 *
 *   SELECT * FROM json_each(capture_merge_plan('serve.json.gz', 'capture_traces'));
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/registration.h"
#include "load/capture_plan.h"
#include "text/jsonout.h"
#include "text/pyrepr.h"

static int put_str(tsql_buf *b, const char *s)
{
    return s ? tsql_json_quote(b, s, strlen(s)) : tsql_bputs(b, "null");
}

static void fn_capture_merge_plan(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    tsql_catalog *c = sqlite3_user_data(ctx);
    const char *folder = (const char *)sqlite3_value_text(argv[1]);
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL || !folder) return;
    char *zErr = NULL;
    tsql_entry *e = tsql_catalog_resolve(c, argv[0], 1, &zErr);
    if (!e) {
        sqlite3_result_error(ctx, zErr ? zErr : "capture_merge_plan: no such trace", -1);
        sqlite3_free(zErr);
        return;
    }
    const tsql_trace *t = e->trace;
    tsql_capture_plan p;
    tsql_error err = {0};
    if (tsql_capture_plan_make(t, folder, &p, &err)) {
        tsql_entry_unref(e);
        if (err.code == TSQL_ENOMEM) {
            sqlite3_result_error_nomem(ctx);
            return;
        }
        char *m = sqlite3_mprintf("capture_merge_plan: %s: %s (the folder must hold the capture traces and, "
                                  "optionally, execution_details.json)", folder, err.msg);
        sqlite3_result_error(ctx, m ? m : "capture_merge_plan: error", -1);
        sqlite3_free(m);
        return;
    }
    tsql_buf b = {0};
    int bad = tsql_bputs(&b, "{\"fails_merge\":") || tsql_bputs(&b, p.fails_merge ? "true" : "false") ||
              tsql_bputs(&b, ",\"fails_why\":") || put_str(&b, p.fails_why) || tsql_bputs(&b, ",\"launches\":[");
    for (size_t i = 0; i < p.n && !bad; i++) {
        const tsql_capture_launch *l = &p.launch[i];
        char num[160];
        bad |= i && tsql_bputc(&b, ',');
        snprintf(num, sizeof num, "{\"step_uid\":%u,\"graph_uid\":", l->step);
        bad |= tsql_bputs(&b, num);
        if (l->graph == TSQL_NONE) bad |= tsql_bputs(&b, "null");
        else snprintf(num, sizeof num, "%u", l->graph), bad |= tsql_bputs(&b, num);
        bad |= tsql_bputs(&b, ",\"step\":") || put_str(&b, tsql_intern_text(&t->strings, t->name[l->step]));
        if (l->has_batch) snprintf(num, sizeof num, ",\"batch_size\":%lld", (long long)l->batch_size);
        else snprintf(num, sizeof num, ",\"batch_size\":null");
        bad |= tsql_bputs(&b, num) || tsql_bputs(&b, ",\"capture\":") ||
               put_str(&b, l->entry >= 0 ? p.file[l->entry] : NULL);
        if (l->entry >= 0) snprintf(num, sizeof num, ",\"capture_batch_size\":%lld", (long long)p.batch_size[l->entry]);
        else snprintf(num, sizeof num, ",\"capture_batch_size\":null");
        bad |= tsql_bputs(&b, num) || tsql_bputs(&b, ",\"mode\":") || put_str(&b, l->entry >= 0 ? p.mode[l->entry] : NULL);
        snprintf(num, sizeof num, ",\"code\":%d,\"kernels\":%zu,\"why\":", l->code, l->nkernels);
        bad |= tsql_bputs(&b, num) || put_str(&b, l->why) || tsql_bputc(&b, '}');
    }
    bad |= tsql_bputs(&b, "]}");
    tsql_capture_plan_free(&p);
    tsql_entry_unref(e);
    if (bad) sqlite3_result_error_nomem(ctx);
    else sqlite3_result_text(ctx, b.p, (int)b.n, SQLITE_TRANSIENT);
    free(b.p);
}

static const tsql_fn_def capture_fns[] = {
    {"capture_merge_plan", 2, TSQL_TOP_LEVEL, fn_capture_merge_plan, NULL, NULL},
};

const tsql_registration tsql_reg_capture = {.what = "capture_merge_plan", TSQL_FNS(capture_fns)};
