/*
 * iteration.h — the iteration annotations serving frameworks record around each engine
 * step (vLLM `execute_...`, sglang `step[...]`, ATOM `prefill[...]`/`decode[...]`,
 * diffusion), parsed as TraceLens parses them: the per-step query/key statistics the
 * inference attention models read, and the batch size the graph-capture merge picks a
 * capture with (docs/inference.md).
 */
#ifndef TSQL_ITERATION_H
#define TSQL_ITERATION_H

#include <stdint.h>

enum tsql_iter_format {
    TSQL_ITER_NONE = 0,       /* not an iteration annotation */
    TSQL_ITER_VLLM_DETAILED,  /* execute_N_context_N(sqNskNsqsqNsqskN)_generation_N(...) */
    TSQL_ITER_VLLM_NATIVE,    /* execute_context_N(N)_generation_N(N) */
    TSQL_ITER_SGLANG_DETAILED,/* step[DECODE ... sqsq=N ...] */
    TSQL_ITER_SGLANG_NATIVE,  /* step[DECODE bs=N toks=N] */
    TSQL_ITER_ATOM_DETAILED,  /* prefill[... sqsq=N ...] / decode[...] */
    TSQL_ITER_ATOM_NATIVE,    /* prefill[...] / decode[...] */
    TSQL_ITER_DIFFUSION       /* execute_diffusion_N_WxH */
};

typedef struct tsql_iter {
    int format;               /* enum tsql_iter_format */
    int detailed;             /* the c_* / g_* statistics below are usable */
    /* context (prefill) and generation (decode) statistics: query tokens, key tokens,
     * Σ sq², Σ sq·sk */
    int64_t c_sq, c_sk, c_sqsq, c_sqsk, g_sq, g_sk, g_sqsq, g_sqsk;
    int has_batch;            /* batch_size is known */
    int64_t batch_size;       /* tokens of the step, as the capture merge reads it */
} tsql_iter;

/* Parses an annotation name (NULL → format NONE). Never fails. */
void tsql_iter_parse(const char *name, tsql_iter *out);

#endif
