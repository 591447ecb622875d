/* op_annotation.c — the iteration annotation enclosing an op; see op_annotation.h. */
#include "analysis/op_annotation.h"
#include "analysis/pseudo_ops.h"

#include <stdlib.h>
#include <string.h>

#include "util/sort.h"

static const char *const INFERENCE_PREFIXES[] = {
    "vllm::unified_attention_with_output", "aiter::mha_varlen_fwd", "pseudo_mla_decode_fwd",
    "pseudo_mla_prefill_fwd", "vllm::gdn_attention_core", "aiter::fmha_v3_varlen_fwd",
    "sglang_profiler::tilelang_kernel_tilelang_sparse_fwd", "sglang_profiler::attention_paged_attention_ragged",
    "aiter::mha_batch_prefill", "aiter::pa_decode_gluon", "aiter::v4_attention_with_output",
    "pseudo_v4_paged_decode_swa", "pseudo_v4_paged_decode_csa", "pseudo_v4_paged_decode_hca",
};

int tsql_op_annotated(const char *name, int inference)
{
    if (!name) return 0;
    size_t n = inference ? sizeof INFERENCE_PREFIXES / sizeof *INFERENCE_PREFIXES : 1;
    for (size_t i = 0; i < n; i++)
        if (strncmp(name, INFERENCE_PREFIXES[i], strlen(INFERENCE_PREFIXES[i])) == 0) return 1;
    return 0;
}

typedef struct anns {
    size_t n;
    double *ts;      /* sorted by ts (stable) */
    double *maxend;  /* running maximum of ts + dur up to i */
    double *end;
    uint32_t *uid;
} anns;

static void anns_free(anns *a)
{
    if (!a) return;
    free(a->ts);
    free(a->maxend);
    free(a->end);
    free(a->uid);
    free(a);
}

static void *build(tsql_trace *t)
{
    anns *a = calloc(1, sizeof *a);
    if (!a) return NULL;
    size_t n = 0;
    for (uint32_t u = 0; u < t->n; u++)
        n += t->kind[u] == TSQL_K_USER_ANNOTATION || t->kind[u] == TSQL_K_GPU_ANNOTATION;
    tsql_keyed *k = malloc((n ? n : 1) * sizeof *k);
    a->ts = malloc((n ? n : 1) * sizeof *a->ts);
    a->maxend = malloc((n ? n : 1) * sizeof *a->maxend);
    a->end = malloc((n ? n : 1) * sizeof *a->end);
    a->uid = malloc((n ? n : 1) * sizeof *a->uid);
    if (!k || !a->ts || !a->maxend || !a->end || !a->uid) {
        free(k);
        anns_free(a);
        return NULL;
    }
    n = 0;
    for (uint32_t u = 0; u < t->n; u++)
        if (t->kind[u] == TSQL_K_USER_ANNOTATION || t->kind[u] == TSQL_K_GPU_ANNOTATION) {
            k[n] = (tsql_keyed){tsql_trace_ts_us(t, u), (uint32_t)n, u};
            n++;
        }
    tsql_keyed_sort(k, n);
    for (size_t i = 0; i < n; i++) {
        uint32_t u = k[i].v;
        a->uid[i] = u;
        a->ts[i] = tsql_trace_ts_us(t, u);
        a->end[i] = a->ts[i] + tsql_trace_dur_us(t, u);
        a->maxend[i] = i && a->maxend[i - 1] > a->end[i] ? a->maxend[i - 1] : a->end[i];
    }
    a->n = n;
    free(k);
    return a;
}

static void *build_value(tsql_trace *t) { return build(t); }
static void free_value(void *v) { anns_free(v); }
static const tsql_cache_kind KIND = {"op_annotations", build_value, free_value};

const char *tsql_op_annotation(tsql_trace *t, uint32_t uid, int inference, int *oom)
{
    *oom = 0;
    /* a trace prepared for the inference report follows its rule everywhere */
    if (tsql_trace_inference_mode(t)) inference = 1;
    if (!tsql_op_annotated(tsql_intern_text(&t->strings, t->name[uid]), inference)) return NULL;
    const anns *a = tsql_trace_cached(t, &KIND);
    if (!a) {
        *oom = 1;
        return NULL;
    }
    double ts = tsql_trace_ts_us(t, uid), end = ts + tsql_trace_dur_us(t, uid);
    /* candidates: ann.ts <= ts, i.e. the prefix [0, hi) */
    size_t lo = 0, hi = a->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (a->ts[mid] <= ts) lo = mid + 1;
        else hi = mid;
    }
    hi = lo;
    /* the first i < hi with end[i] > end: where the running maximum first exceeds it */
    lo = 0;
    size_t r = hi;
    while (lo < r) {
        size_t mid = (lo + r) / 2;
        if (a->maxend[mid] > end) r = mid;
        else lo = mid + 1;
    }
    if (lo >= hi) return "NA";
    return tsql_intern_text(&t->strings, t->name[a->uid[lo]]);
}
