/*
 * capture.c — capture_merge_plan(trace, capture_folder): what merging a folder of
 * CUDA/HIP-graph capture traces into a graph-replay serving trace would do, per graph
 * launch of every engine step (core/load/capture_plan.c; docs/inference.md).
 *
 *   SELECT * FROM json_each(capture_merge_plan('serve.json.gz', 'capture_traces'));
 *
 * and trace_merge_capture(trace, capture_folder): the merge itself
 * (core/load/capture_merge.c). The open trace is replaced, under the same trace_id and
 * label, by the replay trace loaded again with the captured ops and kernels spliced in;
 * queries already reading the old one finish on it.
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "catalog/load_error.h"
#include "catalog/progress.h"
#include "catalog/registration.h"
#include "load/capture_merge.h"
#include "load/capture_plan.h"
#include "load/load.h"
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

/* Puts a new entry holding t in e's place in the catalog: same id, label and file
 * identity. Readers of e keep their reference. Returns the new entry or NULL (OOM; t is
 * then freed). */
static tsql_entry *replace_entry(tsql_catalog *c, tsql_entry *e, tsql_trace *t)
{
    tsql_entry *n = sqlite3_malloc(sizeof *n);
    char *label = sqlite3_mprintf("%s", e->label);
    int at = -1;
    for (int i = 0; i < c->nopen; i++)
        if (c->open[i] == e) at = i;
    if (!n || !label || at < 0) {
        sqlite3_free(n);
        sqlite3_free(label);
        tsql_trace_free(t);
        return NULL;
    }
    *n = *e;
    n->label = label;
    n->trace = t;
    n->refs = 1;
    c->open[at] = n;
    tsql_entry_unref(e); /* the catalog's reference */
    return n;
}

static void merge_error(sqlite3_context *ctx, const char *folder, const char *what, const char *hint)
{
    char *m = sqlite3_mprintf("trace_merge_capture: %s: %s%s", folder, what, hint ? hint : "");
    sqlite3_result_error(ctx, m ? m : "trace_merge_capture: error", -1);
    sqlite3_free(m);
}

/* trace_merge_capture(trace, capture_folder) -> trace_id */
static void fn_trace_merge_capture(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    tsql_catalog *c = sqlite3_user_data(ctx);
    const char *folder = (const char *)sqlite3_value_text(argv[1]);
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL || !folder || !*folder) {
        sqlite3_result_error(ctx, "trace_merge_capture(trace, capture_folder): give the replay trace (trace_id, "
                                  "label or path) and the folder of its capture traces as text", -1);
        return;
    }
    struct stat st;
    if (stat(folder, &st) != 0 || !S_ISDIR(st.st_mode)) {
        merge_error(ctx, folder, "not a readable folder",
                    " (give the folder holding the capture traces and execution_details.json)");
        return;
    }
    char *zErr = NULL;
    tsql_entry *e = tsql_catalog_resolve(c, argv[0], 1, &zErr);
    if (!e) {
        sqlite3_result_error(ctx, zErr ? zErr : "trace_merge_capture: no such trace", -1);
        sqlite3_free(zErr);
        return;
    }
    const char *done = tsql_capture_merged_folder(e->trace);
    if (done) {
        char *m = sqlite3_mprintf("trace_merge_capture: trace %lld is already merged with the capture folder %s; "
                                  "trace_close it and open the replay trace again to merge another folder",
                                  (long long)e->id, done);
        sqlite3_result_error(ctx, m ? m : "trace_merge_capture: already merged", -1);
        sqlite3_free(m);
        tsql_entry_unref(e);
        return;
    }
    /* the replay is loaded again: the open one may be read by other queries meanwhile */
    const char *path = e->trace->path;
    tsql_entry *same = tsql_catalog_find_file(c, path);
    if (same != e) {
        char *m = sqlite3_mprintf("trace_merge_capture: %s changed on disk since it was opened as trace %lld; "
                                  "trace_open it again first", path, (long long)e->id);
        sqlite3_result_error(ctx, m ? m : "trace_merge_capture: the file changed", -1);
        sqlite3_free(m);
        tsql_entry_unref(e);
        return;
    }
    tsql_load_watch watch;
    tsql_load_watch_start(&watch, c, path, 0);
    tsql_load_opts opts = {.mem_limit = c->mem_limit, .progress = tsql_load_watch_progress, .progress_ctx = &watch};
    tsql_error err = {0};
    tsql_trace *t = tsql_trace_load(path, &opts, &err);
    if (!t) {
        tsql_load_watch_end(&watch);
        char *m = tsql_format_error(path, &err);
        sqlite3_result_error(ctx, m ? m : "trace_merge_capture: the replay trace does not load again", -1);
        if (err.code == TSQL_EINTR) sqlite3_result_error_code(ctx, SQLITE_INTERRUPT);
        sqlite3_free(m);
        tsql_entry_unref(e);
        return;
    }
    tsql_capture_merge_info info;
    watch.show = 0; /* the capture traces load quietly, but Ctrl-C still stops them */
    int rc = tsql_capture_merge(t, folder, &opts, &info, &err);
    tsql_load_watch_end(&watch);
    if (rc) {
        tsql_trace_free(t);
        tsql_entry_unref(e);
        if (err.code == TSQL_EINTR) {
            sqlite3_result_error(ctx, "trace_merge_capture: interrupted", -1);
            sqlite3_result_error_code(ctx, SQLITE_INTERRUPT);
            return;
        }
        if (err.code == TSQL_ENOMEM && !strstr(err.msg, "ceiling")) {
            sqlite3_result_error_nomem(ctx);
            return;
        }
        merge_error(ctx, folder, err.msg,
                    " (the folder must hold the capture traces and, optionally, execution_details.json)");
        return;
    }
    tsql_entry *n = replace_entry(c, e, t);
    tsql_entry_unref(e);
    if (!n) sqlite3_result_error_nomem(ctx);
    else sqlite3_result_int64(ctx, n->id);
}

static const tsql_fn_def capture_fns[] = {
    {"capture_merge_plan", 2, TSQL_TOP_LEVEL, fn_capture_merge_plan, NULL, NULL},
    {"trace_merge_capture", 2, TSQL_TOP_LEVEL, fn_trace_merge_capture, NULL, NULL},
};

const tsql_registration tsql_reg_capture = {.what = "capture_merge_plan, trace_merge_capture", TSQL_FNS(capture_fns)};
