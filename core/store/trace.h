/*
 * trace.h — one loaded trace: the columnar event store, the call tree and the kernels.
 *
 * Rows are events in file order; a row number is the event's uid (TraceLens's UID:
 * the 0-based position in traceEvents, counting every element). Each property is its
 * own array (struct of arrays), strings are interned ids, nullable ids are compact
 * icol columns, and args are interned "templates": the args object as compact JSON with
 * the per-event integers (correlation, External id, Ev Idx, ...) cut out into typed
 * columns or a side pool. Expanding a template gives the args text back.
 *
 * Lifecycle: tsql_trace_load() (load/load.c) has the reader fill the store and then
 * builds the tree (tree/tree.c); after that everything here is read-only except lazily
 * built indexes and the results kept in the cache slots.
 */
#ifndef TSQL_TRACE_H
#define TSQL_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"
#include "util/error.h"
#include "store/icol.h"
#include "store/intern.h"

/* Normalised event kind: the category as today's Kineto spells it. */
enum tsql_kind {
    TSQL_K_OTHER = 0,
    TSQL_K_CPU_OP,          /* cpu_op, old "Operator" */
    TSQL_K_RUNTIME,         /* cuda_runtime, old "Runtime" (HIP runtime too) */
    TSQL_K_DRIVER,          /* cuda_driver, old "Driver" */
    TSQL_K_KERNEL,          /* kernel, old "Kernel" */
    TSQL_K_MEMCPY,          /* gpu_memcpy, old "Memcpy" */
    TSQL_K_MEMSET,          /* gpu_memset, old "Memset" */
    TSQL_K_PYTHON,          /* python_function */
    TSQL_K_USER_ANNOTATION, /* user_annotation */
    TSQL_K_GPU_ANNOTATION,  /* gpu_user_annotation */
    TSQL_K_AC2G,            /* CPU->GPU flow: ac2g, old "async" flows named "launch" */
    TSQL_K_FWDBWD,          /* forward->backward flow */
    TSQL_K_INSTANT,         /* cpu_instant_event and other instants */
    TSQL_K_TRACE,           /* the profiler's own "Trace" span */
    TSQL_K_COUNT
};
extern const char *const tsql_kind_names[TSQL_K_COUNT];

static inline int tsql_kind_is_gpu(int k)
{
    return k == TSQL_K_KERNEL || k == TSQL_K_MEMCPY || k == TSQL_K_MEMSET;
}
static inline int tsql_kind_is_launch(int k)
{
    return k == TSQL_K_RUNTIME || k == TSQL_K_DRIVER;
}

/* Per-event flags. */
enum {
    TSQL_F_OLD_SPELLING = 1 << 0, /* category was an old spelling we normalised */
    TSQL_F_TL_DROPPED = 1 << 1,   /* TraceLens leaves it out of its tree (overrun rule) */
    TSQL_F_TS_INEXACT = 1 << 2,   /* ts had sub-ns digits: ts_ns is rounded */
    TSQL_F_BP_E = 1 << 3,         /* flow event with "bp": "e" */
    TSQL_F_HAS_ARGS = 1 << 4,     /* the event had an "args" member */
    TSQL_F_PAIRED = 1 << 5,       /* a span made from a B/E pair */
    TSQL_F_TL_ROOT = 1 << 6,      /* TraceLens cpu_op_root */
    TSQL_F_XD = 1 << 7,           /* ts/dur doubles are in the exact-double side table */
};

/* Placeholder bytes inside args templates: the value comes from a column or the pool.
 * They cannot occur in JSON text (raw control bytes are invalid outside strings). */
enum {
    TSQL_PH_CORRELATION = 1,
    TSQL_PH_EXTERNAL_ID = 2,
    TSQL_PH_STREAM = 3,
    TSQL_PH_DEVICE = 4,
    TSQL_PH_SEQ = 5,
    TSQL_PH_PYTHON_ID = 6,
    TSQL_PH_PYTHON_PARENT = 7,
    TSQL_PH_POOL = 8,
};

