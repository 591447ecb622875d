/*
 * replay.h — event replay: a self-contained PyTorch script that re-creates one CPU op
 * call from what the trace recorded about it and times it (TraceLens's Event Replay,
 * docs/replay.md). The SQL face is replay_script(trace, uid) in
 * ext/functions_replay.c; docs/replay.md describes the script.
 *
 * Input: the op's name ("aten::mm") and its args object as JSON text, of which four
 * members are read (docs/replay.md, What the script does):
 *   "Input Dims"      one entry per op argument: a list of sizes for a tensor, a list of
 *                     lists for a tensor list, [] for anything else
 *   "Input type"      "c10::BFloat16", "float", "long int", ... for tensors; "Scalar",
 *                     "ScalarList", "TensorList", "GenericList", or "" (None) otherwise
 *   "Input Strides"   like Input Dims, with strides (optional: contiguous if absent)
 *   "Concrete Inputs" the literal value of scalars and scalar lists ("0.125", "True",
 *                     "[16, 16]"), "" for tensors
 *
 * The arguments are matched against a built-in table of ATen schemas (the overload is
 * chosen from which arguments are tensors, keyword-only parameters are passed by
 * name, ScalarType / Layout / MemoryFormat codes become torch objects). Ops without a
 * schema in the table are called through their overload packet
 * (torch.ops.<ns>.<op>), which lets PyTorch pick the overload at run time.
 *
 * The script never fails to compile: anything tracesql cannot translate (an unknown
 * dtype, a value that is not a Python literal, a tensor list whose shapes were not
 * recorded) becomes a placeholder with a comment saying so.
 */
#ifndef TSQL_REPLAY_H
#define TSQL_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "store/trace.h" /* tsql_buf */

/* What the script's header says about the event (all optional). */
typedef struct tsql_replay_ctx {
    const char *label;      /* trace label, NULL if none */
    int64_t uid;            /* the event, -1 if unknown */
    double cpu_dur_us;      /* the op's duration on the CPU, NAN if unknown */
    double kernel_us;       /* busy time of the op's GPU events (µs), NAN if unknown */
    long nkernels;          /* number of those GPU events, -1 if unknown */
} tsql_replay_ctx;

/* Writes the script for op `name` with the args object `args_json` (NULL = none)
 * into out (from its start, NUL-terminated). Returns 0; -1 on OOM; -2 when the event
 * cannot be replayed (not an operator name, or no recorded inputs): err gets the
 * reason (NUL-terminated, at most errsz bytes). */
int tsql_replay_script(const char *name, const char *args_json, const tsql_replay_ctx *ctx,
                       tsql_buf *out, char *err, size_t errsz);

/* The torch dtype expression for a Kineto "Input type" string ("torch.bfloat16"), or
 * NULL when unknown. Case-insensitive. */
const char *tsql_replay_torch_dtype(const char *type);

/* The torch dtype for a c10::ScalarType code as Kineto records dtype arguments
 * ("15" → "torch.bfloat16"), or NULL when unknown. */
const char *tsql_replay_scalar_type(long long code);

#endif
