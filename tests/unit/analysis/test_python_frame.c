/* test_python_frame.c — core/analysis/python_frame.c: the innermost Python frame at a
 * time, on the hand-made tests/data/compare/modules.json (frames with known spans), then
 * against a brute-force scan on a generated trace of 20 000 frames on three threads
 * (nested calls, overlapping siblings, equal starts, frames without a duration), so that
 * the block and superblock skips are exercised. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/python_frame.h"
#include "check.h"
#include "load/load.h"

static void test_modules(void)
{
    tsql_error err = {0};
    tsql_trace *t = tsql_trace_load("tests/data/compare/modules.json", NULL, &err);
    CHECK(t != NULL);
    if (!t) return;
    const tsql_pyframes *f = tsql_pyframes_get(t);
    CHECK(f != NULL);
    /* uids: 5 annotations first, then Net_0 5 [5, 995], Block_0 6 [10, 300], Block_1 7
     * [300, 600], Head_0 8 [600, 700], Linear_0 9 [50, 60], Linear_1 10 [60, 70], Net_0 11
     * [1005, 1995], Block_0 12 [1010, 1400], Block_1 13 [1400, 1800]; all on pid 1 tid 1 */
    CHECK_EQ(tsql_pyframe_at(f, t, 5, 55), 9);
    CHECK_EQ(tsql_pyframe_at(f, t, 5, 60), 10);   /* both Linears hold 60: the later one */
    CHECK_EQ(tsql_pyframe_at(f, t, 5, 70), 10);   /* the end is included */
    CHECK_EQ(tsql_pyframe_at(f, t, 5, 71), 6);    /* back in Block_0 */
    CHECK_EQ(tsql_pyframe_at(f, t, 5, 300), 7);
    CHECK_EQ(tsql_pyframe_at(f, t, 5, 650), 8);
    CHECK_EQ(tsql_pyframe_at(f, t, 5, 800), 5);
    CHECK_EQ(tsql_pyframe_at(f, t, 5, 1850), 11);
    CHECK_EQ(tsql_pyframe_at(f, t, 5, 999), TSQL_NONE);
    CHECK_EQ(tsql_pyframe_at(f, t, 5, 2), TSQL_NONE);
    CHECK_EQ(tsql_pyframe_at(f, t, 5, NAN), TSQL_NONE);
    CHECK_EQ(tsql_pyframe_at(f, t, 25, 55), TSQL_NONE); /* uid 25: k5's launch, on tid 2 */
    CHECK(tsql_pyframes_get(t) == f);                    /* built once */
    tsql_trace_free(t);
}

static uint64_t rng = 12345;
static uint32_t next_rand(uint32_t n)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((rng >> 33) % n);
}

typedef struct {
    int tid;
    long ts, dur; /* dur < 0: none */
} frame;

/* children of [ts, ts + dur) on tid, down to depth levels */
static void gen(frame *v, int *n, int cap, int tid, long ts, long dur, int depth)
{
    long t = ts + 1;
    while (*n < cap && depth > 0 && t < ts + dur - 2) {
        long d = 1 + (long)next_rand((uint32_t)(ts + dur - t));
        int k = (*n)++;
        v[k].tid = tid;
        v[k].ts = t;
        v[k].dur = next_rand(50) == 0 ? -1 : d;
        gen(v, n, cap, tid, t, d, depth - 1);
        /* siblings usually follow; sometimes start at the same time or overlap */
        int r = (int)next_rand(10);
        t += r == 0 ? 0 : r == 1 ? d / 2 + 1 : d + (long)next_rand(5);
    }
}

static void test_generated(void)
{
    enum { CAP = 20000 };
    frame *v = calloc(CAP, sizeof *v);
    CHECK(v != NULL);
    if (!v) return;
    int n = 0;
    for (int tid = 1; tid <= 3; tid++) gen(v, &n, tid * CAP / 3, tid, 0, 1000000, 7);
    const char *path = "build/tmp/test_python_frame.json";
    mkdir("build", 0777);
    mkdir("build/tmp", 0777);
    FILE *out = fopen(path, "w");
    CHECK(out != NULL);
    if (!out) {
        free(v);
        return;
    }
    fprintf(out, "{\"traceEvents\": [\n");
    for (int i = 0; i < n; i++) {
        fprintf(out, "%s{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"f%d\", \"pid\": 1, \"tid\": %d, "
                     "\"ts\": %ld",
                i ? ",\n" : "", i, v[i].tid, v[i].ts);
        if (v[i].dur >= 0) fprintf(out, ", \"dur\": %ld", v[i].dur);
        fprintf(out, "}");
    }
    fprintf(out, "\n]}\n");
    fclose(out);
    tsql_error err = {0};
    tsql_trace *t = tsql_trace_load(path, NULL, &err);
    CHECK(t != NULL);
    if (!t) {
        free(v);
        return;
    }
    CHECK_EQ(t->n, (uint32_t)n);
    const tsql_pyframes *f = tsql_pyframes_get(t);
    CHECK(f != NULL);
    int mismatches = 0, found = 0;
    for (int q = 0; q < 3000 && f; q++) {
        int tid = 1 + (int)next_rand(3);
        double time = (double)next_rand(1000010) + (next_rand(2) ? 0.5 : 0.0);
        /* brute force: the latest (ts, uid) frame on tid with ts <= time <= ts + dur */
        uint32_t want = TSQL_NONE;
        for (int i = 0; i < n; i++) {
            if (v[i].tid != tid || v[i].dur < 0 || v[i].ts > time || v[i].ts + v[i].dur < time) continue;
            if (want == TSQL_NONE || v[i].ts > v[want].ts || (v[i].ts == v[want].ts && (uint32_t)i > want))
                want = (uint32_t)i;
        }
        /* the thread key of any frame on tid */
        uint32_t any = 0;
        while ((int)any < n && v[any].tid != tid) any++;
        uint32_t got = tsql_pyframe_at(f, t, any, time);
        if (got != want) mismatches++;
        if (want != TSQL_NONE) found++;
    }
    CHECK_EQ(mismatches, 0);
    CHECK(found > 1000); /* most probes land in a frame */
    tsql_trace_free(t);
    remove(path);
    free(v);
}

int main(void)
{
    test_modules();
    test_generated();
    return check_report("test_python_frame");
}
