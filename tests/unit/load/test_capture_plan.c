/*
 * test_capture_plan.c — the first steps of the graph-capture merge: classification of
 * capture traces, engine steps and their graph launches in a replay trace, and the
 * choice of a capture per step; on hand-made traces and, when ../shared is beside the
 * checkout, on the vLLM / SGLang conformance traces.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "load/capture_plan.h"
#include "load/load.h"

static tsql_trace *load_text(const char *json)
{
    char path[] = "/tmp/tsql_capture_planXXXXXX.json";
    int fd = mkstemps(path, 5);
    if (fd < 0) return NULL;
    FILE *f = fdopen(fd, "w");
    fputs(json, f);
    fclose(f);
    tsql_error err;
    tsql_trace *t = tsql_trace_load(path, NULL, &err);
    if (!t) fprintf(stderr, "load: %s\n", err.msg);
    unlink(path);
    return t;
}

#define EV(cat, name, ts, dur, args) \
    "{\"ph\": \"X\", \"cat\": \"" cat "\", \"name\": \"" name "\", \"pid\": 1, \"tid\": 1, \"ts\": " #ts \
    ", \"dur\": " #dur ", \"args\": " args "}"

static void test_classify(void)
{
    tsql_capture_class c;
    /* two capture annotations, two dummy runs: the first annotation by ts */
    tsql_trace *t = load_text("{\"traceEvents\": ["
        EV("user_annotation", "capture_16_DECODE", 50, 10, "{}") ","
        EV("user_annotation", "capture_8_FULL", 10, 10, "{}") ","
        EV("python_function", "vllm/v1/worker/gpu_model_runner.py(3001): _dummy_run", 9, 20, "{}") ","
        EV("python_function", "vllm/v1/worker/gpu_model_runner.py(3001): _dummy_run", 49, 20, "{}")
        "]}");
    CHECK(t && tsql_capture_classify(t, &c) == 0);
    CHECK(c.from_annotation);
    CHECK_EQ(c.batch_size, 8);
    CHECK_STR(c.mode, "FULL");
    tsql_trace_free(t);
    /* annotation count differs from dummy runs: capture calls and input sizes decide;
     * 4 and 8 both twice: the first seen (8) wins */
    t = load_text("{\"traceEvents\": ["
        EV("user_annotation", "capture_16_FULL", 50, 10, "{}") ","
        EV("cuda_runtime", "hipStreamBeginCapture", 1, 1, "{}") ","
        EV("cuda_runtime", "hipStreamBeginCapture", 5, 1, "{}") ","
        EV("cpu_op", "aten::mm", 10, 5, "{\"Input Dims\": [[8, 16], [16, 4]]}") ","
        EV("cpu_op", "aten::add", 20, 5, "{\"Input Dims\": [[4], [], [[1, 2]], [4, 2]]}") ","
        EV("cpu_op", "aten::relu", 30, 5, "{\"Input Dims\": [[8]]}")
        "]}");
    CHECK(t && tsql_capture_classify(t, &c) == 0);
    CHECK(!c.from_annotation);
    CHECK_STR(c.mode, "PIECEWISE");
    CHECK(c.has_batch);
    CHECK_EQ(c.batch_size, 8);
    tsql_trace_free(t);
    /* nothing to go by */
    t = load_text("{\"traceEvents\": [" EV("cpu_op", "aten::empty", 1, 1, "{}") "]}");
    CHECK(t && tsql_capture_classify(t, &c) == 0);
    CHECK(!c.has_batch);
    CHECK_STR(c.mode, "FULL");
    tsql_trace_free(t);
}

