/*
 * pseudo_ops.h — the changes TraceLens's inference report makes to a trace's tree before
 * it reads it (its enable_pseudo_ops switch, on in that report; docs/inference.md,
 * Preparing a trace for the inference report):
 *
 *   - SGLang profiler names: an op name "sglang_profiler::<op>_<digits>" whose first
 *     event is a cpu_op is renamed "sglang_profiler::<op>" on every event of that name,
 *     so that the perf-model registry's sglang_profiler names match;
 *   - the inference rule of op annotations (op_annotation.h: 14 attention prefixes).
 *
 * The pseudo-op injection itself (vLLM's fused-MoE GEMMs, MLA and V4 attention wrappers)
 * is not done yet (docs/differences.md).
 *
 * No SQLite here; ext/func/inference.c is trace_inference_prepare().
 */
#ifndef TSQL_PSEUDO_OPS_H
#define TSQL_PSEUDO_OPS_H

#include <stdint.h>

#include "store/trace.h"

/* 1 when t was prepared (its annotations follow the inference rule). */
int tsql_trace_inference_mode(const tsql_trace *t);

/* Prepares t once (later calls do nothing). The trace must not have been analysed yet
 * (no cached analysis but process names, Python frames and a capture merge's record):
 * returns -2 then, leaving t as it is. Else the number of events renamed, or -1 on out
 * of memory (t possibly half renamed: the caller drops it). */
int64_t tsql_trace_inference_prepare(tsql_trace *t);

#endif