/* How a GPU event is tied to the runtime call that launched it. */
enum tsql_link {
    TSQL_LINK_NONE = 0,        /* launch not in the trace */
    TSQL_LINK_AC2G = 1,        /* ac2g flow pair (TraceLens links it) */
    TSQL_LINK_GRAPH = 2,       /* graph launch: shared correlation (TraceLens links it) */
    TSQL_LINK_CORRELATION = 3, /* same correlation id only: TraceLens does not link it */
};
extern const char *const tsql_link_names[4];

/* One GPU activity with its launch context; rows ordered by uid. */
typedef struct tsql_kernels {
    uint32_t n;
    uint32_t *uid;          /* the GPU event */
    uint32_t *runtime;      /* launching runtime/driver event, UINT32_MAX if none */
    uint32_t *op;           /* innermost enclosing cpu_op of the launch, or UINT32_MAX */
    uint32_t *root_op;      /* outermost enclosing cpu_op, or UINT32_MAX */
    uint32_t *tl_runtime;   /* TraceLens's link (ac2g or graph), or UINT32_MAX */
    uint32_t *tl_launcher;  /* TraceLens's launcher (section 3.3) or UINT32_MAX */
    uint8_t *link;          /* enum tsql_link */
    uint8_t *is_comm;       /* name matches nccl|rccl|cross_device_reduce */
} tsql_kernels;

typedef struct tsql_warning {
    int64_t offset;         /* byte offset in the JSON text, -1 if none */
    int64_t uid;            /* event, -1 if none */
    char msg[160];
} tsql_warning;

/* A kind of per-trace lazily built result: one static instance per kind, defined by
 * the stage that builds it (build makes the value, free releases it with the trace). */
typedef struct tsql_trace tsql_trace;
typedef struct tsql_cache_kind {
    const char *name;
    void *(*build)(tsql_trace *t); /* NULL on OOM */
    void (*free)(void *value);
} tsql_cache_kind;
#define TSQL_CACHE_SLOTS 32 /* 13 kinds today; a full table makes tsql_trace_cached fail as out of memory */

struct tsql_trace {
    /* identity */
    char *path;
    int format;             /* enum tsql_source_kind */
    int64_t file_bytes;     /* size on disk */
    int64_t json_bytes;     /* size of the JSON text */
    int bare_array;         /* top level was a bare array (2020 Kineto) */
    uint32_t old_spelling;  /* events whose category was an old spelling */
    double load_seconds;
    double parse_seconds;   /* the part of load_seconds spent reading and parsing */
    int parse_pieces;       /* pieces the text was parsed in, in parallel (1 = serially) */

    /* strings: names, categories, pid/tid spellings, args templates */
    tsql_intern strings;

    /* columns, one entry per event */
    uint32_t n, cap;
    uint8_t *ph;            /* phase character, 0 if absent */
    uint8_t *kind;          /* enum tsql_kind */
    uint8_t *flags;         /* TSQL_F_* */
    uint32_t *cat;          /* string id of cat as written, 0 if absent */
    uint32_t *name;         /* string id, 0 if absent */
    uint32_t *pid, *tid;    /* string id of the JSON text of the value ("7", "\"stream 7\"") */
    int64_t *ts_ns;         /* exact ns, TSQL_NULL if absent */
    int64_t *dur_ns;        /* exact ns, TSQL_NULL if absent */
    uint32_t *args;         /* string id of the args template, 0 if no args */
    uint32_t *pool_at;      /* first pool value of this event's template */
    tsql_icol correlation, external_id, stream, device, seq, python_id, python_parent,
        flow_id;

    /* side pool of integers cut out of args templates */
    int64_t *pool;
    size_t npool, cap_pool;

    /* rare exact doubles: ts/dur whose double is not ts_ns/1000 (see ts_us()) */
    uint32_t *xd_uid;       /* sorted by uid */
    double *xd_ts, *xd_dur;
    size_t nxd, cap_xd;

    /* tree (tree.c) */
    uint32_t *parent;       /* UINT32_MAX = root / not in a tree */
    uint16_t *depth;
    uint8_t *edge;          /* kind of edge to parent: enum tsql_edge */
    uint32_t *child_at;     /* CSR: children of e are child[child_at[e] .. child_at[e+1]);
                             * downward only where the inference report's pseudo ops list
                             * a launch call whose parent stays (analysis/pseudo_ops.h) */
    uint32_t *child;
    tsql_kernels kernels;
    int link_key_is_external; /* TraceLens's linking key: 0 correlation, 1 External id */

