/* test_stream.c — the pipelined load of compressed traces (core/input/reader_stream.c)
 * gives exactly the serial result: every column, string id, warning, metadata, tree
 * edge and kernel row, and the same error (code, offset, message, compressed flag) on a
 * bad, truncated or corrupt file, whatever the threads' timing. The ring's shape is
 * forced small with TSQL_TEST_STREAM so that small files run in many pieces, with
 * chunk ends anywhere (inside events, strings, numbers, escapes) and rings of 2 to 8
 * chunks. It also loads each trace plain and compressed and compares the tables. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "check.h"
#include "input/gen_trace.h"
#include "input/trace_compare.h"
#include "load/load.h"
#include "store/trace.h"

/* each run its own folder: the ASan, zlib and normal builds may run at once */
static char tmpdir[64];

/* tmpdir/name, in one of 4 rotating buffers. */
static const char *tp(const char *name)
{
    static char buf[4][256];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
    return buf[k];
}

static tsql_trace *load(const char *path, int threads, const char *stream, const char *split,
                        tsql_error *err)
{
    if (stream) setenv("TSQL_TEST_STREAM", stream, 1);
    else unsetenv("TSQL_TEST_STREAM");
    if (split) setenv("TSQL_TEST_SPLIT", split, 1);
    else unsetenv("TSQL_TEST_SPLIT");
    tsql_load_opts o = {.threads = threads};
    memset(err, 0, sizeof *err);
    tsql_trace *t = tsql_trace_load(path, &o, err);
    unsetenv("TSQL_TEST_STREAM");
    unsetenv("TSQL_TEST_SPLIT");
    return t;
}

static int pieces_seen; /* loads that really ran in more than one piece */
static int loads;       /* pipelined loads that succeeded */

/* Loads path serially, then pipelined with the ring shape on 2 and 3 threads, rounds
 * times: same result or same error. */
static void same_as_serial(const char *path, const char *shape, int rounds)
{
    tsql_error e1, e2;
    tsql_trace *a = load(path, 1, NULL, NULL, &e1);
    for (int round = 0; round < rounds; round++)
        for (int threads = 2; threads <= 3; threads++) {
            tsql_trace *b = load(path, threads, shape, NULL, &e2);
            if (b) loads++;
            if (!a || !b) {
                CHECK_EQ(!a, !b);
                CHECK_EQ(e2.code, e1.code);
                CHECK_EQ(e2.offset, e1.offset);
                CHECK_EQ(e2.compressed, e1.compressed);
                CHECK_STR(e2.msg, e1.msg);
                if (e1.offset != e2.offset || strcmp(e1.msg, e2.msg))
                    fprintf(stderr, "  %s ring %s: serial \"%s\" @%lld, pipelined \"%s\" @%lld\n",
                            path, shape, e1.msg, (long long)e1.offset, e2.msg, (long long)e2.offset);
            } else {
                int d = compare(a, b, 1);
                if (d) fprintf(stderr, "  %s ring %s threads %d: %d differences\n", path, shape,
                               threads, d);
                CHECK_EQ(d, 0);
                CHECK_EQ(a->parse_pieces, 1);
                if (b->parse_pieces > 1) pieces_seen++;
            }
            tsql_trace_free(b);
        }
    tsql_trace_free(a);
}

/* Every ring shape the test knows, on path. */
static void all_shapes(const char *path, const char *const *shapes, int nshapes, int rounds)
{
    for (int i = 0; i < nshapes; i++) same_as_serial(path, shapes[i], rounds);
}

/* gzip-compresses the file from into to, in members members cut at even offsets
 * (several members: concatenated gzip streams, as `cat a.gz b.gz` makes). 0 or -1. */
