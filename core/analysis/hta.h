/*
 * hta.h — the event table of Holistic Trace Analysis (HTA) for one trace (one rank):
 * the rows HTA keeps, its µs rounding, its CPU↔GPU link (index_correlation), the
 * iteration column, the incomplete-last-step cut, and the name classes its analyses
 * test (kernel type, launch names). Reference: docs/hta.md.
 *
 * Rows are the events that have both a `dur` and a `cat` (in practice the complete
 * "X" events), the profiler's own "Trace" span excepted, in file order. Times are
 * absolute µs (the alignment to the job's first event is done by the views, because
 * it spans every rank). The analyses themselves are SQL views (sql/hta/).
 *
 * No SQLite here; ext/vtab/hta_rows.c exposes it as the hta_rows and hta_trace_info
 * tables.
 */
#ifndef TSQL_HTA_H
#define TSQL_HTA_H

#include <stdint.h>

#include "store/trace.h"
#include "util/buf.h"

/* HTA's kernel types (its classification by name, in the order it tests them). */
enum tsql_hta_ktype {
    TSQL_HTA_COMPUTATION = 0,
    TSQL_HTA_COMMUNICATION = 1,
    TSQL_HTA_MEMORY = 2,
    TSQL_HTA_OTHER = 3,
};
extern const char *const tsql_hta_ktype_names[4]; /* "COMPUTATION", ... */

/* Kernel type of a name (NULL = ""). */
int tsql_hta_kernel_type(const char *name);

/* Per-row flags. */
enum {
    TSQL_HTA_DEV = 1 << 0,       /* stream != -1: what HTA's analyses call GPU rows */
    TSQL_HTA_GPU_SIDE = 1 << 1,  /* (stream >= 0 and correlation >= 0) or Event/Context Sync */
    TSQL_HTA_KEEP = 1 << 2,      /* survives the incomplete-last-step cut of its rank */
    TSQL_HTA_LAUNCH_STATS = 1 << 3, /* cudaLaunchKernel(ExC), runFunction - job_prep_... */
    TSQL_HTA_MEM_LAUNCH = 1 << 4,   /* cudaMemsetAsync, cudaMemcpyAsync */
    TSQL_HTA_QUEUE_LAUNCH = 1 << 5, /* a launch name of the queue-length analysis */
    TSQL_HTA_ATEN_LAUNCH = 1 << 6,  /* a launch name of the ATen-op analysis */
};

/* Name classes of tsql_hta_name_flags (the launch bits above). */
int tsql_hta_name_flags(const char *name);

/* Step number of a name: ProfilerStep\s*#\s*(\d+) at its start (HTA's iteration and
 * profiler-step parse); -1 when the name starts with ProfilerStep but does not parse,
 * -2 when it does not start with ProfilerStep. */
int64_t tsql_hta_step_number(const char *name);
/* 1 if the name matches ^ProfilerStep#\d (the names of the last-step filter). */
int tsql_hta_is_step_name(const char *name);

typedef struct tsql_hta_rows {
    uint32_t n;            /* rows */
    int rounded;           /* ts/dur were rounded to whole µs (HTA's rule for ns traces) */
    double min_ts;         /* smallest ts of a row (µs, absolute; NaN without rows) */
    uint32_t *uid;         /* the event (HTA's `index`) */
    double *ts, *dur;      /* µs, absolute */
    int64_t *stream, *correlation; /* -1 when absent */
    int64_t *index_corr;   /* HTA's index_correlation (-1, 0 or the partner's uid) */
    int64_t *iteration;    /* HTA's iteration column (-1 = none) */
    uint32_t *partner;     /* row whose uid is index_corr (index_corr >= 0), else UINT32_MAX */
    uint8_t *flags;        /* TSQL_HTA_* */
    uint8_t *ktype;        /* enum tsql_hta_ktype of the name */
    uint32_t *dev;         /* rows with TSQL_HTA_DEV, ascending */
    uint32_t ndev;
    uint32_t *launch;      /* rows with a launch bit, ascending */
    uint32_t nlaunch;
    uint32_t *steps;       /* rows whose name starts with ProfilerStep, ascending */
    uint32_t nsteps;
    uint32_t *step_names;  /* distinct name ids matching ^ProfilerStep#\d, ascending */
    uint32_t nstep_names;
} tsql_hta_rows;

/* The cached tables: HTA's rounding rule applied, or rounding never applied. */
extern const tsql_cache_kind tsql_hta_rows_kind;
extern const tsql_cache_kind tsql_hta_rows_unrounded_kind;

/* Builds the table of t (rounding: 1 = HTA's rule, 0 = never); NULL on OOM. */
tsql_hta_rows *tsql_hta_rows_build(tsql_trace *t, int rounding);
void tsql_hta_rows_free(void *rows);

/* 1 if HTA rounds t's times: some event's ts is fractional or missing. */
int tsql_hta_needs_rounding(const tsql_trace *t);

/* args."memory bandwidth (GB/s)" of event uid as a number, 0.0 when absent or not a
 * number; buf is scratch. */
double tsql_hta_memory_bw(const tsql_trace *t, uint32_t uid, tsql_buf *buf);

/* args.<key> of event uid as an integer (HTA's Int args: wait_on_stream, ...), -1 when
 * absent or not an integer; buf is scratch. */
int64_t tsql_hta_arg_int(const tsql_trace *t, uint32_t uid, const char *key, tsql_buf *buf);

#endif
