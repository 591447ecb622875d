/*
 * collectives.h — the collective communication calls of one trace (one rank): what
 * was sent (kind, process group, dtype, element counts) and when, gathered from the
 * GPU kernel and the CPU side of each call. The SQL face is the `collectives` table
 * (ext/vtab/collectives.c); the views of sql/collectives/coll_analysis.sql add bandwidths and
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
 *
 * Beside these merged fields, each kernel row also keeps TraceLens's own reading of the
 * kernel's args (tl[], docs/collectives.md, "The kernel's args as TraceLens reads them"):
 * the same keys from the kernel event only, each value as json.load and pandas hold it.
 * The TraceLens views (nccl_rank_rows, report_coll_analysis) read those, so the args are
 * decoded here and nowhere else.
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

/* One args value as TraceLens holds it (a pandas cell): missing or null → NULL, a
 * string as written, a number with an integer spelling → INT, any other number → REAL,
 * true / false → the TEXT "True" / "False" (Python's bool as pandas prints it), an array
 * → the TEXT of a Python tuple, recursively ("(0, 1)"), an object → a Python dict's repr. */
enum tsql_pycell_type { TSQL_PYCELL_NULL = 0, TSQL_PYCELL_INT, TSQL_PYCELL_REAL, TSQL_PYCELL_TEXT };
typedef struct tsql_pycell {
    uint8_t type; /* enum tsql_pycell_type */
    union {
        int64_t i;
        double r;
        char *s;  /* owned */
    } v;
} tsql_pycell;

/* The keys TraceLens's NCCL analyser reads from a collective kernel's args. */
enum tsql_coll_tl_field {
    TSQL_COLL_TL_PG,         /* "Process Group Name" */
    TSQL_COLL_TL_PG_RANKS,   /* "Process Group Ranks" */
    TSQL_COLL_TL_NAME,       /* "Collective name"; "allreduce" for an unnamed cross_device_reduce kernel */
    TSQL_COLL_TL_GROUP_SIZE, /* "Group size" */
    TSQL_COLL_TL_DTYPE,      /* "dtype" */
    TSQL_COLL_TL_IN_NELEMS,  /* "In msg nelems" */
    TSQL_COLL_TL_OUT_NELEMS, /* "Out msg nelems" */
    TSQL_COLL_TL_IN_SPLIT,   /* "In split size" */
    TSQL_COLL_TL_OUT_SPLIT,  /* "Out split size" */
    TSQL_COLL_TL_STREAM,     /* "stream" */
    TSQL_COLL_TL_SEQ,        /* "Seq" of the kernel, else of its record_param_comms call */
    TSQL_COLL_TL_N
};
/* The args key of each field (TSQL_COLL_TL_SEQ: "Seq"). */
extern const char *const tsql_coll_tl_keys[TSQL_COLL_TL_N];

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
    tsql_pycell tl[TSQL_COLL_TL_N]; /* TraceLens's reading of the kernel's args; all NULL
                                       on an annotation row */
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

/* Sets *cell to the value of key in the compact args JSON text args[0..n) as TraceLens
 * holds it (tsql_pycell above; NULL when args has no such key). 0, or -1 on OOM. */
int tsql_coll_pycell(const char *args, size_t n, const char *key, tsql_pycell *cell);
void tsql_pycell_clear(tsql_pycell *cell);

#endif
