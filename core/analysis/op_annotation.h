/*
 * op_annotation.h — the iteration annotation enclosing an op, for the perf models that
 * read per-step statistics from it (inference attention, docs/inference.md): the name
 * of the first user annotation (user_annotation or gpu_user_annotation, by ts, file
 * order among equal ts) with ann.ts <= op.ts and op.ts + op.dur < ann.ts + ann.dur
 * (strict), else "NA".
 *
 * Which ops are annotated: the standard report annotates only names starting with
 * vllm::unified_attention_with_output; the inference report 14 attention prefixes
 * (tsql_op_annotated). A trace prepared for the inference report (pseudo_ops.h) follows
 * the inference rule whatever the caller asks. Built once per trace (annotations sorted, with a running
 * maximum of their ends: each lookup is a binary search).
 */
#ifndef TSQL_OP_ANNOTATION_H
#define TSQL_OP_ANNOTATION_H

#include <stdint.h>

#include "store/trace.h"

/* 1 when the op name is annotated under that report's rule (inference 0 / 1) */
int tsql_op_annotated(const char *op_name, int inference);

/* The annotation of uid under that rule: NULL when its name is not annotated, "NA" when
 * no annotation encloses it, else the annotation's name (owned by the trace). NULL
 * also on out of memory (*oom set). */
const char *tsql_op_annotation(tsql_trace *t, uint32_t uid, int inference, int *oom);

#endif
