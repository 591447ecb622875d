/*
 * gpu_specs.h — built-in peak-throughput table of data-center GPUs, for the roofline
 * (reference semantics 7.1, 7.12), and detection of the GPU from a trace's
 * deviceProperties[].name.
 *
 * Peaks are dense (no structured sparsity) TFLOPS (TOPS for int8); memory bandwidth in
 * GB/s (decimal), memory in GB. NAN = not published / not applicable. MI300X and MI325X
 * carry TraceLens's bundled "max achievable" numbers so rooflines match its
 * --gpu_arch_platform output; the other rows are vendor datasheet peaks. Every row names
 * its source (docs/perf-models.md lists them).
 */
#ifndef TSQL_GPU_SPECS_H
#define TSQL_GPU_SPECS_H

#include <stddef.h>

/* The peak columns, in table order (also the SQL column names). */
enum tsql_gpu_col {
    TSQL_GPU_MATRIX_FP64,
    TSQL_GPU_MATRIX_FP32,
    TSQL_GPU_MATRIX_TF32,
    TSQL_GPU_MATRIX_FP16,
    TSQL_GPU_MATRIX_BF16,
    TSQL_GPU_MATRIX_FP8,
    TSQL_GPU_MATRIX_FP4,
    TSQL_GPU_MATRIX_INT8,
    TSQL_GPU_VECTOR_FP64,
    TSQL_GPU_VECTOR_FP32,
    TSQL_GPU_VECTOR_FP16,
    TSQL_GPU_VECTOR_BF16,
    TSQL_GPU_NPEAKS
};
extern const char *const tsql_gpu_col_names[TSQL_GPU_NPEAKS]; /* "matrix_fp64", ... */

typedef struct tsql_gpu_spec {
    const char *gpu;            /* key, e.g. "H100", "MI300X" */
    const char *vendor;         /* "NVIDIA" / "AMD" */
    double mem_bw_gbps;         /* HBM bandwidth, GB/s */
    double memory_gb;
    double peak[TSQL_GPU_NPEAKS]; /* TFLOPS; NAN when absent */
    const char *name_pattern;   /* see tsql_gpu_name_match */
    const char *source;         /* where the numbers come from */
} tsql_gpu_spec;

/* The built-in rows (detection order); *n = count. */
const tsql_gpu_spec *tsql_gpu_specs(size_t *n);

/* Built-in row by key (case-insensitive), or NULL. */
const tsql_gpu_spec *tsql_gpu_spec_find(const char *gpu);

/* Pattern match: the pattern is a list of alternatives separated by '|'; an
 * alternative matches when all its space-separated words occur in the name as
 * case-insensitive substrings, and a word starting with '!' must not occur.
 * E.g. "H100 !PCIe|GH100" matches "NVIDIA H100 80GB HBM3" but not "NVIDIA H100 PCIe". */
int tsql_gpu_name_match(const char *pattern, const char *device_name);

/* Key of the first built-in row whose pattern matches device_name, or NULL. */
const char *tsql_gpu_detect(const char *device_name);

/* Index of a Compute Spec ("matrix_bf16") among the peak columns, or -1. */
int tsql_gpu_col_index(const char *compute_spec);

#endif
