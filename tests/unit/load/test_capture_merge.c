/*
 * test_capture_merge.c — the graph-capture merge (core/load/capture_merge.c) on the
 * hand-made traces of tests/data/inference/merge: the capture tree and its roots, the
 * splice (UIDs, parents, ts and dur, kernels re-linked), and the merges that are not done.
 * Every expected value was checked against TraceLens's merge of the same files.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "load/capture_merge.h"
#include "load/load.h"
#include "tree/tree.h"

#define DIR "tests/data/inference/merge/"

static tsql_trace *load(const char *path)
{
    tsql_error err = {0};
    tsql_trace *t = tsql_trace_load(path, NULL, &err);
    if (!t) fprintf(stderr, "%s: %s\n", path, err.msg);
    return t;
}

static const char *nm(const tsql_trace *t, uint32_t u) { return tsql_intern_text(&t->strings, t->name[u]); }

static int has_warning(const tsql_trace *t, const char *part)
{
    for (uint32_t i = 0; i < t->nwarnings; i++)
        if (strstr(t->warnings[i].msg, part)) return 1;
    return 0;
}

static void test_capture_tree(void)
{
    tsql_trace *c = load(DIR "cap/bs_4.json");
    CHECK(c != NULL);
    if (!c) return;
    tsql_capture_tree ct;
    CHECK_EQ(tsql_capture_tree_build(c, &ct), 0);
    CHECK_EQ(ct.nroots, 1);
    if (ct.nroots == 1) {
        const tsql_capture_root *r = &ct.roots[0];
        CHECK(r->start == 105.0 && r->end == 500.0);
        /* CaptureRoot, forward (the only window root: its parent frame lies outside),
         * then its subtree by ts: mm, launch, add, helper frame, launch, memcpy */
        CHECK_EQ(r->nevents, 8);
        CHECK_EQ(r->events[0], TSQL_NONE);
        static const char *const want[] = {"model.py(20): forward_bs4", "aten::mm", "hipLaunchKernel", "aten::add",
                                           "torch/ops.py(7): helper", "hipLaunchKernel", "hipMemcpyAsync"};
        for (size_t i = 1; i < r->nevents && i < 8; i++) CHECK_STR(nm(c, r->events[i]), want[i - 1]);
        CHECK_EQ(r->ndispatch, 3);
        CHECK_STR(nm(c, r->dispatch[2]), "hipMemcpyAsync");
        /* with Python frames nested by time: the helper frame is under aten::add, the
         * second launch under the helper */
        CHECK_EQ(ct.parent[r->events[5]], r->events[4]);
        CHECK_EQ(ct.parent[r->events[6]], r->events[5]);
        CHECK_EQ(ct.parent[r->events[1]], 0); /* capture_model, outside the window */
    }
    tsql_capture_tree_free(&ct);
    tsql_trace_free(c);
}

static void test_matched(void)
{
    tsql_trace *t = load(DIR "replay.json");
    CHECK(t != NULL);
    if (!t) return;
    tsql_capture_merge_info info;
    tsql_error err = {0};
    CHECK_EQ(tsql_capture_merge(t, DIR "cap", NULL, &info, &err), 0);
    CHECK_EQ(info.merged, 1);
    CHECK_EQ(info.launches, 1);
    CHECK_EQ(info.spliced, 1);
    CHECK_EQ(info.kernels, 3);
    CHECK_EQ(info.rows, 8);
    CHECK_EQ(t->n, 19);
    CHECK_STR(tsql_capture_merged_folder(t), DIR "cap");
    /* the copies: uids 11.., the graph launch's ts and dur */
    CHECK_STR(nm(t, 11), "CaptureRoot");
    CHECK_EQ(t->parent[11], 2);
    for (uint32_t u = 11; u < 19; u++) {
        CHECK_EQ(t->ts_ns[u], 100000);
        CHECK_EQ(t->dur_ns[u], 20000);
    }
    CHECK_EQ(t->parent[12], 11); /* forward frame */
    CHECK_EQ(t->parent[13], 11); /* aten::mm: its frame is skipped */
    CHECK_EQ(t->parent[14], 13);
    CHECK_EQ(t->parent[16], 15); /* helper frame under aten::add */
    CHECK_EQ(t->parent[17], 15); /* its launch: nearest op */
    CHECK(t->flags[13] & TSQL_F_TL_ROOT);
    CHECK(!(t->flags[14] & TSQL_F_TL_ROOT));
    /* children: the launch has only the CaptureRoot */
    CHECK_EQ(t->child_at[3] - t->child_at[2], 1);
    CHECK_EQ(t->child[t->child_at[2]], 11);
    /* kernels under the capture launch calls, with their correlation */
    uint32_t k = tsql_kernel_row(t, 3);
    CHECK_EQ(t->parent[3], 14);
    CHECK_EQ(t->kernels.runtime[k], 14);
    CHECK_EQ(t->kernels.tl_launcher[k], 13);
    CHECK_EQ(tsql_icol_get(&t->correlation, 3), 101);
    k = tsql_kernel_row(t, 5);
    CHECK_EQ(t->kernels.tl_launcher[k], 18); /* the memcpy call itself: no op above */
    k = tsql_kernel_row(t, 9);
    CHECK_EQ(t->kernels.tl_launcher[k], 6); /* outside the graph: untouched */
    /* args of a copy are the capture event's */
    tsql_buf b = {0};
    CHECK(tsql_trace_args_json(t, 13, &b) > 0);
    CHECK(b.p && strstr(b.p, "\"External id\":11") != NULL);
    free(b.p);
    CHECK_EQ(t->nwarnings, 0);
    tsql_trace_free(t);
}