static void test_exec_roots(void)
{
    /* two detailed vLLM steps (the native one is ignored), graph launches inside,
     * overhanging and outside */
    tsql_trace *t = load_text("{\"traceEvents\": ["
        EV("user_annotation", "execute_4_context_0(sq0sk0sqsq0sqsk0)_generation_4(sq4sk40sqsq4sqsk40)", 1000, 100, "{}") ","
        EV("user_annotation", "execute_context_1(7)_generation_2(2)", 0, 5000, "{}") ","
        EV("user_annotation", "execute_9_context_1(sq5sk5sqsq25sqsk25)_generation_4(sq4sk40sqsq4sqsk40)", 100, 100, "{}") ","
        EV("cuda_runtime", "hipGraphLaunch", 110, 10, "{}") ","
        EV("cuda_runtime", "hipGraphLaunch", 130, 10, "{}") ","
        EV("cuda_runtime", "cudaGraphLaunch", 1095, 10, "{}") ","
        EV("cuda_runtime", "hipGraphLaunch", 3000, 10, "{}")
        "]}");
    tsql_exec_root *r;
    size_t n;
    CHECK(t && tsql_exec_roots(t, &r, &n) == 0);
    CHECK_EQ(n, 2);
    if (n == 2) {
        CHECK_EQ(r[0].batch_size, 9); /* c_sq + g_sq = 5 + 4 */
        CHECK_EQ(r[0].ngraphs, 2);
        CHECK_EQ(r[1].batch_size, 4);
        CHECK_EQ(r[1].ngraphs, 0); /* the launch overhangs the step's end */
    }
    tsql_exec_roots_free(r, n);
    tsql_trace_free(t);
    /* only native steps: they are the roots; sglang native decode takes bs */
    t = load_text("{\"traceEvents\": ["
        EV("user_annotation", "step[DECODE bs=12 toks=12]", 0, 100, "{}") ","
        EV("user_annotation", "ProfilerStep#0", 0, 100, "{}") ","
        EV("cuda_runtime", "hipGraphLaunch", 10, 10, "{}")
        "]}");
    CHECK(t && tsql_exec_roots(t, &r, &n) == 0);
    CHECK_EQ(n, 1);
    if (n == 1) {
        CHECK_EQ(r[0].batch_size, 12);
        CHECK_EQ(r[0].ngraphs, 1);
    }
    tsql_exec_roots_free(r, n);
    tsql_trace_free(t);
}

static void test_select(void)
{
    const tsql_capture_entry e[] = {
        {8, "FULL", 1}, {16, "FULL", 1}, {16, "PIECEWISE", 1}, {32, "FULL", 0}, {64, "DECODE", 1},
    };
    const char *why;
    CHECK_EQ(tsql_capture_select(e, 5, 10, 1, &why), 1); /* rounds up to 16; one launch: FULL */
    CHECK_EQ(tsql_capture_select(e, 5, 10, 3, &why), 2); /* several launches: PIECEWISE */
    CHECK_EQ(tsql_capture_select(e, 5, 8, 1, &why), 0);
    CHECK_EQ(tsql_capture_select(e, 5, 20, 1, &why), -1); /* 32's file is missing */
    CHECK_HAS(why, "missing");
    CHECK_EQ(tsql_capture_select(e, 5, 40, 1, &why), -1); /* 64 is not FULL/PIECEWISE */
    CHECK_HAS(why, "no capture");
    CHECK_EQ(tsql_capture_select(e, 5, 8, 0, &why), -1);
    CHECK_HAS(why, "no graph launch");
}

#define K(name, ts, stream) \
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"" name "\", \"pid\": 0, \"tid\": " #stream \
    ", \"ts\": " #ts ", \"dur\": 1, \"args\": {\"correlation\": 5, \"stream\": " #stream "}}"

/* a replay trace: one graph launch, replayed kernels a b a (stream 3) or on two streams */
static tsql_trace *replay(int two_streams)
{
    if (two_streams)
        return load_text("{\"traceEvents\": ["
            EV("cuda_runtime", "hipGraphLaunch", 10, 5, "{\"correlation\": 5}") ","
            K("ka", 100, 3) "," K("kb", 101, 4) "," K("ka", 102, 3) "]}");
    return load_text("{\"traceEvents\": ["
        EV("cuda_runtime", "hipGraphLaunch", 10, 5, "{\"correlation\": 5}") ","
        K("ka", 100, 3) "," K("kb", 101, 3) "," K("ka", 102, 3) "]}");
}

/* a capture trace: an op around the window, launches inside it */
static tsql_trace *capture(const char *launches)
{
    char *buf = malloc(8192);
    snprintf(buf, 8192, "{\"traceEvents\": ["
        EV("python_function", "model.py(1): forward", 0, 1000, "{}") ","
        EV("cuda_runtime", "hipStreamBeginCapture", 5, 5, "{}") ","
        EV("cpu_op", "aten::mm", 20, 100, "{}") ","
        "%s,"
        EV("cuda_runtime", "hipStreamEndCapture", 500, 5, "{}") "]}", launches);
    tsql_trace *t = load_text(buf);
    free(buf);
    return t;
}

