/*
 * fuzz_reader.c — libFuzzer harness over core/: source sniffing (plain, gzip, zip),
 * the streaming reader, the event store and the call-tree builder. No SQLite.
 *
 * Each input is written to one memfd (reused across runs) and loaded through its
 * /proc/self/fd path, exactly as trace_open would load a file. The fuzz build
 * compiles core/input/source.c with tiny ring chunks (TSQL_SOURCE_CHUNK_BYTES, see
 * mk/fuzz.mk) so that events, strings and numbers cross chunk ends and the stitching
 * path is exercised on small inputs.
 *
 * After a successful load every row is read back the way the virtual tables read it
 * (times, args expansion, arg lookup, correlation index, children, kernels), and the
 * tree's invariants are checked; a broken invariant aborts, which libFuzzer reports.
 * A failed load must leave a message and, for syntax errors, an offset inside the text.
 *
 *   make fuzz            build/fuzz/fuzz_reader, FUZZ_RUNS executions (default 10M)
 *   make fuzz-smoke      a short run
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "load/load.h"

static int g_fd = -1;
static char g_path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    g_fd = memfd_create("fuzz_trace", MFD_CLOEXEC);
    if (g_fd < 0) {
        perror("memfd_create");
        abort();
    }
    snprintf(g_path, sizeof g_path, "/proc/self/fd/%d", g_fd);
    return 0;
}

#define REQUIRE(cond)                                                                  \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            fprintf(stderr, "fuzz_reader: invariant failed: %s (line %d)\n", #cond,    \
                    __LINE__);                                                         \
            abort();                                                                   \
        }                                                                              \
    } while (0)

/* Reads everything back and checks the tree; aborts on a broken invariant. */
static void walk(tsql_trace *t)
{
    tsql_buf b = {0};
    static const char *const keys[] = {"correlation", "External id", "Input Dims", "stream",
                                       "Python parent id", "grid"};
    volatile double sink = 0;
    for (uint32_t i = 0; i < t->n; i++) {
        sink += tsql_trace_ts_us(t, i) + tsql_trace_dur_us(t, i);
        b.n = 0;
        long n = tsql_trace_args_json(t, i, &b);
        REQUIRE(n >= 0);
        REQUIRE((t->args[i] == 0) == (n == 0));
        for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
            size_t len = 0;
            const char *v = tsql_trace_arg_raw(t, i, keys[k], &len);
            if (v) REQUIRE(len > 0);
        }
        REQUIRE(t->kind[i] < TSQL_K_COUNT);
        REQUIRE(t->edge[i] <= TSQL_EDGE_PYTHON);
        uint32_t p = t->parent[i];
        if (p != TSQL_NONE) {
            REQUIRE(p < t->n);
            REQUIRE(p != i);
            REQUIRE(t->edge[i] != TSQL_EDGE_NONE);
        }
        REQUIRE(t->child_at[i] <= t->child_at[i + 1]);
        for (uint32_t c = t->child_at[i]; c < t->child_at[i + 1]; c++)
            REQUIRE(t->child[c] < t->n && t->parent[t->child[c]] == i);
        int64_t corr = tsql_icol_get(&t->correlation, i);
        if (corr != TSQL_NULL) {
            uint32_t cnt = 0;
            long at = tsql_trace_find_correlation(t, corr, &cnt);
            REQUIRE(at >= 0 && cnt >= 1);
        }
    }
    /* following parents always ends (no cycle survives the tree build) */
    for (uint32_t i = 0; i < t->n; i++) {
        uint32_t steps = 0;
        for (uint32_t p = t->parent[i]; p != TSQL_NONE; p = t->parent[p]) REQUIRE(++steps <= t->n);
    }
    for (uint32_t k = 0; k < t->kernels.n; k++) {
        uint32_t g = t->kernels.uid[k];
        REQUIRE(g < t->n && tsql_kind_is_gpu(t->kind[g]));
        REQUIRE(k == 0 || t->kernels.uid[k - 1] < g);
        uint32_t r = t->kernels.runtime[k];
        REQUIRE(r == TSQL_NONE || (r < t->n && tsql_kind_is_launch(t->kind[r])));
        REQUIRE(t->kernels.link[k] <= TSQL_LINK_CORRELATION);
    }
    for (uint32_t w = 0; w < t->nwarnings; w++) {
        REQUIRE(t->warnings[w].msg[0] != 0);
        REQUIRE(t->warnings[w].uid < (int64_t)t->n);
    }
    REQUIRE(t->warnings_total >= t->nwarnings);
    REQUIRE(t->metadata != NULL);
    (void)sink;
    free(b.p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (ftruncate(g_fd, 0) != 0) abort();
    size_t off = 0;
    while (off < size) {
        ssize_t w = pwrite(g_fd, data + off, size - off, (off_t)off);
        if (w <= 0) abort();
        off += (size_t)w;
    }
    tsql_load_opts opts = {.mem_limit = (size_t)256 << 20};
    tsql_error err = {0};
    tsql_trace *t = tsql_trace_load(g_path, &opts, &err);
    if (t) {
        REQUIRE(err.code == TSQL_OK);
        walk(t);
        tsql_trace_free(t);
    } else {
        REQUIRE(err.code != TSQL_OK);
        REQUIRE(err.msg[0] != 0);
        /* a syntax error in plain text points inside the text (or just past it) */
        if (err.code == TSQL_EFORMAT && !err.compressed && err.offset >= 0)
            REQUIRE((size_t)err.offset <= size);
    }
    return 0;
}