static int gzip_file(const char *from, const char *to, int members)
{
    FILE *f = fopen(from, "rb");
    if (!f) return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc(n > 0 ? (size_t)n : 1);
    size_t got = buf ? fread(buf, 1, (size_t)n, f) : 0;
    fclose(f);
    if (!buf || (long)got != n) {
        free(buf);
        return -1;
    }
    remove(to);
    int rc = 0;
    for (int m = 0; m < members && rc == 0; m++) {
        long from_at = n * m / members, to_at = n * (m + 1) / members;
        gzFile g = gzopen(to, "ab6");
        if (!g) rc = -1;
        else {
            if (to_at > from_at && gzwrite(g, buf + from_at, (unsigned)(to_at - from_at)) <= 0) rc = -1;
            gzclose(g);
        }
    }
    free(buf);
    return rc;
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

/* Copies the first n bytes of from into to, with byte at (if >= 0) flipped. 0 or -1. */
static int damage(const char *from, const char *to, long n, long at)
{
    FILE *f = fopen(from, "rb"), *o = fopen(to, "wb");
    if (!f || !o) {
        if (f) fclose(f);
        if (o) fclose(o);
        return -1;
    }
    int c;
    for (long i = 0; (c = fgetc(f)) != EOF && i < n; i++) fputc(i == at ? c ^ 0x55 : c, o);
    fclose(f);
    fclose(o);
    return 0;
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

/* The same trace plain (pieces of the plain parallel parse) and compressed (pieces of
 * the pipeline): the same tables, only the format and the size on disk differ. */
static void plain_vs_compressed(const char *plain, const char *packed, const char *shape)
{
    tsql_error e1, e2;
    tsql_trace *a = load(plain, 2, NULL, "0.3,0.6", &e1);
    tsql_trace *b = load(packed, 2, shape, NULL, &e2);
    CHECK(a != NULL);
    CHECK(b != NULL);
    if (a && b) {
        int d = compare(a, b, 0);
        if (d) fprintf(stderr, "  %s vs %s: %d differences\n", plain, packed, d);
        CHECK_EQ(d, 0);
        CHECK(a->format != b->format);
    }
    tsql_trace_free(a);
    tsql_trace_free(b);
}

static int stop_at_call(void *ctx, int64_t bytes, int64_t events)
{
    (void)bytes;
    (void)events;
    int *calls = ctx;
    return ++*calls >= 1; /* the first call: the caller's piece 0 always makes one */
}

/* An interrupt from the progress callback (on the caller's thread) stops every piece
 * and the inflating thread: TSQL_EINTR, everything freed (ASan checks the leaks). */
static void interrupted(const char *path)
{
    for (int k = 0; k < 10; k++) {
        int calls = 0;
        setenv("TSQL_TEST_STREAM", "4096,3", 1);
        tsql_load_opts o = {.threads = 2, .progress = stop_at_call, .progress_ctx = &calls};
        tsql_error err = {0};
        tsql_trace *t = tsql_trace_load(path, &o, &err);
        unsetenv("TSQL_TEST_STREAM");
        if (t) { /* the callback runs every 16 MiB: a small file may end first */
            tsql_trace_free(t);
            continue;
        }
        CHECK_EQ(err.code, TSQL_EINTR);
    }
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "build/tmp/stream.%ld", (long)getpid());
    char cmd[128];
    snprintf(cmd, sizeof cmd, "mkdir -p %s", tmpdir);
    if (system(cmd) != 0) return 1;
    static const char *const shapes[] = {"64,2", "97,3", "1000,2", "1000,8", "4096,3", "65536,4"};
    static const char *const big_shapes[] = {"1000,2", "4096,3", "4096,8", "65536,2", "100000,3"};
    const int nshapes = (int)(sizeof shapes / sizeof *shapes);
    const int nbig = (int)(sizeof big_shapes / sizeof *big_shapes);

    /* the demo trace: a realistic Kineto file, as shipped (gzip) */
    all_shapes("examples/demo_trace.json.gz", big_shapes, nbig, 2);
    gunzip("examples/demo_trace.json.gz", tp("stream_demo.json"));
    plain_vs_compressed(tp("stream_demo.json"), "examples/demo_trace.json.gz", "4096,3");
    CHECK_EQ(gzip_file(tp("stream_demo.json"), tp("stream_demo3.json.gz"), 3), 0);
    all_shapes(tp("stream_demo3.json.gz"), big_shapes, nbig, 1);
    plain_vs_compressed(tp("stream_demo.json"), tp("stream_demo3.json.gz"), "1000,2");

    /* the generated trace, good and bad, in one and in several gzip members */
    const char *gen[] = {"stream_gen", "stream_gen_syntax", "stream_gen_truncated"};
    for (int bad = 0; bad < 3; bad++) {
        char plain[256], packed[256];
        snprintf(plain, sizeof plain, "%s/%s.json", tmpdir, gen[bad]);
        write_generated(plain, 600, bad);
        for (int members = 1; members <= 4; members += 3) {
            snprintf(packed, sizeof packed, "%s/%s_%d.json.gz", tmpdir, gen[bad], members);
            CHECK_EQ(gzip_file(plain, packed, members), 0);
            all_shapes(packed, shapes, nshapes, 2);
            if (bad == 0) plain_vs_compressed(plain, packed, "97,3");
        }
    }

    /* damaged gzip: cut short and flipped bytes, the error and offset as serially */
    long glen = file_size(tp("stream_gen_1.json.gz"));
    CHECK(glen > 1000);
    unsigned seed = 4321;
    for (int k = 0; k < 12; k++) {
        seed = seed * 1103515245u + 12345u;
        long at = 20 + (long)((seed >> 8) % (unsigned long)(glen - 20));
        char path[256];
        snprintf(path, sizeof path, "%s", tp("stream_damaged.json.gz"));
        CHECK_EQ(damage(tp("stream_gen_1.json.gz"), path, k % 2 ? at : glen, k % 2 ? -1 : at), 0);
        same_as_serial(path, k % 3 ? "97,3" : "1000,2", 1);
    }

    /* the SQL tests' compressed files: gzip, several members, zip, bad ones */
    const char *data[] = {"tree_rules.json.gz", "tree_rules_multimember.json.gz", "tree_rules.zip",
                          "bad_truncated.json.gz", "bad_corrupt.json.gz"};
    for (size_t i = 0; i < sizeof data / sizeof *data; i++) {
        char path[256];
        snprintf(path, sizeof path, "tests/data/%s", data[i]);
        all_shapes(path, shapes, nshapes, 1);
    }
    plain_vs_compressed("tests/data/tree_rules.json", "tests/data/tree_rules.zip", "97,2");

    /* a file big enough for the real ring shape (4 MiB chunks) but one chunk: the
     * pipeline runs with a single piece */
    same_as_serial("examples/demo_trace.json.gz", "0", 1);

    interrupted("examples/demo_trace.json.gz");

    /* the pipeline really cut the text in most loads (the small test files fit in one
     * chunk of the larger shapes) */
    CHECK(pieces_seen > loads / 2);
    printf("test_stream: %d of %d pipelined loads ran in pieces\n", pieces_seen, loads);
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
    if (system(cmd) != 0) fprintf(stderr, "test_stream: could not remove %s\n", tmpdir);
    return check_report("test_stream");
}
