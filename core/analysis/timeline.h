/*
 * timeline.h — the GPU timeline: GPU activity in buckets, their unions, and the rows of
 * TraceLens's gpu_timeline sheet (docs/report.md, GPU timeline).
 *
 * Every GPU event is the closed interval [ts, ts + dur] in µs, computed in double
 * arithmetic exactly as TraceLens does (ts + dur of the doubles Python reads), so the
 * unions and lengths (util/interval.h) equal TraceLens's to the last bit. Devices and
 * streams are pooled.
 *
 * No SQLite here; ext/vtab/timeline.c exposes it as the gpu_timeline_raw table.
 */
#ifndef TSQL_TIMELINE_H
#define TSQL_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "store/trace.h"
#include "util/interval.h"

/* Buckets of docs/report.md, gpu_timeline_raw (first match wins): memcpy (gpu_memcpy, or a ROCm
 * legacy copy kernel), computation (ROCm legacy fill kernels), communication (kernel or memset
 * whose name has nccl / rccl / cross_device_reduce, any case), computation. */
enum tsql_gpu_bucket { TSQL_GPU_COMP = 0, TSQL_GPU_COMM = 1, TSQL_GPU_MEMCPY = 2 };

/* kind is enum tsql_kind (a GPU kind); name may be NULL. */
int tsql_gpu_bucket_of(int kind, const char *name);

/* 1 if name fully matches a ROCm legacy copy kernel name (MEMORY_COPY_HOST_TO_DEVICE,
 * __amd_rocclr_copyBufferRectAligned.kd, ...) / a legacy fill kernel name. */
int tsql_is_rocm_copy_kernel(const char *name);
int tsql_is_rocm_fill_kernel(const char *name);

/* The rows of the gpu_timeline sheet, in TraceLens's order. */
enum tsql_timeline_row {
    TSQL_TL_COMPUTATION,
    TSQL_TL_EXPOSED_COMM,
    TSQL_TL_EXPOSED_MEMCPY,
    TSQL_TL_BUSY,
    TSQL_TL_IDLE,       /* replaced by MICRO_IDLE, MACRO_IDLE with a threshold */
    TSQL_TL_MICRO_IDLE,
    TSQL_TL_MACRO_IDLE,
    TSQL_TL_TOTAL,
    TSQL_TL_TOTAL_COMM,
    TSQL_TL_TOTAL_MEMCPY,
    TSQL_TL_NKINDS
};
extern const char *const tsql_timeline_row_names[TSQL_TL_NKINDS]; /* "computation_time", ... */

#define TSQL_TIMELINE_MAXROWS 9

typedef struct tsql_timeline {
    int nrows;                              /* 8, or 9 with micro/macro idle; 0 if no events */
    uint8_t kind[TSQL_TIMELINE_MAXROWS];    /* enum tsql_timeline_row, in output order */
    double us[TSQL_TIMELINE_MAXROWS];       /* value in µs */
    uint32_t nevents;                       /* GPU events that went in */
    double first_start, last_end;           /* span of all events (µs) */
} tsql_timeline;

/* Computes the timeline of n events: iv[i] their intervals, bucket[i] their bucket.
 * micro_idle_us < 0 (or NaN) keeps one idle_time row; otherwise idle is split into
 * micro (gaps < micro_idle_us) and macro (gaps >= it). iv and bucket are reordered.
 * Returns 0, or -1 on OOM. With n == 0, out->nrows is 0 (TraceLens raises there). */
int tsql_timeline_compute(tsql_iv *iv, uint8_t *bucket, size_t n, double micro_idle_us,
                          tsql_timeline *out);

/* The timeline of a loaded trace. linked_only: only GPU events TraceLens links to a
 * runtime call (kernels.tl_runtime_uid, TraceLens's default); 0: every GPU event
 * (TraceLens's --include_unlinked_kernels, and our native reading). GPU events
 * without ts or dur are left out. Returns 0 or -1 on OOM. */
int tsql_timeline_of_trace(const tsql_trace *t, int linked_only, double micro_idle_us,
                           tsql_timeline *out);

#endif
