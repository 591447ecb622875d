/*
 * perf_ops.h — every op instance that has a perf model, evaluated: the rows behind
 * TraceLens's perf-model sheets (GEMM, CONV_fwd, SDPA_bwd, ...) with their kernel time,
 * FLOPs, bytes and parameters (docs/schema.md, perf_ops; the models: docs/perf-models.md).
 *
 * Candidates are all events whose name has a sheet family, in file order. Families
 * GEMM, UnaryElementwise, BinaryElementwise and Normalization give one forward row
 * each; the others give a forward row (sheet F_fwd) and, when the op has backward
 * events (Sequence-number link) and the model implements them, a backward row (F_bwd),
 * with TraceLens's moves between the two sheets (the `appended` rows).
 *
 * Model results are cached per (name, args template, direction, kernel names), so a
 * trace with many identical ops evaluates each shape once. Built on first use.
 */
#ifndef TSQL_PERF_OPS_H
#define TSQL_PERF_OPS_H

#include <stdint.h>

#include "perfmodel/perfmodel.h"
#include "store/trace.h"

typedef struct tsql_perf_result {
    tsql_perf perf;          /* status, flops, bytes, compute_spec, params */
    char *params_json;       /* {"M": "8944", "bias": "False", "x": null}: str() forms */
    char *sheet_params_json; /* the same as its sheet prints them: each parameter's text
                                by the dtype of its column over the frame (docs/report.md, cell text),
                                e.g. "16.0" in a float64 column; null when missing */
    uint32_t frame;          /* index into tsql_perf_ops.frames */
} tsql_perf_result;

/* A sheet frame (docs/report.md, cell text): the rows of one family evaluated in one direction, before
 * TraceLens moves or drops any (F_fwd pass, F_bwd pass, or a single sheet). pandas
 * decides each column's dtype over it. */
typedef struct tsql_perf_frame {
    const char *family;      /* "GEMM", "CONV", ... (static registry text) */
    uint8_t bwd;
    uint8_t has_gpu;         /* some row of it reaches a GPU event: Kernel Time is
                                float64, else every row is the integer 0 (docs/report.md, cell text) */
} tsql_perf_frame;

typedef struct tsql_perf_op {
    uint32_t uid;
    uint8_t bwd;             /* metrics are the backward ones */
    uint8_t appended;        /* a forward-pass row TraceLens appends to F_bwd */
    uint16_t sheet;          /* index into tsql_perf_ops.sheets */
    uint32_t result;         /* index into tsql_perf_ops.results */
    double kernel_us;        /* busy time of its GPU events */
    uint32_t gpu_at, ngpu;   /* its GPU events: gpu[gpu_at ..], sorted by ts */
} tsql_perf_op;

typedef struct tsql_perf_ops {
    tsql_perf_op *rows;      /* candidates in file order, forward row before backward */
    uint32_t n;
    uint32_t *gpu;
    tsql_perf_result *results;
    uint32_t nresults;
    char **sheets;           /* "GEMM", "CONV_fwd", ... */
    uint32_t nsheets;
    uint8_t *sheet_int_kernel_time; /* per sheet: 1 when its Kernel Time column is int64
                                       (no frame that makes up the sheet has GPU work) */
    /* per sheet, JSON arrays of the Compute Specs that can get a roofline (bytes known,
     * GFLOPS > 0; docs/report.md, Roofline columns) in its own frame (an F_bwd sheet: the backward pass, rows it
     * drops included) and in the frame of the rows moved into it (F_bwd only, else
     * "[]"): whether and where the sheet has roofline columns depends on them */
    char **sheet_rl_specs, **sheet_moved_rl_specs;
    tsql_perf_frame *frames;
    uint32_t nframes;
    /* Sequence-number links (docs/schema.md, perf_ops): keys/values are uids */
    struct tsql_u64map *fwd_to_bwd, *bwd_to_fwd;
    /* ConvBias_ / ConvBiasReLU_ ops whose model succeeds, in file order: the forward ops
     * TraceLens caches parameters of (docs/perf-models.md, "ConvBias_Backward and
     * ConvBiasReLU_Backward"); the name ids of the four names (0 when absent) */
    uint32_t *convbias_fwd;
    uint32_t nconvbias_fwd;
    uint32_t convbias_names[4]; /* ConvBias_, ConvBiasReLU_, ConvBias_Backward, ConvBiasReLU_Backward */
} tsql_perf_ops;

/* Built on first call and kept with the trace; NULL on OOM. */
const tsql_perf_ops *tsql_perf_ops_get(tsql_trace *t);
/* The same when already built, else NULL (never builds). */
const tsql_perf_ops *tsql_perf_ops_peek(const tsql_trace *t);
void tsql_perf_ops_free(tsql_perf_ops *p);

/* Forward/backward links by Sequence number (docs/schema.md, perf_ops): the backward
 * wrapper of a forward op, or TSQL_NONE; built with the perf ops. */
uint32_t tsql_bwd_of(tsql_trace *t, uint32_t fwd_uid);
uint32_t tsql_fwd_of(tsql_trace *t, uint32_t bwd_uid);

/* TraceLens's cache of ConvBias_ / ConvBiasReLU_ parameters (docs/perf-models.md,
 * "ConvBias_Backward and ConvBiasReLU_Backward"): per forward class, Sequence number →
 * the forward op whose model was built last. A ConvBias_Backward / ConvBiasReLU_Backward
 * copies the parameters of the op its class's entry names at the moment its own model is
 * built. perf_ops fills it in file order; unified_ops replays TraceLens's later order on
 * a copy started from the state the perf-model sheets leave. */
typedef struct tsql_convbias_cache tsql_convbias_cache;

/* The cache as the perf-model sheets leave it (every forward op of p->convbias_fwd, in
 * file order). NULL on OOM. */
tsql_convbias_cache *tsql_convbias_cache_new(const tsql_trace *t, const tsql_perf_ops *p);
/* 1 when the trace has a ConvBias_Backward or ConvBiasReLU_Backward op (else the cache
 * never matters). */
int tsql_convbias_cache_active(const tsql_convbias_cache *c);
/* TraceLens built the model of op uid: if it is a ConvBias_ / ConvBiasReLU_ whose model
 * succeeds and has a Sequence number, it becomes the entry of that number. */
void tsql_convbias_cache_note(tsql_convbias_cache *c, uint32_t uid);
/* The forward op whose parameters backward op bwd_uid copies now, or TSQL_NONE (also for
 * any other op). */
uint32_t tsql_convbias_cache_fwd(const tsql_convbias_cache *c, uint32_t bwd_uid);
void tsql_convbias_cache_free(tsql_convbias_cache *c);
/* The args text of forward op uid as tsql_perf_eval_fwd takes it ("{}" when it has none),
 * NUL-terminated in *b (reset first); NULL on OOM. */
const char *tsql_convbias_fwd_args(const tsql_trace *t, uint32_t uid, tsql_buf *b);

#endif