#define L(name, ts, kernel) \
    "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"" name "\", \"pid\": 1, \"tid\": 1, \"ts\": " #ts \
    ", \"dur\": 2, \"args\": {\"correlation\": " #ts kernel "}}"
#define KN(k) ", \"kernel\": \"" k "\""

/* aligns the capture's first window with the replay's launch (uid 0) */
static tsql_capture_pairs align(tsql_trace *r, tsql_trace *c)
{
    tsql_capture_pairs p = {0};
    tsql_capture_window *w = NULL;
    size_t nw = 0, ng = 0;
    tsql_graph_kernels gk;
    if (tsql_graph_kernels_build(r, &gk)) return p;
    const uint32_t *g = tsql_graph_kernels_of(&gk, 0, &ng);
    if (tsql_capture_windows(c, &w, &nw) || !nw || tsql_capture_align(r, g, ng, c, w[0].dispatch, w[0].ndispatch, &p))
        p.code = -1;
    tsql_graph_kernels_free(&gk);
    tsql_capture_windows_free(w, nw);
    return p;
}

static void test_align(void)
{
    tsql_trace *r = replay(0), *r2 = replay(1);
    /* same order, same names: positional */
    tsql_trace *c = capture(L("hipLaunchKernel", 30, KN("ka")) "," L("hipLaunchKernel", 40, KN("kb")) ","
                            L("hipLaunchKernel", 50, KN("ka")));
    tsql_capture_window *w;
    size_t nw;
    CHECK(c && tsql_capture_windows(c, &w, &nw) == 0);
    CHECK_EQ(nw, 1);
    if (nw) {
        CHECK_EQ(w[0].nroots, 1); /* aten::mm: its parent, the Python frame, is outside */
        CHECK_EQ(w[0].ndispatch, 3);
    }
    tsql_capture_windows_free(w, nw);
    tsql_capture_pairs p = align(r, c);
    CHECK_EQ(p.code, 1);
    CHECK_EQ(p.n, 3);
    if (p.n == 3) CHECK_EQ(p.dispatch[1], 4); /* kb's launch */
    tsql_capture_pairs_free(&p);
    tsql_trace_free(c);
    /* same names, another order: reordered by name */
    c = capture(L("hipLaunchKernel", 30, KN("kb")) "," L("hipLaunchKernel", 40, KN("ka")) ","
                L("hipLaunchKernel", 50, KN("ka")));
    p = align(r, c);
    CHECK_EQ(p.code, 3);
    if (p.n == 3) CHECK_EQ(p.kernel[0], 2); /* kb */
    tsql_capture_pairs_free(&p);
    tsql_trace_free(c);
    /* one launch more: greedy by name */
    c = capture(L("hipLaunchKernel", 30, KN("ka")) "," L("hipLaunchKernel", 35, KN("kz")) ","
                L("hipLaunchKernel", 40, KN("kb")) "," L("hipLaunchKernel", 50, KN("ka")));
    p = align(r, c);
    CHECK_EQ(p.code, 2);
    if (p.n == 3) CHECK_EQ(p.dispatch[1], 5);
    tsql_capture_pairs_free(&p);
    tsql_trace_free(c);
    /* one launch more, kernel names missing: cannot be verified, the launch stays unmerged */
    c = capture(L("hipLaunchKernel", 30, "") "," L("hipLaunchKernel", 35, "") "," L("hipLaunchKernel", 40, "") ","
                L("hipLaunchKernel", 50, ""));
    p = align(r, c);
    CHECK_EQ(p.code, 0);
    CHECK(!p.fails_merge);
    CHECK_HAS(p.why, "different number");
    tsql_capture_pairs_free(&p);
    tsql_trace_free(c);
    /* names missing but the counts agree: accepted unchecked */
    c = capture(L("hipLaunchKernel", 30, "") "," L("hipLaunchKernel", 40, "") "," L("hipLaunchKernel", 50, ""));
    p = align(r, c);
    CHECK_EQ(p.code, 1);
    tsql_capture_pairs_free(&p);
    /* several streams and names missing: the whole merge fails */
    p = align(r2, c);
    CHECK_EQ(p.code, 0);
    CHECK(p.fails_merge);
    CHECK_HAS(p.why, "several streams");
    tsql_capture_pairs_free(&p);
    tsql_trace_free(c);
    /* several streams with names: per-stream queues */
    c = capture(L("hipLaunchKernel", 30, KN("ka")) "," L("hipLaunchKernel", 40, KN("ka")) ","
                L("hipLaunchKernel", 50, KN("kb")));
    p = align(r2, c);
    CHECK_EQ(p.code, 4);
    CHECK_EQ(p.n, 3);
    if (p.n == 3) {
        CHECK_EQ(p.kernel[1], 2);   /* kb (stream 4) ... */
        CHECK_EQ(p.dispatch[1], 5); /* ... with the third launch */
    }
    tsql_capture_pairs_free(&p);
    tsql_trace_free(c);
    /* a capture that matches nothing */
    c = capture(L("hipLaunchKernel", 30, KN("x")) "," L("hipLaunchKernel", 40, KN("y")) ","
                L("hipLaunchKernel", 50, KN("z")));
    p = align(r, c);
    CHECK_EQ(p.code, 0);
    CHECK_HAS(p.why, "kernel-name counts");
    tsql_capture_pairs_free(&p);
    tsql_trace_free(c);
    tsql_trace_free(r);
    tsql_trace_free(r2);
}

