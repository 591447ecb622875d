/*
 * inference_formulas.h — the formulas of the inference extension models on plain
 * numbers (docs/perf-models.md "Extension models"): what the models compute after reading
 * an op's args, and what the SQL functions flops_/bytes_inference_attention, _moe and
 * _rmsnorm expose.
 */
#ifndef TSQL_INFERENCE_FORMULAS_H
#define TSQL_INFERENCE_FORMULAS_H

#include <stdint.h>

/* Inference attention over one engine step: context (prefill) tokens c_*, generation
 * (decode) tokens g_* (sq query tokens, sk key tokens, sqsq Σ sq², sqsk Σ sq·sk),
 * W a sliding window (0 = none). */
typedef struct tsql_attention_dims {
    int64_t H_Q, H_KV, d_qk, d_v, W;
    int64_t c_sq, c_sk, c_sqsq, c_sqsk, g_sq, g_sk, g_sqsq, g_sqsk;
} tsql_attention_dims;

/* F and Bytes (bpe_q, bpe_kv bytes per element of queries and of the KV cache).
 * Returns 0, or -1 when a count does not fit in 64 bits. */
int tsql_attention_eval(const tsql_attention_dims *d, int64_t bpe_q, int64_t bpe_kv, int64_t *flops,
                        int64_t *bytes);

/* MoE GEMMs: kind 0 fused (up + down in one kernel), 1 up (gate/up projection),
 * 2 down. ib / wb / ob: bytes per element of input, weights, output (may be 0.5).
 * Returns 0, or -1 when F does not fit in 64 bits. */
enum { TSQL_MOE_FUSED = 0, TSQL_MOE_UP = 1, TSQL_MOE_DOWN = 2 };
int tsql_moe_eval(int kind, int64_t M, int64_t K, int64_t N, int64_t E, int64_t topk, int gated, double ib,
                  double wb, double ob, int64_t *flops, double *bytes);

/* Expected number of experts a batch of M tokens touches: E·(1 − ((E−k)/E)^M). */
double tsql_moe_active_experts(int64_t E, int64_t topk, int64_t M);

/* RMSNorm over E elements of C channels: F = (E / C)·(2·C + 2) + 2·E (real division),
 * Bytes = E·p + E·p + C·p. */
double tsql_rmsnorm_flops(int64_t E, int64_t C);
double tsql_rmsnorm_bytes(int64_t E, int64_t C, int64_t bpe);

#endif
