/*
 * collectives.h — the collective communication calls of one trace (one rank): what
 * was sent (kind, process group, dtype, element counts) and when, gathered from the
 * GPU kernel and the CPU side of each call. The SQL face is the `collectives` table
 * (ext/vtab_collectives.c); the views of sql/collectives/coll_analysis.sql add bandwidths and
 * TraceLens's coll_analysis sheet (docs/collectives.md, nccl_rank_rows and nccl_long;
 * nccl_summary_long; docs/analyses.md).
 *
 * One row per collective activity, in file order:
 *   - every communication kernel: kind kernel whose name contains nccl, rccl or
 *     cross_device_reduce (any case) — kernels.is_comm;
 *   - every gloo:* user annotation that no kernel's call holds: the work of the CPU
 *     backend, which runs on its own thread.
 * The CPU side of a kernel is found from its launching runtime call: the nearest
 * record_param_comms cpu_op above it (the call), the nearest c10d::* /
 * _c10d_functional::* op above that (the user's op), and the first nccl:* / gloo:*
 * user annotation inside the call's span on its thread.
 *
 * Each field is taken from the first place that records it: the kernel's args
 * (Kineto ≥ 2.3 copies "Collective name", "dtype", "In msg nelems", ... onto the
 * kernel), the call's args, then the annotation's "Input Dims" / "Input type" (element
 * count and dtype only; older traces). The kind comes from the recorded collective
 * name, else the annotation's name, else the op's name, else the kernel's name.
 */
#ifndef TSQL_COLLECTIVES_H
#define TSQL_COLLECTIVES_H

#include <stddef.h>
#include <stdint.h>

#include "store/trace.h"

enum tsql_coll_source { TSQL_COLL_KERNEL = 0, TSQL_COLL_ANNOTATION = 1 };

/* Where the element counts and dtype were read. */
enum tsql_coll_size_source {
    TSQL_COLL_SIZE_NONE = 0,
    TSQL_COLL_SIZE_KERNEL = 1,     /* the kernel's args */
    TSQL_COLL_SIZE_CALL = 2,       /* the record_param_comms call's args */
    TSQL_COLL_SIZE_ANNOTATION = 3, /* Input Dims / Input type of the nccl:/gloo: annotation */
};
extern const char *const tsql_coll_size_source_names[4]; /* NULL, "kernel", "call", "annotation" */

typedef struct tsql_coll {
    uint32_t uid;            /* the kernel, or the gloo annotation */
    uint32_t call;           /* record_param_comms cpu_op, or TSQL_NONE */
    uint32_t op;             /* c10d::* / _c10d_functional::* op, or TSQL_NONE */
    uint32_t annotation;     /* nccl:* / gloo:* user annotation, or TSQL_NONE */
    uint8_t source;          /* enum tsql_coll_source */
    uint8_t size_source;     /* enum tsql_coll_size_source */
    const char *kind;        /* normalised kind (tsql_coll_kind), never NULL */
    char *coll_name;         /* "Collective name" as recorded, or NULL */
    char *pg_name;           /* "Process Group Name", or NULL */
    char *pg_desc;           /* "Process Group Description", or NULL */
    char *pg_ranks;          /* "Process Group Ranks" as a JSON array text, or NULL */
    char *dtype;             /* as recorded ("Float", "BFloat16", or an Input type), or NULL */
    char *in_split, *out_split; /* split sizes as JSON array text, or NULL */
    int64_t group_size, in_nelems, out_nelems; /* TSQL_NULL if unknown */
    int dtype_bytes;         /* bytes per element, 0 if unknown */
    int64_t seq_in_group;    /* 0-based position by start time among the rows of its
                                process group (NULL group = one group) */
} tsql_coll;

typedef struct tsql_coll_list {
    tsql_coll *rows;
    size_t n, cap;
} tsql_coll_list;

/* Collects the trace's collectives into *out (rows in uid order). 0, or -1 on OOM
 * (out is then freed). */
int tsql_coll_build(const tsql_trace *t, tsql_coll_list *out);
void tsql_coll_free(tsql_coll_list *l);
/* The trace's collectives, built on first call and kept with the trace; NULL on OOM. */
const tsql_coll_list *tsql_coll_get(tsql_trace *t);
/* The same when already built, else NULL (never builds). */
const tsql_coll_list *tsql_coll_peek(const tsql_trace *t);

/* Normalised kind of a collective name, an annotation ("nccl:all_reduce"), an op
 * ("c10d::_allgather_base_") or a kernel name ("ncclDevKernel_AllGather_RING_LL"):
 * "allreduce", "allgather", "reduce_scatter", "all_to_all", "all_to_allv", "broadcast",
 * "reduce", "gather", "scatter", "barrier", "send", "recv", "sendrecv", or NULL when
 * not recognised. */
const char *tsql_coll_kind(const char *name);

/* Bytes per element of a collective's dtype: NCCL/Kineto names ("Float", "BFloat16",
 * "Long", ...; TraceLens's table plus Char, UInt8 and the float8 types) or an Input type
 * ("float", "c10::BFloat16", "long int"). 0 when unknown. */
int tsql_coll_dtype_bytes(const char *dtype);

#endif
