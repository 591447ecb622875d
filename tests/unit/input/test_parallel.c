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
#include "input/gen_trace.h"
#include "input/trace_compare.h"

#define TMP "build/tmp"

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
            int d = compare(a, b, 1);
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
