/* load.c — the pipeline of one load: parse (in pieces when it pays, else serially),
 * the metadata members, then the tree; timed for traces.load_seconds. */
#include <stdlib.h>
#include <time.h>

#include "load/load.h"

#include "input/reader_parallel.h"
#include "store/store.h"
#include "tree/tree.h"

tsql_trace *tsql_trace_load(const char *path, const tsql_load_opts *opts, tsql_error *err)
{
    struct timespec t0, t1, t2;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    tsql_trace *t = NULL;
    tsql_buf meta = {0};
    int rc = tsql_load_parallel(path, opts, &t, &meta, err);
    if (rc == 1) {
        rc = tsql_reader_parse(path, opts, &t, &meta, err);
        if (t) t->parse_pieces = 1;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (rc == 0 && !t) { /* a parse that succeeds returns its store; never otherwise */
        tsql_error_set(err, TSQL_ENOMEM, -1, "out of memory");
        rc = -1;
    }
    if (rc == 0 && tsql_reader_metadata(t, &meta)) {
        tsql_error_set(err, TSQL_ENOMEM, -1, "out of memory");
        rc = -1;
    }
    if (rc == 0 && tsql_store_shrink(t)) {
        tsql_error_set(err, TSQL_ENOMEM, -1, "out of memory");
        rc = -1;
    }
    if (rc == 0) {
        /* a second thread pays for big traces only (and tests force it) */
        int threads = opts && opts->threads > 0 ? opts->threads : 2;
        if (t->n < (1u << 16) && !getenv("TSQL_TEST_SPLIT")) threads = 1;
        rc = tsql_tree_build_threads(t, err, threads);
    }
    if (rc == 0) rc = tsql_store_check_limit(t, err, -1);
    if (err->code != TSQL_OK && t && t->format != 0) err->compressed = 1;
    free(meta.p);
    if (rc != 0) {
        tsql_trace_free(t);
        return NULL;
    }
    clock_gettime(CLOCK_MONOTONIC, &t2);
    t->parse_seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    t->load_seconds = (double)(t2.tv_sec - t0.tv_sec) + (double)(t2.tv_nsec - t0.tv_nsec) * 1e-9;
    return t;
}