static void test_conformance(void)
{
    static const struct { const char *replay, *capture; uint32_t graph; size_t nkernels; } cases[] = {
        {"../shared/conformance/tracelens/inference/sglang_decode/sglang_Qwen3-8B_decode.json.gz",
         "../shared/conformance/tracelens/inference/sglang_decode/capture_traces/bs_32_rank0.json.gz", 907, 544},
        {"../shared/conformance/tracelens/inference/vllm_decode_full/graph_execution.json.gz",
         "../shared/conformance/tracelens/inference/vllm_decode_full/capture_traces/"
         "graph_capture_rank_0.1773709742341309550.pt.trace.json.gz", 1097, 421},
    };
    for (size_t i = 0; i < 2; i++) {
        if (access(cases[i].replay, R_OK) || access(cases[i].capture, R_OK)) {
            printf("SKIP test_capture_plan conformance: %s is absent\n", cases[i].replay);
            continue;
        }
        tsql_error err;
        tsql_trace *c = tsql_trace_load(cases[i].capture, NULL, &err);
        tsql_capture_class cc;
        CHECK(c && tsql_capture_classify(c, &cc) == 0);
        CHECK_EQ(cc.batch_size, 32);
        CHECK_STR(cc.mode, "FULL");
        tsql_trace *t = tsql_trace_load(cases[i].replay, NULL, &err);
        /* one capture window, its launches aligned with the replayed kernels one to one */
        tsql_capture_window *w = NULL;
        size_t nw = 0, ng = 0;
        tsql_graph_kernels gk;
        CHECK(tsql_capture_windows(c, &w, &nw) == 0);
        CHECK_EQ(nw, 1);
        CHECK(tsql_graph_kernels_build(t, &gk) == 0);
        const uint32_t *g = tsql_graph_kernels_of(&gk, cases[i].graph, &ng);
        CHECK_EQ(ng, cases[i].nkernels);
        if (nw) {
            CHECK_EQ(w[0].ndispatch, cases[i].nkernels);
            tsql_capture_pairs p;
            CHECK(tsql_capture_align(t, g, ng, c, w[0].dispatch, w[0].ndispatch, &p) == 0);
            CHECK_EQ(p.code, 1);
            CHECK_EQ(p.n, cases[i].nkernels);
            tsql_capture_pairs_free(&p);
        }
        tsql_graph_kernels_free(&gk);
        tsql_capture_windows_free(w, nw);
        tsql_trace_free(c);
        tsql_exec_root *r;
        size_t n;
        CHECK(t && tsql_exec_roots(t, &r, &n) == 0);
        CHECK_EQ(n, 1);
        if (n == 1) {
            CHECK_EQ(r[0].batch_size, 32);
            CHECK_EQ(r[0].ngraphs, 1);
            CHECK_EQ(r[0].ngraphs ? r[0].graphs[0] : 0, cases[i].graph);
        }
        tsql_exec_roots_free(r, n);
        tsql_trace_free(t);
    }
}

int main(void)
{
    test_classify();
    test_exec_roots();
    test_select();
    test_align();
    test_conformance();
    return check_report("test_capture_plan");
}
