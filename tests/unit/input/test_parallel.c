/* test_parallel.c — the parallel parse of plain JSON (core/input/reader_parallel.c) gives
 * exactly the serial result: every column, string id, warning, metadata, tree edge
 * and kernel row, and the same error (code, offset, message) on a bad file. The split
 * is forced with TSQL_TEST_SPLIT at fractions, at offsets snapped to a guessed event
 * boundary, and at arbitrary exact offsets (wrong guesses: inside events, strings,
 * nested args arrays, the metadata), on the demo trace, the test data files and a
 * generated trace made to straddle splits with every kind of cross-event state. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <sys/stat.h>

#include "input/source.h"
#include "load/load.h"
#include "store/store.h"
#include "store/trace.h"
#include "check.h"

#define TMP "build/tmp"

/* Number of differences between two loaded traces (prints the first few). */
static int ndiff;
static void diff(const char *what, long long i)
{
    if (ndiff++ < 5) fprintf(stderr, "  differs: %s at %lld\n", what, i);
}

#define SAME_ARR(a, b, field, n)                                                         \
    do {                                                                                  \
        for (uint32_t i_ = 0; i_ < (n); i_++)                                             \
            if ((a)->field[i_] != (b)->field[i_]) {                                       \
                diff(#field, i_);                                                         \
                break;                                                                    \
            }                                                                             \
    } while (0)
#define SAME(a, b, field)                                                                 \
    do {                                                                                  \
        if ((a)->field != (b)->field) diff(#field, -1);                                   \
    } while (0)

static int compare(tsql_trace *a, tsql_trace *b)
{
    ndiff = 0;
    SAME(a, b, n);
    if (a->n != b->n) return ndiff;
    SAME(a, b, format);
    SAME(a, b, json_bytes);
    SAME(a, b, file_bytes);
    SAME(a, b, bare_array);
    SAME(a, b, old_spelling);
    SAME(a, b, rank);
    SAME(a, b, world_size);
    SAME(a, b, devices);
    SAME(a, b, base_time_ns);
    SAME(a, b, link_key_is_external);
    if (strcmp(a->metadata, b->metadata)) diff("metadata", -1);
    if ((a->gpu_name == NULL) != (b->gpu_name == NULL) ||
        (a->gpu_name && strcmp(a->gpu_name, b->gpu_name)))
        diff("gpu_name", -1);
    /* strings: same ids for the same text */
    SAME(a, b, strings.n);
    for (uint32_t id = 1; id <= a->strings.n && id <= b->strings.n; id++)
        if (a->strings.len[id] != b->strings.len[id] ||
            memcmp(a->strings.str[id], b->strings.str[id], a->strings.len[id])) {
            diff("string", id);
            break;
        }
    SAME_ARR(a, b, ph, a->n);
    SAME_ARR(a, b, kind, a->n);
    SAME_ARR(a, b, flags, a->n);
    SAME_ARR(a, b, cat, a->n);
    SAME_ARR(a, b, name, a->n);
    SAME_ARR(a, b, pid, a->n);
    SAME_ARR(a, b, tid, a->n);
    SAME_ARR(a, b, ts_ns, a->n);
    SAME_ARR(a, b, dur_ns, a->n);
    SAME_ARR(a, b, args, a->n);
    SAME_ARR(a, b, pool_at, a->n);
    const tsql_icol *ca[] = {&a->correlation, &a->external_id, &a->stream, &a->device,
                             &a->seq, &a->python_id, &a->python_parent, &a->flow_id};
    const tsql_icol *cb[] = {&b->correlation, &b->external_id, &b->stream, &b->device,
                             &b->seq, &b->python_id, &b->python_parent, &b->flow_id};
    for (int c = 0; c < 8; c++)
        for (uint32_t i = 0; i < a->n; i++)
            if (tsql_icol_get(ca[c], i) != tsql_icol_get(cb[c], i)) {
                diff("icol", c * 100000000LL + i);
                break;
            }
    SAME(a, b, npool);
    SAME_ARR(a, b, pool, (uint32_t)(a->npool < b->npool ? a->npool : b->npool));
    for (uint32_t i = 0; i < a->n; i++) {
        double x = tsql_trace_ts_us(a, i), y = tsql_trace_ts_us(b, i);
        double u = tsql_trace_dur_us(a, i), v = tsql_trace_dur_us(b, i);
        if (memcmp(&x, &y, sizeof x) || memcmp(&u, &v, sizeof u)) {
            diff("ts/dur double", i);
            break;
        }
    }
    tsql_buf ba = {0}, bb = {0};
    for (uint32_t i = 0; i < a->n; i++) {
        ba.n = bb.n = 0;
        long la = tsql_trace_args_json(a, i, &ba), lb = tsql_trace_args_json(b, i, &bb);
        if (la != lb || (la > 0 && memcmp(ba.p, bb.p, (size_t)la))) {
            diff("args json", i);
            break;
        }
    }
    free(ba.p);
    free(bb.p);
    SAME(a, b, warnings_total);
    SAME(a, b, nwarnings);
    for (uint32_t i = 0; i < a->nwarnings && i < b->nwarnings; i++)
        if (a->warnings[i].offset != b->warnings[i].offset ||
            a->warnings[i].uid != b->warnings[i].uid ||
            strcmp(a->warnings[i].msg, b->warnings[i].msg)) {
            diff("warning", i);
            break;
        }
    SAME_ARR(a, b, parent, a->n);
    SAME_ARR(a, b, depth, a->n);
    SAME_ARR(a, b, edge, a->n);
    SAME_ARR(a, b, child_at, a->n + 1);
    SAME(a, b, kernels.n);
    if (a->kernels.n == b->kernels.n) {
        SAME_ARR(a, b, kernels.uid, a->kernels.n);
        SAME_ARR(a, b, kernels.runtime, a->kernels.n);
        SAME_ARR(a, b, kernels.op, a->kernels.n);
        SAME_ARR(a, b, kernels.root_op, a->kernels.n);
        SAME_ARR(a, b, kernels.tl_runtime, a->kernels.n);
        SAME_ARR(a, b, kernels.tl_launcher, a->kernels.n);
        SAME_ARR(a, b, kernels.link, a->kernels.n);
        SAME_ARR(a, b, kernels.is_comm, a->kernels.n);
    }
    return ndiff;
}

static tsql_trace *load(const char *path, int threads, const char *split, tsql_error *err)
{
    if (split) setenv("TSQL_TEST_SPLIT", split, 1);
    else unsetenv("TSQL_TEST_SPLIT");
    tsql_load_opts o = {.threads = threads};
    memset(err, 0, sizeof *err);
    tsql_trace *t = tsql_trace_load(path, &o, err);
    unsetenv("TSQL_TEST_SPLIT");
    return t;
}

static long file_size(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fclose(f);
    return n;
}

static int pieces_seen; /* loads that really ran in more than one piece */

/* Loads path serially, then with the split spec on 2 and 3 threads: same result. */
static void same_as_serial(const char *path, const char *split)
{
    tsql_error e1, e2;
    tsql_trace *a = load(path, 1, NULL, &e1);
    for (int threads = 2; threads <= 3; threads++) {
        tsql_trace *b = load(path, threads, split, &e2);
        if (!a || !b) {
            CHECK_EQ(!a, !b);
            CHECK_EQ(e2.code, e1.code);
            CHECK_EQ(e2.offset, e1.offset);
            CHECK_STR(e2.msg, e1.msg);
            if (e1.offset != e2.offset || strcmp(e1.msg, e2.msg))
                fprintf(stderr, "  %s split %s: serial \"%s\" @%lld, parallel \"%s\" @%lld\n",
                        path, split, e1.msg, (long long)e1.offset, e2.msg, (long long)e2.offset);
        } else {
            int d = compare(a, b);
            if (d) fprintf(stderr, "  %s split %s threads %d: %d differences\n", path, split,
                           threads, d);
            CHECK_EQ(d, 0);
            CHECK_EQ(a->parse_pieces, 1);
            if (b->parse_pieces > 1) pieces_seen++;
        }
        tsql_trace_free(b);
    }
    tsql_trace_free(a);
}

/* Splits path every way the test knows. */
static void all_splits(const char *path, int every)
{
    long size = file_size(path);
    CHECK(size >= 0);
    if (size <= 0) {
        same_as_serial(path, "0.5");
        return;
    }
    char spec[512];
    same_as_serial(path, "0.5");
    same_as_serial(path, "0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9");
    same_as_serial(path, "0.33,0.66");
    /* snapped guesses from every offset step, several bounds per load */
    for (long at = 1; at < size; at += every) {
        snprintf(spec, sizeof spec, "%ld,%ld,%ld", at, at + every / 3, at + 2 * every / 3);
        same_as_serial(path, spec);
    }
    /* exact offsets: mostly wrong guesses, the piece before runs on */
    unsigned seed = 12345;
    for (int k = 0; k < 20; k++) {
        seed = seed * 1103515245u + 12345u;
        long x = 1 + (long)((seed >> 8) % (unsigned long)size);
        seed = seed * 1103515245u + 12345u;
        long y = 1 + (long)((seed >> 8) % (unsigned long)size);
        snprintf(spec, sizeof spec, "@%ld,@%ld", x < y ? x : y, x < y ? y : x);
        same_as_serial(path, spec);
    }
}

/* Writes the generated trace: events straddling any split with cross-event state. */
static void write_generated(const char *path, int nev, int bad)
{
    FILE *f = fopen(path, "w");
    if (!f) return;
    fprintf(f, "{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0, \"name\": \"GPU A\"}, "
               "{\"id\": 1, \"name\": \"GPU B\"}],\n \"traceEvents\": [\n");
    for (int k = 0; k < nev; k++) {
        int64_t ts = 1000 + 10 * (int64_t)k;
        const char *sep = k + 1 < nev ? "," : "";
        if (bad == 1 && k == nev * 3 / 4) fprintf(f, "  {\"ph\": \"X\",, \"name\": \"oops\"},\n");
        if (bad == 2 && k == nev * 3 / 4) {
            fprintf(f, "  {\"ph\": \"X\", \"name\": \"cut");
            break;
        }
        switch (k % 10) {
        case 0: /* cpu_op with nested args arrays of objects (a false boundary) */
            fprintf(f,
                    "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"op_%d\", \"pid\": 1, "
                    "\"tid\": 1, \"ts\": %lld, \"dur\": 9, \"args\": {\"External id\": %d, "
                    "\"Ev Idx\": %d, \"list\": [{\"id\": 1}, {\"id\": 2},\n {\"name\": \"x\"}], "
                    "\"Input Dims\": [[1, 2], [3]]}}%s\n",
                    k % 7, (long long)ts, k, k, sep);
            break;
        case 1: /* runtime launch with a huge correlation (icol overflow) */
            fprintf(f,
                    "  {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", "
                    "\"pid\": 1, \"tid\": 1, \"ts\": %lld, \"dur\": 2, \"args\": {\"External id\": "
                    "%d, \"correlation\": %lld}}%s\n",
                    (long long)ts + 1, k - 1, (k % 20 == 1 ? 5000000000LL : 0) + k, sep);
            break;
        case 2: /* its kernel, an ac2g flow pair, old spellings now and then */
            fprintf(f,
                    "  {\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"kern_%d\", \"pid\": 0, "
                    "\"tid\": \"stream 7\", \"ts\": %lld, \"dur\": 3, \"args\": {\"correlation\": "
                    "%lld, \"stream\": 7, \"device\": 0}}%s\n",
                    k % 30 == 2 ? "Kernel" : "kernel", k % 5, (long long)ts + 5,
                    (k % 20 == 2 ? 5000000000LL : 0) + k - 1, sep);
            break;
        case 3:
            fprintf(f,
                    "  {\"ph\": \"s\", \"id\": %lld, \"pid\": 1, \"tid\": 1, \"ts\": %lld, "
                    "\"cat\": \"ac2g\", \"name\": \"ac2g\"},\n"
                    "  {\"ph\": \"f\", \"id\": %lld, \"pid\": 0, \"tid\": \"stream 7\", \"ts\": "
                    "%lld, \"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"}%s\n",
                    (k % 20 == 3 ? 5000000000LL : 0) + k - 2, (long long)ts - 20,
                    (k % 20 == 3 ? 5000000000LL : 0) + k - 2, (long long)ts - 15, sep);
            break;
        case 4: /* B/E pairs that may straddle the split; escapes; a late new name */
            fprintf(f,
                    "  {\"ph\": \"B\", \"cat\": \"user_annotation\", \"name\": \"sp\\\"an\\u00e9 "
                    "%d\", \"pid\": 1, \"tid\": 2, \"ts\": %lld},\n"
                    "  {\"ph\": \"i\", \"name\": \"late_%d\", \"pid\": 1, \"tid\": 2, \"ts\": "
                    "%lld, \"s\": \"t\"},\n"
                    "  {\"ph\": \"E\", \"pid\": 1, \"tid\": 2, \"ts\": %lld}%s\n",
                    k % 3, (long long)ts, k / 40, (long long)ts + 1, (long long)ts + 4, sep);
            break;
        case 5: /* sub-ns fractions (exact doubles), a string ts, a bad ph (warnings) */
            fprintf(f,
                    "  {\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"py_%d\", "
                    "\"pid\": 1, \"tid\": 1, \"ts\": %lld.0004, \"dur\": \"1.5\", \"args\": "
                    "{\"Python id\": %d, \"Python parent id\": %d}},\n"
                    "  {\"ph\": \"XX\", \"name\": 7, \"pid\": 1, \"tid\": 3, \"ts\": 1e3, "
                    "\"args\": [1]}%s\n",
                    k % 4, (long long)ts, k, k - 10, sep);
            break;
        case 6: /* counters and metadata events, other keys first */
            fprintf(f,
                    "  {\"name\": \"mem\", \"ph\": \"C\", \"ts\": %lld, \"pid\": 1, \"args\": "
                    "{\"Total Allocated\": %d, \"Addr\": %d}},\n"
                    "  {\"args\": {\"name\": \"thread %d\"}, \"ph\": \"M\", \"name\": "
                    "\"thread_name\", \"pid\": 1, \"tid\": %d}%s\n",
                    (long long)ts, k * 1000, k * 7, k % 3, k % 3, sep);
            break;
        case 7: /* gpu memcpy by correlation only, negative and huge ids */
            fprintf(f,
                    "  {\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy HtoD\", "
                    "\"pid\": 0, \"tid\": 8, \"ts\": %lld, \"dur\": 1, \"args\": {\"correlation\": "
                    "%d, \"Sequence number\": -%d, \"Record function id\": 9007199254740993}}%s\n",
                    (long long)ts, k - 6, k, sep);
            break;
        default: /* async b/e and whitespace of all kinds */
            fprintf(f,
                    "\t{ \"ph\" : \"b\" , \"id\" : \"0x%x\" , \"cat\" : \"async\" , \"name\" : "
                    "\"a\" , \"pid\" : 1 , \"tid\" : 1 , \"ts\" : %lld } ,\r\n"
                    "  {\"ph\": \"e\", \"id\": \"0x%x\", \"cat\": \"async\", \"name\": \"a\", "
                    "\"pid\": 1, \"tid\": 1, \"ts\": %lld}%s\n",
                    k, (long long)ts, k, (long long)ts + 3, sep);
        }
    }
    if (bad != 2) fprintf(f, " ],\n \"traceName\": \"gen\", \"distributedInfo\": {\"rank\": 1, "
                             "\"world_size\": 2}, \"list\": [{\"id\": 1}, {\"id\": 2}]}\n");
    fclose(f);
}

/* Decompresses a .gz into a plain file. Returns 0 or -1. */
static int gunzip(const char *from, const char *to)
{
    gzFile g = gzopen(from, "rb");
    FILE *f = fopen(to, "wb");
    if (!g || !f) {
        if (g) gzclose(g);
        if (f) fclose(f);
        return -1;
    }
    char buf[65536];
    int n;
    while ((n = gzread(g, buf, sizeof buf)) > 0) fwrite(buf, 1, (size_t)n, f);
    gzclose(g);
    fclose(f);
    return n < 0 ? -1 : 0;
}

static int stop_at_call(void *ctx, int64_t bytes, int64_t events)
{
    (void)bytes;
    (void)events;
    int *calls = ctx;
    return ++*calls >= 1; /* the first call: the caller's thread always makes one */
}

/* An interrupt from the progress callback (on the caller's thread) stops every piece:
 * the load fails with TSQL_EINTR and frees everything (ASan checks the leaks). */
static void interrupted(const char *path)
{
    for (int k = 0; k < 10; k++) {
        int calls = 0;
        setenv("TSQL_TEST_SPLIT", "0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9", 1);
        tsql_load_opts o = {.threads = 2, .progress = stop_at_call, .progress_ctx = &calls};
        tsql_error err = {0};
        tsql_trace *t = tsql_trace_load(path, &o, &err);
        unsetenv("TSQL_TEST_SPLIT");
        CHECK(t == NULL);
        CHECK_EQ(err.code, TSQL_EINTR);
        tsql_trace_free(t);
    }
}

/* A piece opens the file again: if it is no longer the file the load started on
 * (replaced by a rename, rewritten), it refuses to read it. */
static void file_identity(const char *a, const char *b)
{
    struct stat st;
    CHECK_EQ(stat(a, &st), 0);
    tsql_error err = {0};
    tsql_source *s = tsql_source_open_range(a, 0, &st, &err);
    CHECK(s != NULL);
    tsql_source_close(s);
    s = tsql_source_open_range(b, 0, &st, &err);
    CHECK(s == NULL);
    CHECK_EQ(err.code, TSQL_EIO);
    CHECK_HAS(err.msg, "changed while it was being loaded");
    tsql_source_close(s);
}

int main(void)
{
    char path[256];
    if (system("mkdir -p " TMP) != 0) return 1;

    /* the demo trace: a realistic Kineto file */
    snprintf(path, sizeof path, TMP "/parallel_demo.json");
    CHECK_EQ(gunzip("examples/demo_trace.json.gz", path), 0);
    all_splits(path, 40000);
    interrupted(path);

    /* the generated trace, good and bad */
    snprintf(path, sizeof path, TMP "/parallel_gen.json");
    write_generated(path, 600, 0);
    all_splits(path, 2000);
    snprintf(path, sizeof path, TMP "/parallel_gen_syntax.json");
    write_generated(path, 600, 1);
    all_splits(path, 9000);
    snprintf(path, sizeof path, TMP "/parallel_gen_truncated.json");
    write_generated(path, 600, 2);
    all_splits(path, 9000);

    file_identity(TMP "/parallel_gen.json", TMP "/parallel_gen_syntax.json");

    /* the SQL tests' plain files (bare array, metadata only, bad files) */
    const char *data[] = {"tree_rules.json", "old_bare_array.json", "metadata_only.json",
                          "bad_syntax.json", "bad_truncated.json", "bad_not_trace.json",
                          "bad_empty.json"};
    for (size_t i = 0; i < sizeof data / sizeof *data; i++) {
        snprintf(path, sizeof path, "tests/data/%s", data[i]);
        all_splits(path, 97);
    }
    /* the split really happened in most loads (a guess may be refused) */
    CHECK(pieces_seen > 250);
    printf("test_parallel: %d loads ran in pieces\n", pieces_seen);
    return check_report("test_parallel");
}