static void test_not_merged(void)
{
    tsql_capture_merge_info info;
    tsql_error err = {0};
    /* several streams and launches without kernel names: nothing merged */
    tsql_trace *t = load(DIR "replay_streams.json");
    CHECK(t != NULL);
    if (t) {
        CHECK_EQ(tsql_capture_merge(t, DIR "cap_nonames", NULL, &info, &err), 0);
        CHECK_EQ(info.merged, 0);
        CHECK(info.why && strstr(info.why, "several streams"));
        CHECK_EQ(t->n, 6);
        CHECK_EQ(t->parent[3], 2);
        CHECK(tsql_capture_merged_folder(t) == NULL);
        CHECK(has_warning(t, "capture_merge: nothing merged: the replayed kernels run on several streams"));
        tsql_trace_free(t);
    }
    /* one stream: merged by position, with a warning */
    t = load(DIR "replay.json");
    CHECK(t != NULL);
    if (t) {
        CHECK_EQ(tsql_capture_merge(t, DIR "cap_nonames", NULL, &info, &err), 0);
        CHECK_EQ(info.merged, 1);
        CHECK_EQ(t->parent[4], 17);
        CHECK(has_warning(t, "merged unchecked"));
        tsql_trace_free(t);
    }
    /* other kernel names: the launch is skipped, the trace is the replay's */
    t = load(DIR "replay.json");
    CHECK(t != NULL);
    if (t) {
        CHECK_EQ(tsql_capture_merge(t, DIR "cap_nomatch", NULL, &info, &err), 0);
        CHECK_EQ(info.merged, 0);
        CHECK_EQ(t->n, 11);
        CHECK(has_warning(t, "kernel-name counts"));
        tsql_trace_free(t);
    }
    /* several batch sizes: 2 -> 4, 5 -> 8, 12 none, 3 -> 4 (one kernel: greedy) */
    t = load(DIR "replay_steps.json");
    CHECK(t != NULL);
    if (t) {
        CHECK_EQ(tsql_capture_merge(t, DIR "cap_sizes", NULL, &info, &err), 0);
        CHECK_EQ(info.merged, 1);
        CHECK_EQ(info.launches, 4);
        CHECK_EQ(info.spliced, 3);
        CHECK_EQ(info.kernels, 7);
        CHECK_EQ(t->n, 46);
        CHECK_STR(nm(t, 31), "model.py(20): forward_bs8");
        CHECK_EQ(t->parent[30], 8);
        CHECK_EQ(t->parent[15], 14); /* step of 12 tokens: still under its launch */
        CHECK_EQ(t->parent[21], 41);
        CHECK(has_warning(t, "no capture was recorded"));
        tsql_trace_free(t);
    }
    /* a capture file that is not a trace: an error naming it */
    t = load(DIR "replay.json");
    if (t) {
        memset(&err, 0, sizeof err);
        CHECK_EQ(tsql_capture_merge(t, DIR "cap_badtrace", NULL, &info, &err), -1);
        CHECK(strstr(err.msg, "bs_4.json") != NULL);
        CHECK_EQ(t->n, 11);
        tsql_trace_free(t);
    }
}

int main(void)
{
    test_capture_tree();
    test_matched();
    test_not_merged();
    return check_report("test_capture_merge");
}
