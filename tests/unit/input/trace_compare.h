/* trace_compare.h — the unit tests' comparison of two loaded traces: every column,
 * string id, warning, metadata, tree edge and kernel row (test_parallel.c,
 * test_stream.c). */
#ifndef TSQL_TEST_TRACE_COMPARE_H
#define TSQL_TEST_TRACE_COMPARE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/trace.h"

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

/* same_file: the format and size on disk must match too (else only the text). */
static int compare(tsql_trace *a, tsql_trace *b, int same_file)
{
    ndiff = 0;
    SAME(a, b, n);
    if (a->n != b->n) return ndiff;
    if (same_file) {
        SAME(a, b, format);
        SAME(a, b, file_bytes);
    }
    SAME(a, b, json_bytes);
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

#endif