    /* lazily built index: uids with a correlation, sorted by correlation */
    uint32_t *by_corr;
    uint32_t nby_corr;

    /* top-level members other than traceEvents, as a compact JSON object text */
    char *metadata;
    int64_t rank, world_size, devices, base_time_ns; /* TSQL_NULL if unknown */
    char *gpu_name;         /* deviceProperties[0].name, or NULL */

    tsql_warning *warnings;
    uint32_t nwarnings, cap_warnings;
    uint64_t warnings_total; /* may exceed nwarnings: only the first ones are kept */

    size_t mem_limit;       /* 0 = none; otherwise fail cleanly past this many bytes */
    size_t mem_used;        /* bytes held by the columns (approximate, for the limit) */

    /* results built on first use by later stages (analyses, name lookups), freed with
     * the trace: the store knows them only by their kind (see tsql_trace_cache_get) */
    struct tsql_cache_slot { const tsql_cache_kind *kind; void *value; } cache[TSQL_CACHE_SLOTS];
};

enum tsql_edge { TSQL_EDGE_NONE = 0, TSQL_EDGE_CPU = 1, TSQL_EDGE_LAUNCH = 2, TSQL_EDGE_PYTHON = 3 };
extern const char *const tsql_edge_names[4];

#define TSQL_NONE UINT32_MAX

/* The cached value of kind, or NULL when it has not been built. */
void *tsql_trace_cache_get(const tsql_trace *t, const tsql_cache_kind *kind);
/* kind's value, built on first call and then kept with the trace; NULL on OOM. */
void *tsql_trace_cached(tsql_trace *t, const tsql_cache_kind *kind);
/* Keeps value as kind's result (freed with the trace by kind->free). 0, or -1 when
 * every slot is taken (value is then not kept: the caller frees it). */
int tsql_trace_cache_put(tsql_trace *t, const tsql_cache_kind *kind, void *value);

/* 1 when every GPU event's duration is a whole number of µs, else 0; -1 on OOM. Traces
 * written with integer µs (Kineto before 2024) give Python ints, later ones floats
 * ("22.0"), and TraceLens's tables keep that type. Computed once per trace. */
int tsql_trace_whole_us(tsql_trace *t);

/* Frees the trace, with every cached result. */
void tsql_trace_free(tsql_trace *t);

/* The thread of event uid as one key: its pid and tid string ids (equal keys, the same
 * pid and tid spelled alike). */
static inline uint64_t tsql_thread_key(const tsql_trace *t, uint32_t uid)
{
    return (uint64_t)t->pid[uid] << 32 | t->tid[uid];
}

/* µs as a double exactly as Python's float(text) would give (TraceLens's arithmetic). */
double tsql_trace_ts_us(const tsql_trace *t, uint32_t uid);
double tsql_trace_dur_us(const tsql_trace *t, uint32_t uid);

/* Appends the args of uid as compact JSON text to buf (growing it). Returns the
 * length written, or -1 on OOM; writes nothing (returns 0) when the event has no args. */
long tsql_trace_args_json(const tsql_trace *t, uint32_t uid, tsql_buf *buf);

/* Finds the value of a top-level key in uid's args template and returns a pointer to
 * its JSON text (*len set) when that text holds no placeholder; NULL otherwise. */
const char *tsql_trace_arg_raw(const tsql_trace *t, uint32_t uid, const char *key, size_t *len);

/* Looks up a top-level key among the members of compact args JSON s[0..n) (a template
 * or expanded args text); the value's text, *len set, or NULL. */
const char *tsql_template_member(const char *s, size_t n, const char *key, size_t *len);

/* Index of uids with correlation == c: returns the first position in t->by_corr and
 * sets *count. Builds the index on first use; returns -1 on OOM. */
long tsql_trace_find_correlation(tsql_trace *t, int64_t c, uint32_t *count);

/* Records a warning (kept up to a cap, always counted). */
void tsql_trace_warn(tsql_trace *t, int64_t offset, int64_t uid, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#endif
